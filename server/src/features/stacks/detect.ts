/**
 * Stack detection for one repository (reference: "Stacks auto-detect (RAW+JPEG, edits, bursts)").
 * Runs synchronously inside the caller's transaction, over ready assets in the library (not the
 * Trash), for every owner or for one:
 *
 * 1. Structural merge: files that belong to one media item but are not linked yet (a RAW and its
 *    JPEG in one folder, an original and its `-<digits>` edit iterations captured within 5 s, a live
 *    photo's still and motion clip) are linked through the same code the pipeline uses
 *    (features/assets/pipeline/media-items.ts). Normally the pipeline already did it; this repairs what
 *    arrived out of order or before this version.
 * 2. EXIF bursts: photos whose metadata carries a burst id (`BurstUUID`, else `BurstID`, else
 *    `BurstGroupID`, looked up anywhere in the stored EXIF/XMP blocks) form one `burst` stack per
 *    owner and id (group key `exif:<owner>:<id>`). Frames found later are appended, but only media
 *    items created after the stack last changed: a frame someone took out of the stack stays out.
 * 3. Time bursts (fallback, only media items in no stack, with a capture time and a camera model):
 *    same owner, camera and file-name prefix, consecutive file numbers (+1) and 0–1 s apart; a run of
 *    3 or more becomes a `burst` stack (group key `time:<owner>:<camera>:<prefix>:<ms of the first
 *    frame>`), created at once and never extended. A run next to a photo still being processed
 *    (the file number just before or after) waits for the next detection, so that a burst arriving
 *    as a batch is stacked whole.
 * 4. Every stack touching the repository is normalized (positions compacted, covers repaired, fewer
 *    than 2 members dissolved).
 *
 * A group key that exists is never created again, also when its stack was taken apart: detection
 * run twice creates nothing new.
 */
import { forSystem } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { AssetsStore, type AssetRow, EDIT_WINDOW_MS, editSuffix, fileStem, linkMediaItem } from '../assets/index.ts';
import { StacksStore } from './stacks.store.ts';

export const BURST_GAP_MS = 1_000;
export const BURST_MIN_FRAMES = 3;
const BURST_ID_KEYS = ['BurstUUID', 'BurstID', 'BurstGroupID'] as const;

export interface DetectCounts {
  repository_id: string;
  /** Null: every owner's assets (administrators); else only this owner's. */
  owner_id: number | null;
  photos_scanned: number;
  media_items_merged: number;
  bursts_found: number;
  stacks_created: number;
  stacks_extended: number;
  stacks_dissolved: number;
}

interface Candidate {
  asset_id: string;
  owner_id: number;
  type: string;
  storage_path: string;
  original_filename: string;
  taken_time: number | null;
  media_item_id: string | null;
  content_id: string | null;
  is_raw: number | null;
}

/**
 * The capture time as evidence that two files were taken together: a date of last resort (the file's
 * modification time, features/assets/fact-precedence.ts) is not; files copied at once share it.
 */
const CAPTURED = "CASE WHEN time_source IS 'file_modified' THEN NULL ELSE taken_time END AS taken_time";

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** Would the media-item linker put these two files into one item? (Cheap pre-check, in memory.) */
function belongTogether(a: Candidate, b: Candidate): boolean {
  if (a.owner_id !== b.owner_id) return false;
  if (a.type === 'PHOTO' && b.type === 'PHOTO') {
    if (dirOf(a.storage_path) === dirOf(b.storage_path) && fileStem(a.storage_path) === fileStem(b.storage_path) && Boolean(a.is_raw) !== Boolean(b.is_raw)) return true;
    if (a.taken_time === null || b.taken_time === null || Math.abs(a.taken_time - b.taken_time) > EDIT_WINDOW_MS) return false;
    const sa = fileStem(a.original_filename);
    const sb = fileStem(b.original_filename);
    return editSuffix(sa)?.base === sb || editSuffix(sb)?.base === sa;
  }
  return a.content_id !== null && a.content_id === b.content_id && a.type !== b.type;
}

/** The first burst id found in a stored EXIF/XMP tree (depth-first, keys in preference order per level). */
export function burstIdOf(exifRaw: string | null): string | null {
  if (!exifRaw) return null;
  let tree: unknown;
  try {
    tree = JSON.parse(exifRaw);
  } catch {
    return null;
  }
  for (const key of BURST_ID_KEYS) {
    const found = findKey(tree, key, 0);
    if (found) return found;
  }
  return null;
}

function findKey(node: unknown, key: string, depth: number): string | null {
  if (!node || typeof node !== 'object' || depth > 6) return null;
  if (Array.isArray(node)) {
    for (const n of node) {
      const f = findKey(n, key, depth + 1);
      if (f) return f;
    }
    return null;
  }
  const obj = node as Record<string, unknown>;
  const v = obj[key];
  if ((typeof v === 'string' && v.replace(/\0/g, '').trim()) || (typeof v === 'number' && Number.isFinite(v))) return String(v).replace(/\0/g, '').trim();
  for (const child of Object.values(obj)) {
    const f = findKey(child, key, depth + 1);
    if (f) return f;
  }
  return null;
}

/** `DSC_0123` → {prefix: 'dsc_', seq: 123}; null without trailing digits. */
export function sequenceOf(filename: string): { prefix: string; seq: number } | null {
  const m = /^(.*?)(\d+)$/.exec(fileStem(filename));
  return m ? { prefix: m[1]!, seq: Number(m[2]) } : null;
}

export function detectStacks(db: Db, repositoryId: string, ownerId: number | null, now: number): DetectCounts {
  const counts: DetectCounts = {
    repository_id: repositoryId,
    owner_id: ownerId,
    photos_scanned: 0,
    media_items_merged: 0,
    bursts_found: 0,
    stacks_created: 0,
    stacks_extended: 0,
    stacks_dissolved: 0,
  };
  const stacks = new StacksStore(db);
  const scope = { repo: repositoryId, owner: ownerId };
  const touched = new Set<string>(stacks.stacksInRepository(repositoryId, ownerId));

  // 1. Structural merge.
  const rows = db
    .prepare(
      `SELECT asset_id, owner_id, type, storage_path, original_filename, ${CAPTURED}, media_item_id, content_id,
         json_extract(specific_metadata, '$.is_raw') AS is_raw
       FROM assets WHERE repository_id = @repo AND (@owner IS NULL OR owner_id = @owner)
         AND is_deleted = 0 AND state = 'ready' AND type IN ('PHOTO', 'VIDEO')`,
    )
    .all(scope) as Candidate[];
  counts.photos_scanned = rows.filter((r) => r.type === 'PHOTO').length;
  const groups = new Map<string, Candidate[]>();
  const add = (key: string, c: Candidate) => {
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  };
  for (const r of rows) {
    if (r.type === 'PHOTO') {
      // Under its own name (RAW+JPEG, original of edits) and the name it is an edit of.
      const names = new Set([fileStem(r.original_filename), fileStem(r.storage_path)]);
      for (const n of [...names]) {
        const base = editSuffix(n)?.base;
        if (base) names.add(base);
      }
      for (const n of names) add(`n:${r.owner_id}:${n}`, r);
    }
    if (r.content_id) add(`c:${r.owner_id}:${r.content_id}`, r);
  }
  const assets = new AssetsStore(db);
  const itemCount = () => db.prepare('SELECT count(*) FROM media_items').pluck().get() as number;
  const before = itemCount();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const a = group[i]!;
        const b = group[j]!;
        if (!belongTogether(a, b)) continue;
        const current = db.prepare('SELECT asset_id, media_item_id FROM assets WHERE asset_id IN (?, ?)').all(a.asset_id, b.asset_id) as { media_item_id: string | null }[];
        if (current.length === 2 && current[0]!.media_item_id !== null && current[0]!.media_item_id === current[1]!.media_item_id) continue;
        const row = assets.byId(forSystem('asset', a.type === 'VIDEO' ? b.asset_id : a.asset_id)) as AssetRow;
        const id = linkMediaItem(db, assets, row, now);
        for (const s of stacks.stacksOfItems([id])) touched.add(s);
      }
    }
  }
  counts.media_items_merged = Math.max(0, before - itemCount());

  // 2. EXIF burst ids.
  const exifRows = db
    .prepare(
      `SELECT a.owner_id, a.media_item_id, a.exif_raw, a.taken_time, a.original_filename, mi.created_at AS item_created_at
       FROM assets a JOIN media_items mi ON mi.media_item_id = a.media_item_id
       WHERE a.repository_id = @repo AND (@owner IS NULL OR a.owner_id = @owner) AND a.is_deleted = 0 AND a.state = 'ready'
         AND a.type = 'PHOTO' AND instr(a.exif_raw, 'Burst') > 0`,
    )
    .all(scope) as { owner_id: number; media_item_id: string; exif_raw: string; taken_time: number | null; original_filename: string; item_created_at: number }[];
  const exifGroups = new Map<string, typeof exifRows>();
  for (const r of exifRows) {
    const id = burstIdOf(r.exif_raw);
    if (!id) continue;
    const key = `exif:${r.owner_id}:${id}`;
    const g = exifGroups.get(key) ?? [];
    if (!g.some((x) => x.media_item_id === r.media_item_id)) g.push(r);
    exifGroups.set(key, g);
  }
  for (const [key, frames] of exifGroups) {
    frames.sort((a, b) => (a.taken_time ?? 0) - (b.taken_time ?? 0) || a.original_filename.localeCompare(b.original_filename));
    const free = frames.filter((f) => !stacks.stackOfItem(f.media_item_id));
    const existing = stacks.byGroupKey(key);
    if (existing) {
      if (stacks.members(existing.stack_id, false).length === 0) continue; // taken apart by its owner
      const later = free.filter((f) => f.item_created_at > existing.updated_at);
      if (later.length) {
        stacks.append(existing.stack_id, later.map((f) => f.media_item_id), now);
        counts.stacks_extended++;
        touched.add(existing.stack_id);
      }
      continue;
    }
    if (frames.length < 2) continue;
    counts.bursts_found++;
    if (free.length < 2) continue;
    const stackId = uuidv7(now);
    stacks.create({ stack_id: stackId, owner_id: free[0]!.owner_id, stack_kind: 'burst', group_key: key, cover_media_item_id: null, created_at: now, updated_at: now });
    stacks.append(stackId, free.map((f) => f.media_item_id), now);
    counts.stacks_created++;
    touched.add(stackId);
  }

  // 3. Time bursts over media items in no stack.
  const items = db
    .prepare(
      `SELECT mi.media_item_id, a.owner_id, a.camera_model, a.original_filename, a.taken_time
       FROM assets a CROSS JOIN media_items mi ON mi.media_item_id = a.media_item_id AND mi.primary_asset_id = a.asset_id
       WHERE a.repository_id = @repo AND (@owner IS NULL OR a.owner_id = @owner) AND a.is_deleted = 0
         AND mi.media_kind IN ('photo', 'live_photo') AND a.taken_time IS NOT NULL AND a.time_source IS NOT 'file_modified'
         AND a.camera_model IS NOT NULL AND a.camera_model != ''
         AND NOT EXISTS (SELECT 1 FROM stack_members sm WHERE sm.media_item_id = mi.media_item_id)`,
    )
    .all(scope) as { media_item_id: string; owner_id: number; camera_model: string; original_filename: string; taken_time: number }[];
  const waiting = new Set(
    (
      db
        .prepare(
          `SELECT owner_id, original_filename FROM assets WHERE repository_id = @repo AND (@owner IS NULL OR owner_id = @owner)
             AND type = 'PHOTO' AND is_deleted = 0 AND state IN ('pending', 'processing')`,
        )
        .all(scope) as { owner_id: number; original_filename: string }[]
    ).flatMap((r) => {
      const s = sequenceOf(r.original_filename);
      return s ? [`${r.owner_id}:${s.prefix}:${s.seq}`] : [];
    }),
  );
  const series = new Map<string, { media_item_id: string; owner_id: number; camera: string; prefix: string; seq: number; t: number }[]>();
  for (const it of items) {
    const s = sequenceOf(it.original_filename);
    if (!s) continue;
    const key = `${it.owner_id}\u0000${it.camera_model}\u0000${s.prefix}`;
    const list = series.get(key) ?? [];
    list.push({ media_item_id: it.media_item_id, owner_id: it.owner_id, camera: it.camera_model, prefix: s.prefix, seq: s.seq, t: it.taken_time });
    series.set(key, list);
  }
  for (const list of series.values()) {
    if (list.length < BURST_MIN_FRAMES) continue;
    // In capture order (file numbers repeat when a camera's counter wraps or two cards are merged).
    list.sort((a, b) => a.t - b.t || a.seq - b.seq);
    let run = [list[0]!];
    const flush = () => {
      if (run.length >= BURST_MIN_FRAMES) {
        const first = run[0]!;
        const last = run[run.length - 1]!;
        counts.bursts_found++;
        const key = `time:${first.owner_id}:${first.camera}:${first.prefix}:${first.t}`;
        const pendingNeighbour = waiting.has(`${first.owner_id}:${first.prefix}:${first.seq - 1}`) || waiting.has(`${first.owner_id}:${first.prefix}:${last.seq + 1}`);
        if (!pendingNeighbour && !stacks.byGroupKey(key)) {
          const stackId = uuidv7(now);
          stacks.create({ stack_id: stackId, owner_id: first.owner_id, stack_kind: 'burst', group_key: key, cover_media_item_id: null, created_at: now, updated_at: now });
          stacks.append(stackId, run.map((r) => r.media_item_id), now);
          counts.stacks_created++;
          touched.add(stackId);
        }
      }
    };
    for (let i = 1; i < list.length; i++) {
      const prev = run[run.length - 1]!;
      const cur = list[i]!;
      const gap = cur.t - prev.t;
      if (cur.seq === prev.seq + 1 && gap >= 0 && gap <= BURST_GAP_MS) run.push(cur);
      else {
        flush();
        run = [cur];
      }
    }
    flush();
  }

  // 4. Normalize.
  counts.stacks_dissolved = stacks.normalize([...touched], now);
  return counts;
}
