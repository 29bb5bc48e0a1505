/**
 * The archive files a caller named: files as given, folders expanded to the `.zip` / `.tgz` files directly in them,
 * all sorted by name so `-001`, `-002`… come in order and the same set always opens the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ProviderError } from '../provider.ts';
import { archiveFormatOf } from './archive-entry.ts';

export async function expandParts(given: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const p of given) {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(p);
    } catch {
      throw new ProviderError('not_found', `No archive at ${path.basename(p)}`, false, { field: 'parts' });
    }
    if (stat.isDirectory()) {
      const names = await fs.promises.readdir(p, { withFileTypes: true });
      for (const d of names) if (d.isFile() && archiveFormatOf(d.name)) files.push(path.join(p, d.name));
    } else if (archiveFormatOf(p)) {
      files.push(p);
    } else {
      throw new ProviderError('bad_input', `${path.basename(p)} is not a .zip or .tgz archive`, false, { field: 'parts' });
    }
  }
  if (files.length === 0) throw new ProviderError('bad_input', 'No .zip or .tgz archive parts were given', false, { field: 'parts' });
  const unique = [...new Set(files.map((f) => path.resolve(f)))];
  return unique.sort((a, b) => {
    const an = path.basename(a);
    const bn = path.basename(b);
    return an < bn ? -1 : an > bn ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
}
