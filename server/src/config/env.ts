/**
 * Process configuration, read once from the environment at start.
 *
 * Every knob a deployment can turn lives in this one zod schema so that a typo or a bad value fails
 * fast with a readable message instead of a half-started server.
 *
 * | variable              | default        | meaning                                                        |
 * |-----------------------|----------------|----------------------------------------------------------------|
 * | HEARTH_PORT           | 6680           | TCP port of the HTTP server (0 = pick a free one)              |
 * | HEARTH_HOST           | (setting)      | interface to bind; 0.0.0.0 serves every browser on the LAN.    |
 * |                       |                | Unset: 127.0.0.1, or every interface when an administrator     |
 * |                       |                | turned on "Let other devices on this network use Hearth".      |
 * |                       |                | Set: it wins over that setting (the admin page says so).       |
 * | HEARTH_DATA_DIR       | ./data         | catalog, keys, backups and the storage root with repositories |
 * | HEARTH_MODELS_DIR     | <data>/models  | ONNX models and their data files, laid out as the model        |
 * |                       |                | registry says (adapters/ml/model-manifest.ts); may be read-only |
 * | HEARTH_SHIPPED_MODELS_DIR | <repo>/models | the models shipped with Hearth (the two face models), used |
 * |                       |                | where HEARTH_MODELS_DIR lacks them; tests point it at an empty |
 * |                       |                | folder to see an install without them                          |
 * | HEARTH_ML_WORKERS     | (cores)        | most inference workers (child processes) that indexing         |
 * |                       |                | indexing may hold (each loads the models it runs); never more  |
 * |                       |                | than the machine's cores; one more serves only queries. Each   |
 * |                       |                | holds ~0.5 GB while indexing: this bounds the peak             |
 * | HEARTH_ML_IDLE_S      | 30             | seconds an inference worker waits for work before it releases  |
 * |                       |                | its models and ends (their memory goes back to the system);    |
 * |                       |                | they load again when work comes (1..86400)                     |
 * | HEARTH_ML_NICE        | 10             | the scheduling priority (nice, 0..19) of the workers that index:|
 * |                       |                | the server's own work (pages, uploads, imports, thumbnails)     |
 * |                       |                | gets the cores first and indexing takes what is left; 0 runs   |
 * |                       |                | them like the server. Query workers always run at 0            |
 * | HEARTH_MODELS_BASE_URL| (registry)     | `models:fetch` and the admin Install download `<base>/<path>`  |
 * |                       |                | instead of each file's source URL (a mirror; tests serve copies |
 * |                       |                | on loopback)                                                   |
 * | HEARTH_SPECIES_BASE_URL | (iNaturalist)| the species reference service (iNaturalist API v1), default    |
 * |                       |                | https://api.inaturalist.org/v1; tests point it at loopback     |
 * | HEARTH_SPECIES_TIMEOUT_MS | 6000       | how long a species reference request may take (connect, answer |
 * |                       |                | and body) before the card is "offline" (100..60000)            |
 * | HEARTH_CLIP_STANDIN   | false          | TESTS ONLY: the semantic tasks run the colour-only stand-in    |
 * |                       |                | CLIP (scripts/models/make-clip-standin.ts) instead of CLIP;    |
 * |                       |                | search then only understands colours (models/README.md)        |
 * | HEARTH_ML_DEFAULT_ON  | true           | false: the ML tasks (semantic, OCR, faces, species) start      |
 * |                       |                | switched off in a data folder whose `ml` settings never set    |
 * |                       |                | them (the original system's development default); the test     |
 * |                       |                | suites use it so that servers not testing ML spend no CPU on it |
 * | HEARTH_API_VARIANT    | A              | default response variant (A plain, B enveloped); a request's   |
 * |                       |                | `X-Api-Variant` header overrides it                            |
 * | HEARTH_LOG_LEVEL      | info           | pino level: fatal, error, warn, info, debug, trace, silent     |
 * | HEARTH_UI_DIR         | renderer/dist  | built web UI served at /                                       |
 * | HEARTH_TRUST_PROXY    | false          | true: take the client address from X-Forwarded-For (only when  |
 * |                       |                | a reverse proxy you run sits in front)                         |
 * | HEARTH_PUBLIC_ORIGIN  | (each request) | the one address passkeys are made for, e.g.                    |
 * |                       |                | https://photos.example.org; unset: the address each request    |
 * |                       |                | came to (features/auth/relying-party.ts)                       |
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The repository's `models/` folder: the nearest `models/README.md` above this file (the source tree and a
 * bundle both sit below the repository root); null when there is none (a bundle copied elsewhere).
 */
function repositoryModelsDir(): string | null {
  // import.meta.url, not import.meta.dirname: the server bundle (CommonJS, scripts/build-server.ts) defines only the URL.
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'models', 'README.md'))) return path.join(dir, 'models');
    if (path.dirname(dir) === dir) return null;
  }
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const envSchema = z.object({
  HEARTH_PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(6680),
  HEARTH_HOST: z
    .string()
    .min(1, 'must not be empty')
    .regex(/^[A-Za-z0-9.:_-]+$/, 'must be a host name or an IP address such as 127.0.0.1 or 0.0.0.0')
    .default('127.0.0.1'),
  HEARTH_DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  HEARTH_MODELS_DIR: z.string().min(1, 'must not be empty').optional(),
  HEARTH_SHIPPED_MODELS_DIR: z.string().min(1, 'must not be empty').optional(),
  HEARTH_ML_WORKERS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(256, 'must be at most 256')
    .optional(),
  HEARTH_ML_IDLE_S: z.coerce
    .number({ error: 'must be a number' })
    .min(1, 'must be between 1 and 86400')
    .max(86400, 'must be between 1 and 86400')
    .default(30),
  HEARTH_ML_NICE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 19')
    .max(19, 'must be between 0 and 19')
    .default(10),
  HEARTH_MODELS_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  HEARTH_SPECIES_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://api.inaturalist.org/v1'),
  HEARTH_SPECIES_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(100, 'must be between 100 and 60000')
    .max(60000, 'must be between 100 and 60000')
    .default(6000),
  HEARTH_CLIP_STANDIN: bool.default(false),
  HEARTH_ML_DEFAULT_ON: bool.default(true),
  HEARTH_API_VARIANT: z.enum(['A', 'B'], { error: 'must be A or B' }).default('A'),
  HEARTH_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  HEARTH_UI_DIR: z.string().min(1).default('renderer/dist'),
  HEARTH_TRUST_PROXY: bool.default(false),
  HEARTH_PUBLIC_ORIGIN: z
    .string()
    .url()
    .refine((u) => /^https?:$/.test(new URL(u).protocol), 'an http(s) address')
    .transform((u) => new URL(u).origin)
    .optional(),
  HEARTH_TEST_CHEAP_PASSWORDS: bool.default(false),
  HEARTH_TEST_ICLOUD_ENDPOINTS: z
    .string()
    .transform((text, ctx) => {
      try {
        return iCloudEndpoints.parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'JSON of iCloud service addresses {auth, setup, home, ckdatabasews, contentHosts, clientId}' });
        return z.NEVER;
      }
    })
    .optional(),
});

/** iCloud's service addresses as a test points them at a replay on loopback (adapters/cloud/icloud/endpoints.ts). */
const perDomain = z.object({ com: z.string().url(), cn: z.string().url() });
const iCloudEndpoints = z
  .object({
    auth: perDomain,
    setup: perDomain,
    home: perDomain,
    ckdatabasews: z.string().url().nullable(),
    contentHosts: z.array(z.string().min(1)),
    /** The client id Apple's web sign-in sends (a recording's own, so a replay matches its query strings). */
    clientId: z.string().min(1),
  })
  .partial();

export interface AppConfig {
  port: number;
  host: string;
  /** HEARTH_HOST was given: the listener stays on `host` whatever the network setting says. */
  hostFixed: boolean;
  dataDir: string;
  modelsDir: string;
  /** The models shipped with Hearth (HEARTH_SHIPPED_MODELS_DIR, default the repository's `models/`); null: none. */
  shippedModelsDir: string | null;
  /** Cap on the inference worker threads (HEARTH_ML_WORKERS); null: one per core. */
  mlWorkers: number | null;
  /** How long an idle inference thread keeps its models before releasing them (HEARTH_ML_IDLE_S), in ms. */
  mlIdleMs: number;
  /** The nice value of the inference workers that index (HEARTH_ML_NICE); 0: the server's own priority. */
  mlNice: number;
  /** Where `models:fetch` downloads from instead of each file's source URL; null: the sources. */
  modelsBaseUrl: string | null;
  /** The species reference service (iNaturalist API v1) and how long one request may take. */
  species: { baseUrl: string; timeoutMs: number };
  /** Test only: the semantic tasks use the stand-in CLIP (HEARTH_CLIP_STANDIN). */
  clipStandin: boolean;
  /** Whether the ML tasks are on where the settings never said (HEARTH_ML_DEFAULT_ON). */
  mlDefaultOn: boolean;
  uiDir: string;
  apiVariant: 'A' | 'B';
  logLevel: z.infer<typeof envSchema>['HEARTH_LOG_LEVEL'];
  trustProxy: boolean;
  /** The fixed origin passkeys are made for (HEARTH_PUBLIC_ORIGIN), or null: each request's own. */
  publicOrigin: string | null;
  /**
   * Test only: new password hashes use scrypt's lowest cost (HEARTH_TEST_CHEAP_PASSWORDS), so the suite's
   * hundreds of sign-ups cost milliseconds. Refused unless NODE_ENV=test: a real installation must never
   * store hashes that are cheap to guess.
   */
  testCheapPasswords: boolean;
  /**
   * Test only: iCloud's service addresses (HEARTH_TEST_ICLOUD_ENDPOINTS, JSON), pointed at a replay of recorded
   * exchanges on loopback. Refused unless NODE_ENV=test: a real installation talks to Apple only.
   */
  testICloudEndpoints: z.infer<typeof iCloudEndpoints> | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Hearth cannot start: bad configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws ConfigError listing every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AppConfig {
  const picked = Object.fromEntries(
    Object.keys(envSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const key = String(i.path[0]);
        return `${key}=${JSON.stringify(env[key])}: ${i.message}`;
      }),
    );
  }
  const e = parsed.data;
  if (e.HEARTH_TEST_ICLOUD_ENDPOINTS && env.NODE_ENV !== 'test') {
    throw new ConfigError(['HEARTH_TEST_ICLOUD_ENDPOINTS: only for the test suite (with NODE_ENV=test); a real installation signs in to Apple only']);
  }
  if (e.HEARTH_TEST_CHEAP_PASSWORDS && env.NODE_ENV !== 'test') {
    throw new ConfigError([
      `HEARTH_TEST_CHEAP_PASSWORDS=${JSON.stringify(env.HEARTH_TEST_CHEAP_PASSWORDS)}: only for the test suite (with NODE_ENV=test); it makes stored passwords cheap to guess`,
    ]);
  }
  return {
    port: e.HEARTH_PORT,
    host: e.HEARTH_HOST,
    hostFixed: picked.HEARTH_HOST !== undefined,
    dataDir: path.resolve(cwd, e.HEARTH_DATA_DIR),
    modelsDir: e.HEARTH_MODELS_DIR ? path.resolve(cwd, e.HEARTH_MODELS_DIR) : path.join(path.resolve(cwd, e.HEARTH_DATA_DIR), 'models'),
    shippedModelsDir: e.HEARTH_SHIPPED_MODELS_DIR ? path.resolve(cwd, e.HEARTH_SHIPPED_MODELS_DIR) : repositoryModelsDir(),
    mlWorkers: e.HEARTH_ML_WORKERS ?? null,
    mlIdleMs: Math.round(e.HEARTH_ML_IDLE_S * 1000),
    mlNice: e.HEARTH_ML_NICE,
    modelsBaseUrl: e.HEARTH_MODELS_BASE_URL ?? null,
    species: { baseUrl: e.HEARTH_SPECIES_BASE_URL.replace(/\/+$/, ''), timeoutMs: e.HEARTH_SPECIES_TIMEOUT_MS },
    clipStandin: e.HEARTH_CLIP_STANDIN,
    mlDefaultOn: e.HEARTH_ML_DEFAULT_ON,
    uiDir: path.resolve(cwd, e.HEARTH_UI_DIR),
    apiVariant: e.HEARTH_API_VARIANT,
    logLevel: e.HEARTH_LOG_LEVEL,
    trustProxy: e.HEARTH_TRUST_PROXY,
    publicOrigin: e.HEARTH_PUBLIC_ORIGIN ?? null,
    testCheapPasswords: e.HEARTH_TEST_CHEAP_PASSWORDS,
    testICloudEndpoints: e.HEARTH_TEST_ICLOUD_ENDPOINTS ?? null,
  };
}
