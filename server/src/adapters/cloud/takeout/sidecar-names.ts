/**
 * Which JSON sidecar describes which media file in one Takeout folder, through the quirks of real exports:
 * - `IMG_1.jpg.json`, or the newer `IMG_1.jpg.supplemental-metadata.json`, whose whole name is cut at 51 characters
 *   (`….supplemental-metad.json`, `….supp.json`, `….s.json`, `….jpg..json`);
 * - the older cut of the media name itself to 46–47 characters (`a-very-long-name….jp.json`);
 * - the `(n)` Google adds to a second file of the same name, which the sidecar carries either where the media has
 *   it (`IMG_1(1).jpg.json`) or after the extension (`IMG_1.jpg(1).json`);
 * - a sidecar without the media's extension (`IMG_1.json`);
 * - `original_<uuid>_IMG_1.jpg` (shared-album copies) described as `IMG_1.jpg`;
 * - edited copies (`IMG_1-edited.jpg`, translated) and the video half of a live or motion photo (`IMG_1.MP4` beside
 *   `IMG_1.HEIC`, `PXL_1.MP` beside `PXL_1.MP.jpg`) sharing the still's or the original's sidecar.
 * Sidecars are matched within their folder only: the same name in another folder is another photo's.
 */
import path from 'node:path';
import { stripEditedSuffix } from './edited-suffixes.ts';
import { mediaKindOf } from './media-kinds.ts';

export interface SidecarMatch {
  /** The sidecar's name in the folder, or null when the file has none. */
  json: string | null;
  /** True when the sidecar describes this very file (its `title` is then this file's name). */
  own: boolean;
  /** The original's media name in the same folder, when this is its edited copy. */
  editOf: string | null;
  /** The still's media name in the same folder, when this is the video half of a live or motion photo. */
  companionOf: string | null;
}

const SUPPLEMENTAL = 'supplemental-metadata';
/** Below this a stem is not taken for a cut name: `IMG_1` must not match `IMG_12.jpg`. */
const MIN_TRUNCATED_STEM = 40;
const ORIGINAL_PREFIX = /^original_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_/i;

function fold(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** `original_<uuid>_IMG_1.jpg` → `IMG_1.jpg`; other names unchanged. */
export function stripOriginalPrefix(name: string): string {
  const stripped = name.replace(ORIGINAL_PREFIX, '');
  return stripped === '' ? name : stripped;
}

interface SidecarKey {
  stem: string;
  index: number | null;
  json: string;
}

/** What a sidecar's own name says of the file it describes: its name (maybe cut) and the `(n)` after it. */
function keyOf(json: string): SidecarKey {
  let stem = json.slice(0, -'.json'.length);
  let index: number | null = null;
  const numbered = /^(.*)\((\d+)\)$/.exec(stem);
  if (numbered) {
    stem = numbered[1]!;
    index = Number(numbered[2]);
  }
  const dot = stem.lastIndexOf('.');
  if (dot > 0) {
    const tail = stem.slice(dot + 1).toLowerCase();
    // An empty tail is the cut landing right after the dot (`….jpg..json`).
    if (SUPPLEMENTAL.startsWith(tail)) stem = stem.slice(0, dot);
  }
  return { stem: fold(stem), index, json };
}

function splitName(name: string): { body: string; ext: string; base: string; n: number | null } {
  const ext = path.posix.extname(name);
  const body = name.slice(0, name.length - ext.length);
  const numbered = /^(.*)\((\d+)\)$/.exec(body);
  return numbered ? { body, ext, base: numbered[1]!, n: Number(numbered[2]) } : { body, ext, base: body, n: null };
}

class FolderSidecars {
  private readonly exact = new Map<string, string>();
  private readonly keys: SidecarKey[];

  constructor(jsonNames: string[]) {
    this.keys = jsonNames.map(keyOf);
    for (const k of this.keys) {
      const at = `${k.stem}\0${k.index ?? ''}`;
      // Two sidecars folding to the same key: keep the first in name order, deterministically.
      if (!this.exact.has(at)) this.exact.set(at, k.json);
    }
  }

  private lookup(name: string, index: number | null): string | null {
    return this.exact.get(`${fold(name)}\0${index ?? ''}`) ?? null;
  }

  private prefix(name: string, index: number | null): string | null {
    const target = fold(name);
    let best: SidecarKey | null = null;
    for (const k of this.keys) {
      if (k.index !== index || k.stem.length < MIN_TRUNCATED_STEM || k.stem.length >= target.length) continue;
      if (target.startsWith(k.stem) && (!best || k.stem.length > best.stem.length)) best = k;
    }
    return best?.json ?? null;
  }

  /** The sidecar written for exactly this file name, if any. */
  own(name: string): string | null {
    const { body, ext, base, n } = splitName(name);
    return (
      this.lookup(name, null) ??
      (n !== null ? this.lookup(base + ext, n) : null) ??
      this.prefix(name, null) ??
      (n !== null ? this.prefix(base + ext, n) : null) ??
      this.lookup(body, null) ??
      (n !== null ? this.lookup(base, n) : null)
    );
  }
}

/** The sidecar of every media file of one folder (`mediaNames` and `jsonNames` are names, not paths). */
export function matchFolderSidecars(mediaNames: string[], jsonNames: string[]): Map<string, SidecarMatch> {
  const sidecars = new FolderSidecars([...jsonNames].sort());
  const byFolded = new Map(mediaNames.map((m) => [fold(m), m] as const));
  const stillByBody = new Map<string, string>();
  for (const m of mediaNames) if (mediaKindOf(m) === 'photo') stillByBody.set(fold(splitName(m).body), m);
  const out = new Map<string, SidecarMatch>();

  const ownOf = (name: string): string | null => {
    const direct = sidecars.own(name);
    if (direct) return direct;
    const plain = stripOriginalPrefix(name);
    return plain !== name ? sidecars.own(plain) : null;
  };

  for (const name of mediaNames) {
    const own = ownOf(name);
    const { ext, base, n } = splitName(stripOriginalPrefix(name));
    const uncut = stripEditedSuffix(base);
    let editOf: string | null = null;
    let companionOf: string | null = null;
    let shared: string | null = null;
    if (uncut !== null) {
      const originalName = `${uncut}${n !== null ? `(${n})` : ''}${ext}`;
      editOf = byFolded.get(fold(originalName)) ?? null;
      shared = ownOf(editOf ?? originalName);
    }
    if (mediaKindOf(name) === 'video') {
      companionOf = stillByBody.get(fold(splitName(name).body)) ?? stillByBody.get(fold(name)) ?? null;
      if (companionOf && !own && !shared) shared = ownOf(companionOf);
    }
    out.set(name, { json: own ?? shared, own: own !== null, editOf, companionOf });
  }
  return out;
}
