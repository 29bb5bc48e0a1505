/**
 * Bundles the Electron main process, its preload, the server process's entry and the server into
 * electron/dist (CommonJS, as Electron loads it):
 *   main.cjs           the main process (electron/main.ts)
 *   preload.cjs        the window's preload (electron/preload.ts)
 *   server-entry.cjs   what the utility process runs (electron/server-entry.ts): the stop message, then
 *                      server/main.js beside it (left out of this bundle, resolved at run time)
 *   server/            the server bundle, workers and migrations, as `npm start` runs them
 */
import { build } from 'esbuild';
import { buildServer } from './build-server.ts';

const common = { bundle: true, platform: 'node' as const, target: 'node22', format: 'cjs' as const, sourcemap: true, logLevel: 'info' as const };
await build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'electron/dist/main.cjs', external: ['electron'] });
await build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'electron/dist/preload.cjs', external: ['electron'] });
await build({ ...common, entryPoints: ['electron/server-entry.ts'], outfile: 'electron/dist/server-entry.cjs', external: ['./server/main.js'] });
// The server: the same bundle, workers and migrations as `npm start` runs (scripts/build-server.ts), in
// electron/dist/server. Native and binary-shipping packages stay outside the bundle and are packaged as
// node_modules (unpacked from the asar archive: electron/packaging/).
await buildServer({ outDir: 'electron/dist/server' });
