/** Bundles the Electron main process, its preload and the server into electron/dist (CommonJS, as Electron loads it). */
import { build } from 'esbuild';
import { buildServer } from './build-server.ts';

const common = { bundle: true, platform: 'node' as const, target: 'node22', format: 'cjs' as const, sourcemap: true, logLevel: 'info' as const };
await build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'electron/dist/main.cjs', external: ['electron'] });
await build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'electron/dist/preload.cjs', external: ['electron'] });
// The server: the same bundle, workers and migrations as `npm start` runs (scripts/build-server.ts), in
// electron/dist/server (main.ts forks electron/dist/server/main.js). Native and binary-shipping packages stay
// outside the bundle and are packaged as node_modules.
await buildServer({ outDir: 'electron/dist/server' });
