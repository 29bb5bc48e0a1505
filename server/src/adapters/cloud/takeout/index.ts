/**
 * Google Takeout archives (Google Photos exports) as an import source: `openTakeout(parts, opts)` reads the parts
 * together and answers a `TakeoutLibrary` (a `RemoteLibrary` plus `preview()`). No credential: the parts are
 * files on this machine, opened, not signed in to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TakeoutLibrary } from './library.ts';
import { resolveLimits, type TakeoutOptions } from './options.ts';
import { expandParts } from './parts.ts';
import { scanParts } from './scan-parts.ts';
import { buildTakeoutIndex } from './takeout-index.ts';

export { TakeoutLibrary } from './library.ts';
export { DEFAULT_LIMITS, type TakeoutLimits, type TakeoutOptions } from './options.ts';
export type { TakeoutPreview } from './preview.ts';
export { EDITED_SUFFIXES } from './edited-suffixes.ts';

/**
 * Opens archive parts (files, or folders holding them) as one library. Throws ProviderError `not_found` /
 * `bad_input` when there is no part to open; a part that cannot be read is a problem in the listing instead.
 */
export async function openTakeout(parts: string[], opts: TakeoutOptions): Promise<TakeoutLibrary> {
  const limits = resolveLimits(opts.limits);
  const files = await expandParts(parts);
  await fs.promises.mkdir(opts.workDir, { recursive: true });
  const scratch = await fs.promises.mkdtemp(path.join(opts.workDir, '.takeout-'));
  try {
    const scanned = await scanParts(files, limits, opts.signal);
    try {
      const index = buildTakeoutIndex(scanned.entries, scanned.json);
      // The sidecars' facts are on the items now; their texts would only hold memory for the whole run.
      scanned.json.clear();
      return new TakeoutLibrary(files, scanned, index, scratch, limits);
    } catch (e) {
      for (const zip of scanned.zips) zip?.close();
      throw e;
    }
  } catch (e) {
    await fs.promises.rm(scratch, { recursive: true, force: true });
    throw e;
  }
}
