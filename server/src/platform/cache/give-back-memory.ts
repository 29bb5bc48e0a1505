/**
 * One full garbage collection, then the C allocator's free pages handed back (native-heap.ts), soon after
 * the server let go of something large: the inference workers ended (indexing has been idle for
 * HEARTH_ML_IDLE_S), no job has run for 15 s (platform/jobs/runner.ts, onQuiet), the spare upload blocks
 * were dropped, the snapshot worker stopped, the gazetteer was let go. Called by those places, never on a
 * request's path.
 *
 * Why: an idle server allocates nearly nothing, so V8 runs no major collection, and what the work left
 * behind stays resident: the garbage of indexing on the main heap, and the native memory held by dead
 * objects (sharp's image buffers, dropped Buffers), which is freed only when the collector finalises them.
 * Measured (the face pipeline and OCR on 18 corpus photos, in a one-off probe script not kept in the repository): 150 MB resident 3 s after the
 * inference workers ended, 100 MB after one gc() (anonymous memory 97 → 47 MB, back to where it started).
 * On the whole server after the corpus (scripts/bench/footprint.ts, one busy-machine run each) the server was
 * 211 MB at 60 s without it and 216 MB with it: no difference beyond noise there, where the rest of the
 * anonymous memory (~140 MB) is glibc's heap after libvips, HEIC and ffmpeg work, which a collection does not
 * shrink: glibc gives freed memory back only from the top of its arenas. The trim that follows the
 * collection does (native-heap.ts): `npm start`'s tree 60 s after the corpus went from 265–267 MB (server
 * 202–204 MB, anonymous 130–132 MB) to 200–233 MB (server 136–169 MB, anonymous 64–92 MB).
 *
 * `gc` exists only when node runs with --expose-gc, which `npm start` and the built server's launchers
 * give it (SERVER_NODE_FLAGS, scripts/build-server.ts); elsewhere (tests, tsx) only the trim runs. Several
 * calls within GIVE_BACK_DELAY_MS make one collection and one trim (a heap of a few tens of MB takes
 * ~10–30 ms, the trim a few: the loop is idle then by definition). The timer never keeps the process alive.
 */
import { trimNativeHeap } from './native-heap.ts';

const GIVE_BACK_DELAY_MS = 1000;

let pending: NodeJS.Timeout | null = null;

export function giveBackMemory(): void {
  if (pending) return;
  pending = setTimeout(() => {
    pending = null;
    (globalThis as { gc?: () => void }).gc?.();
    trimNativeHeap();
  }, GIVE_BACK_DELAY_MS);
  pending.unref();
}
