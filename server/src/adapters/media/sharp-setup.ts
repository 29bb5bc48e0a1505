/**
 * Process-wide sharp (libvips) settings for the media pipeline. Imported for its side effect by every module
 * that decodes or encodes pixels (image-source.ts, thumbnails.ts, photo-metadata.ts), so the settings are in
 * place before the first image is touched, whichever entry point (server, scripts, tests) loads the adapters.
 *
 * - concurrency(1): one libvips worker thread per image. The parallelism comes from the `media` job queue
 *   (server/src/jobs.ts runs min(4, cpus) jobs at once, and thumbnails.ts encodes a photo's sizes side by
 *   side), so libvips' own per-image thread pool would only oversubscribe the cores and compete with the
 *   JavaScript thread (hashing, EXIF, catalog writes). sharp already picks 1 on glibc Linux, but only while
 *   MALLOC_ARENA_MAX is unset (the usual advice for lowering RSS with glibc) and never on macOS, Windows or
 *   musl, where it uses one thread per core; setting it here makes every platform and configuration the same.
 * - cache(false): libvips' operation cache (up to 50 MB, 100 operations and 20 files by default) only helps
 *   when the same input goes through the same operations again. Ingest sees every file once and builds the
 *   sizes from raw buffers that are never reused, so it never hits; it only holds on to operations (28 of them
 *   after one photo's thumbnails). Measured on the corpus bench: no difference in speed, and none in peak RSS
 *   beyond run-to-run noise, so this is about not keeping what cannot be used, not a memory fix (the peak RSS
 *   of ingest is glibc's allocator holding freed libvips memory; see scripts/bench/ingest.ts).
 */
import sharp from 'sharp';

sharp.concurrency(1);
sharp.cache(false);
