/**
 * Gives the C allocator's free pages back to the system: glibc's `malloc_trim(0)`, called when the server
 * let go of something large while idle (give-back-memory.ts, after its collection).
 *
 * Why: glibc returns freed memory to the system only from the top of each arena (and whole blocks above
 * MALLOC_MMAP_THRESHOLD_, process-launch.ts). What indexing freed in the middle of an arena (libvips' and
 * sharp's smaller buffers, V8's compiler zones, SQLite's statements, the Buffers of uploads) stays
 * resident, however idle the server. Measured 60 s after the corpus (scripts/bench/footprint.ts; the
 * server's /proc smaps, malloc_info and `malloc_trim(0)` called from gdb): a server of 199 MB (V8's heap
 * 43 MB, node's and the libraries' code 73 MB) held 72 MB in glibc's two arenas, 60 MB of it free (main
 * arena 45 MB with 33 free, the other 27 MB all free); the trim took its anonymous memory from 126 to
 * 71 MB, the server to 143 MB.
 *
 * How, from JavaScript and without a native addon of our own: SQLite's extension loader opens a shared
 * library and calls a named entry point in it (`sqlite3_load_extension(db, file, entry)`), and better-sqlite3,
 * which the server already loads, exposes it. The entry point gets (db, &errmsg, api); `malloc_trim(size_t)`
 * reads only the first argument (every 64-bit ABI passes it in a register), so it runs as
 * `malloc_trim(<a pointer>)`: the pad kept at the top of the main arena is then larger than the arena, so
 * nothing is taken from the top (glibc's own free() does that already), while every free page inside every
 * arena is released (MADV_DONTNEED), which is what is wanted. Its result says what happened: 0 (nothing to
 * give back) reads to SQLite as a loaded extension, 1 (pages given back) as a failed initialisation.
 * Where there is no glibc (macOS, Windows, musl) the library or the symbol is missing: the first call
 * notes it and every later call does nothing. A throwaway in-memory connection makes the call, so the
 * catalog's connections never allow extension loading.
 *
 * Cost: a walk over the arenas' free lists under their locks, a few milliseconds, once per idle period.
 */
import Database from 'better-sqlite3';

/** glibc's shared library, by its soname (already loaded in every glibc process: dlopen finds it). */
const GLIBC = 'libc.so.6';

/** better-sqlite3 takes the entry point as a second argument (`loadExtension(path, [entryPoint])`); its types leave it out. */
type LoadAt = (this: Database.Database, file: string, entryPoint: string) => unknown;

let unavailable = process.platform !== 'linux';

/** Whether the C allocator's free pages were offered back: false where there is no glibc to ask. */
export function trimNativeHeap(): boolean {
  if (unavailable) return false;
  const db = new Database(':memory:');
  try {
    (db.loadExtension as LoadAt).call(db, GLIBC, 'malloc_trim'); // returned 0: nothing was left to give back
    return true;
  } catch (e) {
    // SQLite could not open the library or find the symbol in it (not glibc), or may not load libraries at all.
    if (/unable to open shared library|no entry point|not authorized/i.test((e as Error).message)) {
      unavailable = true;
      return false;
    }
    return true; // malloc_trim returned 1 (memory given back): to SQLite, a failed initialisation
  } finally {
    db.close();
  }
}
