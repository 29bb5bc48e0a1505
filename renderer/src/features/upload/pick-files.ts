/**
 * Turning what the person picked or dropped into files: folders are walked (drag and drop of a folder
 * gives directory entries, not files), hidden files and obvious non-media (sidecars, system files)
 * are left out of folder picks. Files picked one by one are all sent: the server decides by content.
 */

const MEDIA_EXTENSIONS = new Set(
  (
    'jpg jpeg jpe jfif png gif webp avif heic heif bmp tif tiff jxl ' +
    'dng nef nrw cr2 cr3 crw arw srf sr2 raf rw2 orf pef srw x3f 3fr iiq erf mef mos kdc ' +
    'mp4 m4v mov qt avi mkv webm mts m2ts ts 3gp 3g2 mpg mpeg wmv flv ' +
    'mp3 m4a aac wav flac ogg oga opus wma aif aiff amr'
  ).split(' '),
);

export function looksLikeMedia(file: File): boolean {
  if (/^(image|video|audio)\//.test(file.type)) return true;
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  return MEDIA_EXTENSIONS.has(ext);
}

const isHidden = (name: string) => name.startsWith('.') || name === 'Thumbs.db' || name === 'desktop.ini';

/** Files from a folder pick: only what looks like media, hidden files left out. */
export function filterFolderFiles(files: File[]): { files: File[]; skipped: number } {
  const kept = files.filter((f) => {
    const path = (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;
    return !path.split('/').some(isHidden) && looksLikeMedia(f);
  });
  return { files: kept, skipped: files.length - kept.length };
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  // readEntries answers in batches (100 in Chromium) until it returns an empty one.
  return new Promise((resolve, reject) => {
    const out: FileSystemEntry[] = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (!batch.length) return resolve(out);
        out.push(...batch);
        next();
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, into: File[]): Promise<void> {
  if (isHidden(entry.name)) return;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    if (looksLikeMedia(file)) into.push(file);
  } else if (entry.isDirectory) {
    for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader())) await walk(child, into);
  }
}

/**
 * Files of a drop; dropped folders are walked (only media kept). The DataTransfer is only readable
 * during the drop event, so its entries and files are taken before anything is awaited.
 */
export async function filesFromDrop(data: DataTransfer): Promise<File[]> {
  const dropped = [...data.items]
    .filter((i) => i.kind === 'file')
    .map((i) => ({ entry: i.webkitGetAsEntry?.() ?? null, file: i.getAsFile() }));
  const files: File[] = [];
  for (const { entry, file } of dropped) {
    if (entry?.isDirectory) await walk(entry, files).catch(() => undefined);
    else if (file) files.push(file);
  }
  return files;
}
