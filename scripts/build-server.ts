/**
 * `npm run build:server`: bundles the server (server/src/main.ts) with esbuild into server/dist: what
 * `npm start` runs (scripts/start.ts) with plain `node`, instead of compiling the TypeScript through tsx at
 * every start (tsx added a wrapper process of ~50 MB and seconds of start-up).
 *
 * server/dist/ holds:
 *   main.js                 the entry: turns on Node's compile cache (.compile-cache/ beside it), then loads
 *                           server.js. Later starts then skip parsing and compiling most of the code.
 *   server.js (+ .map)      the server and the pure-JavaScript packages it uses
 *   heic-worker.js          the HEIC decoder's worker thread (adapters/media/heic.ts looks for it beside the
 *                           module that loads it, as heic-worker.ts under tsx)
 *   hash-worker.js          the upload hashing worker thread (features/intake/file-hasher.ts, likewise)
 *   cluster-worker.js       a people rebuild's clustering thread (features/faces/cluster-thread.ts, likewise)
 *   migrations/*.sql        platform/db/migrate.ts reads them beside the running module
 *   package.json            {"type": "commonjs"}: the files above are CommonJS
 *   .build-stamp            what the build was made from (scripts/build-stamp.ts)
 * CommonJS rather than ES modules: an ES module's `import 'node:http'` makes Node build the built-in's whole
 * export list, which loads its bundled undici (~85 ms of every start, measured), and the HEIC decoder's
 * package needs `__dirname`. `import.meta.url` is defined as each bundle's own file URL, so every use of it
 * in server/src keeps its meaning (files beside the running module). Packages with native binaries or files
 * of their own stay outside the bundle and load from node_modules at run time (EXTERNAL below). Minified in
 * whitespace and syntax only: names are kept, so stack traces in the log stay readable (the source maps lead
 * back to server/src).
 *
 *   npm run build:server [-- --if-changed]   (`--if-changed`: nothing to do when the stamp matches)
 *
 * Runs under plain `node` (type stripping): no TypeScript-only syntax here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkBuild, type BuildCheck } from './build-stamp.ts';
import { prebuildCompactGazetteer } from '../server/src/features/places/geocoder/gazetteer-cache.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER_DIST = path.join(ROOT, 'server/dist');
export const SERVER_ENTRY = path.join(SERVER_DIST, 'main.js');
const STAMP = path.join(SERVER_DIST, '.build-stamp');

/** How the built server is launched (allocator environment, Node flags): one list for every launcher. */
export { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../server/src/config/process-launch.ts';

/**
 * Native addons (.node binaries), packages that find files of their own at run time (ffmpeg-static's
 * binary, onnxruntime's libraries, pino's transport workers), and the BLAKE3 addon that blake3.ts loads by
 * a computed name. Everything else is bundled.
 */
export const EXTERNAL = ['better-sqlite3', 'sqlite-vec', 'sharp', 'onnxruntime-node', 'ffmpeg-static', 'pino', '@napi-rs/blake-hash', 'usearch'];

/** What the bundle is made from: a change to any of these rebuilds it. */
const INPUTS = ['server/src', 'package-lock.json', 'tsconfig.json', 'scripts/build-server.ts', 'scripts/build-stamp.ts'];

function checkServerBuild(dist: string): BuildCheck {
  const check = checkBuild(dist === SERVER_DIST ? STAMP : path.join(dist, '.build-stamp'), ROOT, INPUTS);
  return fs.existsSync(path.join(dist, 'main.js')) ? check : { ...check, current: false };
}

/**
 * esbuild's options for every bundle of the server's code (the server, its workers): also used to bundle a bench
 * that runs the server in its own process the way the built server runs (scripts/bench/as-server.ts --built).
 */
export function serverBundleOptions(quiet = false) {
  return {
    bundle: true,
    platform: 'node' as const,
    target: 'node22',
    format: 'cjs' as const,
    sourcemap: true,
    logLevel: quiet ? ('warning' as const) : ('info' as const),
    absWorkingDir: ROOT,
    external: EXTERNAL,
    banner: { js: "const __hearthModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__hearthModuleUrl' },
    minifyWhitespace: true,
    minifySyntax: true,
  };
}

/**
 * Builds into `outDir` (default server/dist). The desktop build (scripts/build-electron.ts) builds the
 * same layout into electron/dist/server, so both run the server, its workers and migrations alike.
 */
export async function buildServer(opts: { ifChanged?: boolean; quiet?: boolean; outDir?: string } = {}): Promise<'built' | 'current'> {
  const SERVER_DIST_OUT = opts.outDir ? path.resolve(ROOT, opts.outDir) : SERVER_DIST;
  const check = checkServerBuild(SERVER_DIST_OUT);
  if (opts.ifChanged && check.current) return 'current';
  const { build } = await import('esbuild');
  fs.rmSync(SERVER_DIST_OUT, { recursive: true, force: true });
  const common = serverBundleOptions(opts.quiet);
  await build({ ...common, entryPoints: ['server/src/main.ts'], outfile: path.join(SERVER_DIST_OUT, 'server.js') });
  await build({ ...common, entryPoints: ['server/src/adapters/media/heic-worker.ts'], outfile: path.join(SERVER_DIST_OUT, 'heic-worker.js') });
  await build({ ...common, entryPoints: ['server/src/features/intake/hash-worker.ts'], outfile: path.join(SERVER_DIST_OUT, 'hash-worker.js') });
  await build({ ...common, entryPoints: ['server/src/features/faces/cluster-worker.ts'], outfile: path.join(SERVER_DIST_OUT, 'cluster-worker.js') });
  // Every .js here is CommonJS, whatever the project's own "type" says.
  fs.writeFileSync(path.join(SERVER_DIST_OUT, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  // The compile cache belongs to this build (a rebuild empties server/dist); a folder that cannot be
  // written only means no cache.
  fs.writeFileSync(
    path.join(SERVER_DIST_OUT, 'main.js'),
    "'use strict';\n" +
      "require('node:module').enableCompileCache?.(require('node:path').join(__dirname, '.compile-cache'));\n" +
      "require('./server.js');\n",
  );
  fs.cpSync(path.join(ROOT, 'server/src/platform/db/migrations'), path.join(SERVER_DIST_OUT, 'migrations'), { recursive: true });
  check.record();
  return 'built';
}

/**
 * The places' compact gazetteer (server/src/features/places/geocoder/gazetteer-cache.ts), made once per
 * install here rather than by the first process that needs places (it parses 19 MB of JSON).
 */
export function prebuildPlaces(quiet = false): void {
  const { file, built } = prebuildCompactGazetteer();
  if (built && !quiet) console.log(file ? `built the places' compact gazetteer (${path.relative(ROOT, file)})` : "the places' compact gazetteer could not be written (node_modules is read-only): the server keeps it in its data folder");
}

if (import.meta.main) {
  const r = await buildServer({ ifChanged: process.argv.includes('--if-changed') });
  if (r === 'current') console.log('server/dist is up to date');
  prebuildPlaces();
}
