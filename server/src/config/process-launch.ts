/**
 * How every launcher runs the server process: `npm start` (scripts/start.ts), the desktop app's utility
 * process (electron/server-launch.ts) and the benchmarks that measure it as a household runs it. One list,
 * so the desktop server cannot drift from the one the benchmarks measured.
 *
 * - glibc's allocator limited to two arenas, and blocks above 128 KiB mapped on their own so that freeing
 *   them gives the memory back to the system (a model's tensors, a decode's pixels);
 * - a small young generation (`--max-semi-space-size=1`, in MiB): short-lived request garbage is collected
 *   often and cheaply instead of growing 16 MiB semi-spaces per isolate;
 * - `--expose-gc`: the server collects once when it let go of something large while idle
 *   (platform/cache/give-back-memory.ts).
 *
 * The environment must be set before the process starts (glibc reads it once), so these are launch
 * settings, not something the server could apply to itself. No imports: the desktop shell bundles this file.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--expose-gc'];
