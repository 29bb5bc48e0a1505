/** Bundles the Electron main process, its preload and the server into electron/dist (CommonJS, as Electron loads it). */
import fs from 'node:fs';
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node' as const, target: 'node22', format: 'cjs' as const, sourcemap: true, logLevel: 'info' as const };
await build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'electron/dist/main.cjs', external: ['electron'] });
await build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'electron/dist/preload.cjs', external: ['electron'] });
// Native and binary-shipping packages stay outside the bundle and are packaged as node_modules.
await build({
  ...common,
  entryPoints: ['server/src/main.ts'],
  outfile: 'electron/dist/server.cjs',
  external: ['better-sqlite3', 'sqlite-vec', 'sharp', 'onnxruntime-node', 'ffmpeg-static', 'pino'],
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
  loader: { '.sql': 'text' },
});
// The HEIC decoder runs in a worker thread loaded from a file beside the server bundle.
await build({ ...common, entryPoints: ['server/src/adapters/media/heic-worker.ts'], outfile: 'electron/dist/heic-worker.cjs' });
// Upload hashing runs in a worker thread too (features/uploads/hash-worker.ts).
await build({ ...common, entryPoints: ['server/src/features/uploads/hash-worker.ts'], outfile: 'electron/dist/upload-hash-worker.cjs' });
// migrate.ts looks for migrations beside the running file.
fs.cpSync('server/src/platform/db/migrations', 'electron/dist/migrations', { recursive: true });
