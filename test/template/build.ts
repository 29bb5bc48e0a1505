/**
 * Template data folders: a household and its corpus media, ingested through the real pipeline ONCE,
 * then copied by every test that only needs the data (startServer({ template }) in
 * test/server/helpers/server.ts), instead of each test file pushing the same photos through sharp,
 * exifr and ffmpeg again. Tests whose subject is the pipeline itself (media, crash, intake, uploads,
 * corpus-ingest) keep ingesting on their own.
 *
 * A template is made from a *recipe* (recipes.ts): the members of the household (alice, the
 * administrator, as registerAdmin makes her, and the members as addMember makes them) and the corpus
 * files each owns, at the repository path the test asks for. Building one: a server on a fresh folder,
 * the household signed up over HTTP, each file copied into the primary repository and indexed like
 * indexCorpus (helpers/corpus-assets.ts) does, every job run to the end, a WAL checkpoint, and
 * `manifest.json` beside the catalog (user ids, asset ids by the recipe's keys).
 *
 * Cache: `.tmp/template/<recipe>-<key>`, where the key hashes the recipe and every source its result
 * depends on (the corpus files named, the migrations, adapters/media, the assets pipeline and ingest,
 * the metadata extraction, the helpers and this file). A change to any of them builds it again; a key
 * that missed an input would hand tests stale data, so the list errs on the side of more. `npm test`
 * builds every recipe in its "template" phase (`tsx test/template/build.ts`); a test run without it
 * builds what it needs on first use (a folder is renamed into place whole, so two lanes cannot see a
 * half-built one).
 *
 * Copies: the catalog stores the primary repository's absolute path, so copyTemplate() points it at
 * the copy before the server opens it (template.test.ts checks that no other row names the template).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { RECIPES, type Recipe } from './recipes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE = path.join(ROOT, '.tmp', 'template');
const CORPUS = path.resolve(ROOT, '../shared/corpus');

/** What the test gets back: who is signed in, and the assets by the recipe's keys. */
export interface TemplateManifest {
  recipe: string;
  key: string;
  /** The data folder the template was built in (its catalog named it; copies are pointed away from it). */
  builtAt: string;
  /** By user name; tests sign in with the helpers' password (access tokens expire, a copy may be older). */
  users: Record<string, { id: number }>;
  assets: Record<string, string>;
}

/** Sources whose change changes what a template holds (see the header). */
const INPUTS = [
  'server/src/platform/db/migrations',
  'server/src/adapters/media',
  'server/src/features/assets',
  'server/src/features/intake',
  'server/src/features/uploads',
  'server/src/features/places',
  'server/src/features/repositories',
  'test/template',
  'test/server/helpers',
];

function hashTree(h: crypto.Hash, rel: string): void {
  const abs = path.join(ROOT, rel);
  if (!fs.existsSync(abs)) return;
  if (fs.statSync(abs).isFile()) {
    h.update(`${rel}\0`).update(fs.readFileSync(abs));
    return;
  }
  for (const name of fs.readdirSync(abs).sort()) hashTree(h, path.join(rel, name));
}

export function templateKey(recipe: Recipe): string {
  const h = crypto.createHash('sha256');
  h.update(JSON.stringify(recipe));
  for (const [from] of Object.values(recipe.files)) h.update(from).update(fs.readFileSync(path.join(CORPUS, from)));
  for (const rel of INPUTS) hashTree(h, rel);
  return h.digest('hex').slice(0, 16);
}

function cacheDir(recipe: Recipe): string {
  return path.join(CACHE, `${recipe.name}-${templateKey(recipe)}`);
}

/** The built template of `recipe` (built now when missing): its folder and manifest. */
export async function ensureTemplate(recipe: Recipe): Promise<{ dir: string; manifest: TemplateManifest }> {
  const built = builtTemplate(recipe);
  if (built) return built;
  await build(recipe, cacheDir(recipe));
  return builtTemplate(recipe)!;
}

/** The template of `recipe` when it is built for today's sources, else null. */
export function builtTemplate(recipe: Recipe): { dir: string; manifest: TemplateManifest } | null {
  const dir = cacheDir(recipe);
  const file = path.join(dir, 'manifest.json');
  return fs.existsSync(file) ? { dir, manifest: JSON.parse(fs.readFileSync(file, 'utf8')) as TemplateManifest } : null;
}

/**
 * A fresh, independent copy of the template in `dest` (created): the files copied whole, and the
 * repositories that lived inside the template's folder pointed at the copy's. The server is not
 * running on it yet.
 */
export function copyTemplate(dir: string, manifest: TemplateManifest, dest: string): void {
  fs.cpSync(dir, dest, { recursive: true, preserveTimestamps: true });
  fs.rmSync(path.join(dest, 'manifest.json'));
  const db = new Database(path.join(dest, 'catalog.sqlite3'));
  try {
    db.prepare("UPDATE repositories SET path = ? || substr(path, ?) WHERE path = ? OR path LIKE ? || '/%'").run(
      dest,
      manifest.builtAt.length + 1,
      manifest.builtAt,
      manifest.builtAt,
    );
  } finally {
    db.close();
  }
}

async function build(recipe: Recipe, dir: string): Promise<void> {
  // Imported here: the builder needs the server, a test that only copies does not load it twice.
  const { startServer, Client } = await import('../server/helpers/server.ts');
  const { registerAdmin, addMember, data, V1 } = await import('../server/helpers/api.ts');
  const { indexCorpus } = await import('../server/helpers/corpus-assets.ts');
  fs.mkdirSync(CACHE, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `hearth-template-${recipe.name}-`));
  const srv = await startServer({ dataDir: work });
  let running = true;
  try {
    const admin = new Client(srv.url);
    const adminName = recipe.admin?.username ?? 'alice';
    const signedUp = recipe.admin
      ? await admin.post(`${V1}/auth/register`, recipe.admin).then((r) => (r.status === 201 ? data(admin, r) : Promise.reject(new Error(r.text))))
      : (await registerAdmin(admin)).session;
    if (recipe.admin) admin.token = signedUp.token;
    const users: TemplateManifest['users'] = { [adminName]: { id: signedUp.user.user_id } };
    for (const name of recipe.members) {
      const c = new Client(srv.url);
      users[name] = { id: (await addMember(admin, c, name)).session.user.user_id };
    }
    const assets: Record<string, string> = {};
    // One indexCorpus per owner, in the recipe's order of owners, as the tests did it.
    for (const owner of [adminName, ...recipe.members]) {
      const mine = Object.fromEntries(Object.entries(recipe.files).filter(([, f]) => (f[2] ?? adminName) === owner).map(([k, f]) => [k, [f[0], f[1]] as const]));
      if (Object.keys(mine).length) Object.assign(assets, await indexCorpus(srv, users[owner]!.id, mine));
    }
    await srv.container.jobRunner.whenIdle();
    srv.container.db.pragma('wal_checkpoint(TRUNCATE)');
    const manifest: TemplateManifest = { recipe: recipe.name, key: path.basename(dir), builtAt: work, users, assets };
    running = false;
    await srv.stop();
    fs.writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 1));
    fs.rmSync(path.join(work, 'tmp'), { recursive: true, force: true });
    // Whole or not at all: another lane may be building the same recipe.
    const staged = `${dir}.${process.pid}`;
    fs.cpSync(work, staged, { recursive: true, preserveTimestamps: true });
    try {
      fs.renameSync(staged, dir);
    } catch {
      fs.rmSync(staged, { recursive: true, force: true }); // the other lane's copy won; it is the same
    }
    // Older builds of this recipe (made from other sources) are never used again.
    for (const old of fs.readdirSync(CACHE)) {
      if (old.startsWith(`${recipe.name}-`) && /^[0-9a-f]{16}$/.test(old.slice(recipe.name.length + 1)) && path.join(CACHE, old) !== dir) {
        fs.rmSync(path.join(CACHE, old), { recursive: true, force: true });
      }
    }
  } finally {
    if (running) await srv.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// `tsx test/template/build.ts [name…]`: builds every recipe, or those named (the "template" phase of
// `npm test`; own-server.ts for a spec's recipe).
if (import.meta.filename === process.argv[1]) {
  const named = process.argv.slice(2);
  for (const recipe of Object.values(RECIPES) as Recipe[]) {
    if (named.length && !named.includes(recipe.name)) continue;
    const started = performance.now();
    const { dir } = await ensureTemplate(recipe);
    console.log(`template ${path.relative(ROOT, dir)} ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}
