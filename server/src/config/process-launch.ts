/**
 * How every launcher runs the server process: `npm start` (scripts/start.ts), the desktop app's utility
 * process (electron/server-launch.ts) and the benchmarks that measure it as a household runs it. One list,
 * so the desktop server cannot drift from the one the benchmarks measured.
 *
 * - glibc's allocator limited to two arenas, and blocks above 128 KiB mapped on their own so that freeing
 *   them gives the memory back to the system (a model's tensors, a decode's pixels);
 * - a small young generation (`--max-semi-space-size=2`, in MiB) instead of V8's 16 MiB semi-spaces per isolate.
 *   It was 1 MiB: with a person browsing during a people rebuild of 100k faces (scripts/bench/faces.ts), the
 *   server's isolate then ran 10,000 collections (nearly all scavenges) in two minutes (14–17 s of collection, 12 % of the loop's time),
 *   each copying the in-flight requests' objects and promoting them early, and the longest stall stayed at
 *   55–60 ms. With 2 MiB: 4,300–5,400 collections (5.6–6.2 s), 43–53 ms; the 1 GB Takeout import's peak 287 MB
 *   and browsing p95 during it 18.0 ms (scripts/bench/import.ts; 282–285 MB and 17–18 ms with 1 MiB). With
 *   4 MiB: 2,200–2,800 collections, 40–50 ms, but the import's peak 293–299 MB and browsing 18.4–21.7 ms, at or
 *   over their targets (≤ 300 MB, 20 ms);
 * - the old generation grows to 1.5 times what the last full collection kept (`--heap-growing-percent=50`)
 *   before the next one, instead of V8's own factor (up to 4 times on a busy process): once large buffers are
 *   freed as soon as they are used (platform/cache/release-bytes.ts), nothing else starts collections early,
 *   and a Takeout import's heap grew from ~60 to 130 MB between two. Measured on the 1 GB Takeout of
 *   scripts/bench/import.ts, peak RSS of the server: 341–353 MB with V8's factor, 282–285 MB with 50%, 272 MB
 *   with 30% (but a tenth slower: collections take their share of the import's time);
 * - `--expose-gc`: the server collects once when it let go of something large while idle
 *   (platform/cache/give-back-memory.ts).
 *
 * The environment must be set before the process starts (glibc reads it once), so these are launch
 * settings, not something the server could apply to itself. No imports: the desktop shell bundles this file.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--heap-growing-percent=50', '--expose-gc'];
