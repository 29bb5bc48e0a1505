/**
 * Before a file is sent: is it already in the person's library? The file's BLAKE3 (the hash the
 * server keeps) is worked out here, then precheckUploads answers with the asset it matches (same
 * content and size, the person's own, not in the Trash). A match is not sent at all.
 *
 * Hashing reads the file a piece at a time (file.stream()), so a large video neither sits in memory
 * nor blocks the page for long; hash-wasm is loaded only when the first file is checked, so it adds
 * nothing to the first screen's script.
 *
 * The precheck is advisory: if it cannot be asked (offline, an older server), the file is sent and
 * the server's own duplicate check still applies. A file in the Trash is sent as well: the server
 * then brings the Trash's copy back instead of storing a second one.
 */
import { api } from '../../api/client';
import { request } from '../../api/problem';

export async function blake3Of(file: Blob, signal?: AbortSignal): Promise<string> {
  const { createBLAKE3 } = await import('hash-wasm');
  const hasher = await createBLAKE3();
  hasher.init();
  const reader = file.stream().getReader();
  for (;;) {
    if (signal?.aborted) {
      await reader.cancel();
      throw new DOMException('The upload was stopped.', 'AbortError');
    }
    const { done, value } = await reader.read();
    if (done) break;
    hasher.update(value);
  }
  return hasher.digest('hex');
}

/** The asset this file already is in the person's library, or null (not there, or the check could not be made). */
export async function alreadyInLibrary(file: File, signal?: AbortSignal): Promise<string | null> {
  let hash: string;
  try {
    hash = await blake3Of(file, signal);
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    return null; // the file cannot be read here: sending it tells the person why
  }
  try {
    const answer = await request(api.POST('/api/v1/uploads/precheck', { body: { files: [{ hash, size: file.size, file_name: file.name.slice(0, 1024) }] }, signal }));
    const hit = answer.results[0];
    return hit?.duplicate ? (hit.asset_id ?? '') : null;
  } catch {
    return null;
  }
}
