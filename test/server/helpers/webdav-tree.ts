/**
 * A household's remote folder for the WebDAV tests: corpus files copied into a temp dir in nested folders, with
 * a non-ASCII name, spaces and a hidden file, plus what a listing of it must say (read from the disk itself).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CORPUS } from '../media/corpus.ts';

/** Remote path → corpus path. */
export const REMOTE_TREE: Record<string, string> = {
  'top.jpg': 'exif/Canon_40D.jpg',
  '.hidden.jpg': 'exif/Nikon_D70.jpg',
  'Photos/2023/DSCN0010.jpg': 'gps/DSCN0010.jpg',
  'Photos/2023/Pentax K10D.jpg': 'exif/Pentax_K10D.jpg',
  'Photos/Été à Paris/Stonehenge.heic': 'heic/Stonehenge.heic',
  'Photos/Été à Paris/jour 2/Olympus_E-P3.jpg': 'exif/Olympus_E-P3.jpg',
  'Videos/iphone5 gps.mov': 'video/iphone5_gps.mov',
};

export interface ExpectedFile {
  id: string;
  name: string;
  folder: string[];
  size: number;
  mtimeMs: number;
}

export function makeRemoteTree(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-webdav-tree-'));
  for (const [rel, from] of Object.entries(REMOTE_TREE)) {
    const dest = path.join(dir, ...rel.split('/'));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(path.join(CORPUS, ...from.split('/')), dest);
  }
  fs.mkdirSync(path.join(dir, 'Empty folder'));
  return dir;
}

/** Every file under `dir` as the listing must give it, sorted by id. */
export function expectedFiles(dir: string, under = ''): ExpectedFile[] {
  const out: ExpectedFile[] = [];
  for (const entry of fs.readdirSync(path.join(dir, under), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    const id = path.relative(path.join(dir, under), abs).split(path.sep).join('/');
    const st = fs.statSync(abs);
    out.push({ id, name: entry.name, folder: id.split('/').slice(0, -1), size: st.size, mtimeMs: st.mtimeMs });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}
