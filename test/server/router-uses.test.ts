/**
 * Routers get only the services they use (issue 26, point 4), as jobs do with `uses`.
 *
 * - By type and at run time: a router made with `routerUsing([...])` gets from `services(c)` a frozen object
 *   holding the declared services and nothing else; the container on the context is a sealed handle with no
 *   members. The `@ts-expect-error` lines are the type-level proof: `npm run typecheck` covers test/, and it
 *   fails if reaching an undeclared service (or the whole container) ever type-checks again.
 * - Over the source: no file but platform/http/services.ts reads `c.get('container')`, only app.ts seals the
 *   container, and every feature router declares its services with `routerUsing`, each one used by a handler.
 *   The checker is shown failing on planted violations.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Hono } from 'hono';
import type { AppEnv, AppServices } from '../../server/src/platform/http/context.ts';
import { routerUsing } from '../../server/src/platform/http/router.ts';
import { sealServices } from '../../server/src/platform/http/services.ts';

const SRC = path.resolve(import.meta.dirname, '../../server/src');

interface SourceFile {
  /** Relative to server/src. */
  file: string;
  src: string;
}

/** The one file that opens the sealed services, and the one that seals the container. */
const OPENS = 'platform/http/services.ts';
const SEALS = 'app.ts';

const code = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
const CONTAINER_READ = /\.get\(\s*['"`]container['"`]\s*\)/;
const DECLARED = /routerUsing\(\s*\[([^\]]*)\]/g;
const NAME = /['"](\w+)['"]/g;

/** What breaks the rule in these files, one line each (empty when the rule holds). */
export function routerUseViolations(files: readonly SourceFile[]): string[] {
  const found: string[] = [];
  for (const { file, src } of files) {
    const body = code(src);
    if (file !== OPENS && CONTAINER_READ.test(body)) found.push(`${file}: reads the whole container through c.get('container'); declare the services with routerUsing`);
    if (file !== SEALS && file !== OPENS && /\bsealServices\(/.test(body)) found.push(`${file}: seals services; only app.ts puts them on requests`);
    if (!file.startsWith('features/') || !file.endsWith('.router.ts')) continue;
    if (/\bcreateRouter\(/.test(body)) found.push(`${file}: makes its router with createRouter; use routerUsing([...]) to declare its services`);
    const declarations = [...body.matchAll(DECLARED)];
    if (declarations.length !== 1) {
      found.push(`${file}: declares its services ${declarations.length} times; once, with routerUsing([...])`);
      continue;
    }
    const names = [...declarations[0]![1]!.matchAll(NAME)].map((m) => m[1]!);
    // Used: `services(c).name`, or destructured from `services(c)`.
    const destructured = [...body.matchAll(/\{([^{}]*)\}\s*=\s*services\(c\)/g)].flatMap((m) => m[1]!.split(',').map((n) => n.trim().split(/\s*:/)[0]!));
    for (const name of names) {
      const used = new RegExp(`services\\(c\\)\\.${name}\\b`).test(body) || destructured.includes(name);
      if (!used) found.push(`${file}: declares '${name}' but no handler uses it; keep the list to what the handlers call`);
    }
  }
  return found;
}

function sources(): SourceFile[] {
  return fs
    .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: f.split(path.sep).join('/'), src: fs.readFileSync(path.join(SRC, f), 'utf8') }));
}

describe('routers get only the services they use', () => {
  test('services(c) holds the declared services, frozen; the container on the context is sealed', async () => {
    // Two of the application's services, as named in the container (values only need to be told apart).
    const all = { stacks: { name: 'stacks' }, assets: { name: 'assets' } } as unknown as AppServices;
    const { app: router, services } = routerUsing(['stacks']);
    router.get('/probe', (c) => {
      const mine = services(c);
      // @ts-expect-error -- `assets` is not in this router's declaration: reaching it does not type-check.
      const undeclared: unknown = mine.assets;
      // @ts-expect-error -- the container on the context is sealed: no service is reachable through it.
      const through: unknown = c.get('container').assets;
      return c.json({
        keys: Object.keys(mine),
        given: (mine.stacks as unknown as { name: string }).name,
        frozen: Object.isFrozen(mine),
        undeclared: undeclared === undefined,
        through: through === undefined,
        handleKeys: Reflect.ownKeys(c.get('container')).length,
        same: services(c) === mine,
      });
    });
    const app = new Hono<AppEnv>();
    const handle = sealServices(all);
    app.use('*', async (c, next) => {
      c.set('container', handle);
      return next();
    });
    app.route('/', router);
    const res = await app.request('/probe');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { keys: ['stacks'], given: 'stacks', frozen: true, undeclared: true, through: true, handleKeys: 0, same: true });
  });

  test('a request without sealed services fails loudly, not with a service of another app', async () => {
    const { app: router, services } = routerUsing(['stacks']);
    router.get('/probe', (c) => c.json({ keys: Object.keys(services(c)) }));
    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      // A plain object is not a handle app.ts sealed: it opens nothing.
      c.set('container', { stacks: {} } as never);
      return next();
    });
    app.route('/', router);
    let error: unknown;
    app.onError((e, c) => ((error = e), c.text('failed', 500)));
    assert.equal((await app.request('/probe')).status, 500);
    assert.match(String(error), /no application services on this request/);
  });

  test('over the source: no handler reaches the container, and each router declares what it uses', () => {
    const files = sources();
    assert.ok(files.filter((f) => f.file.endsWith('.router.ts')).length >= 27, 'the feature routers are all read');
    assert.deepEqual(routerUseViolations(files), []);
  });

  test('the source rule fails on planted violations', () => {
    const router = (body: string) => ({ file: 'features/albums/albums.router.ts', src: body });
    assert.deepEqual(routerUseViolations([router("const { app, services } = routerUsing(['albums']);\napp.openapi(r.x, (c) => c.json(services(c).albums.list(), 200));")]), []);
    assert.deepEqual(
      routerUseViolations([router("const { app, services } = routerUsing(['albums']);\napp.openapi(r.x, (c) => c.json(c.get('container').albums.list(), 200));")]),
      [
        "features/albums/albums.router.ts: reads the whole container through c.get('container'); declare the services with routerUsing",
        "features/albums/albums.router.ts: declares 'albums' but no handler uses it; keep the list to what the handlers call",
      ],
    );
    assert.equal(routerUseViolations([router("const app = createRouter();\n")]).length, 2, 'createRouter, and no declaration');
    assert.deepEqual(
      routerUseViolations([router("const { app, services } = routerUsing(['albums', 'assets']);\nconst { albums } = services(c);\n")]),
      ["features/albums/albums.router.ts: declares 'assets' but no handler uses it; keep the list to what the handlers call"],
    );
    // Outside routers too: a feature's helper that reaches the container, a file other than app.ts sealing services.
    assert.equal(routerUseViolations([{ file: 'features/auth/auth.http.ts', src: "return c.get('container').config.trustProxy;" }]).length, 1);
    assert.equal(routerUseViolations([{ file: 'features/jobs/jobs.service.ts', src: 'c.set("container", sealServices(all));' }]).length, 1);
    // A comment that quotes the old way is not a violation.
    assert.deepEqual(routerUseViolations([{ file: 'features/auth/auth.http.ts', src: "// not c.get('container') any more\n" }]), []);
  });
});
