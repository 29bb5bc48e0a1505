/**
 * bench:faces's people rebuild alone (faces-rebuild.ts), as its own entry with no top-level await, so that
 * scripts/bench/as-server.ts --built can bundle it as the server is bundled:
 *
 *   npm run bench:people-rebuild [-- --faces 100000]     (the built server's code, its V8 flags)
 *   npm run bench:faces -- --rebuild-only --faces 100000  (the same, from the sources under tsx)
 */
import { benchPeopleRebuild, syntheticFaces } from './faces-rebuild.ts';

const i = process.argv.indexOf('--faces');
const faces = i > 0 ? Number(process.argv[i + 1]) : 20_000;
benchPeopleRebuild(syntheticFaces(faces)).then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
