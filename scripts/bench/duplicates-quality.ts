/**
 * Near-duplicate quality of `npm run bench:duplicates` (issue 24): precision and recall per kind of copy, on
 * copies made at bench time from corpus photos (nothing committed, the files live in a temporary folder that
 * is removed at the end), hashed by the server's own thumbnail step (adapters/media/thumbnails.ts: the
 * whole-frame pHash and the window pHashes from the small thumbnail, as ingest makes them) and grouped by the
 * server's own detection (features/duplicates/detect.ts).
 *
 * The labelled set:
 * - sources: the corpus's `labelled/` photos (ImageNet samples in coarse categories: birds, landscapes, …),
 *   `--sources N` of them (default 40), taken in order of category so that photos of one scene type sit
 *   next to each other. Each gets a capture time and one camera; two sources of one category are 40 s
 *   apart: different photos of the same kind of scene, shot within the capture-neighbour window, are the
 *   negatives that keep precision honest.
 * - copies of each source, made with sharp, metadata stripped (no capture time: only pixels can find them):
 *   crops of 2/5/8/10 % (centred, off one side, off a corner, off two sides unevenly), exposure ±0.5/±1 EV,
 *   an HDR-like tone mapping (local contrast, gamma, saturation), a 2° rotation re-framed, a 4 % re-framing,
 *   a re-encode at quality 40, half size, PNG.
 * - burst neighbours: a second shot of the source 5–30 s later by the same camera, re-framed (4–6 %
 *   shift), at another exposure and in HDR mode for every other one: the case "two shots of one scene 26 s
 *   apart, one in HDR mode".
 * - real pairs from the corpus: its `duplicates/` folder (its JPEG files: 5 labelled groups, among them the iPhone HDR/non-HDR
 *   pair of one instant) and the Nikon P6000 street shots of `gps/` (different scenes 40 and 70 s apart by
 *   one camera: real capture-neighbour negatives), with their EXIF capture times and cameras.
 *
 * Printed: recall per kind (a copy is found when it is in the group of its source), precision over every
 * pair of photos put in one group, for today's detection (whole-frame pHash only: what main ran before the
 * window hashes and capture neighbours) and for the current one.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { PHASH_VERSION } from '../../server/src/adapters/media/phash.ts';
import { generateThumbnails } from '../../server/src/adapters/media/thumbnails.ts';
import { detectDuplicateGroups, type DetectionItem } from '../../server/src/features/duplicates/detect.ts';
import { CORPUS } from '../../test/server/media/corpus.ts';

type Make = (upright: Buffer, w: number, h: number) => Promise<Buffer>;

const crop =
  (l: number, t: number, r: number, b: number): Make =>
  async (buf, w, h) => {
    const left = Math.round(w * l);
    const top = Math.round(h * t);
    const width = Math.min(w - left, Math.round(w * (1 - l - r)));
    const height = Math.min(h - top, Math.round(h * (1 - t - b)));
    return sharp(buf).extract({ left, top, width, height }).jpeg({ quality: 90 }).toBuffer();
  };
/** Exposure in EV on sRGB values (×2^(ev/2.2): about what an editor's exposure slider does to mid-tones), clipped. */
const exposure =
  (ev: number): Make =>
  (buf) =>
    sharp(buf).linear(2 ** (ev / 2.2), 0).jpeg({ quality: 90 }).toBuffer();
/** An HDR-like tone mapping: local contrast (CLAHE), lifted shadows (gamma), more saturation. */
const hdr: Make = (buf, w, h) =>
  sharp(buf)
    .clahe({ width: Math.max(3, Math.round(w / 8)), height: Math.max(3, Math.round(h / 8)), maxSlope: 3 })
    .gamma(2.2, 1.8)
    .modulate({ saturation: 1.3 })
    .jpeg({ quality: 90 })
    .toBuffer();
const rotate =
  (deg: number): Make =>
  async (buf, w, h) => {
    const r = await sharp(buf).rotate(deg).toBuffer({ resolveWithObject: true });
    const cw = Math.round(w * 0.92);
    const ch = Math.round(h * 0.92);
    return sharp(r.data)
      .extract({ left: Math.round((r.info.width - cw) / 2), top: Math.round((r.info.height - ch) / 2), width: cw, height: ch })
      .jpeg({ quality: 90 })
      .toBuffer();
  };
/** A second shot: the camera moved a little (re-framed), another exposure, every other one in HDR mode. */
const burst =
  (shiftX: number, shiftY: number, ev: number, hdrMode: boolean): Make =>
  async (buf, w, h) => {
    const moved = await crop(shiftX > 0 ? shiftX : 0, shiftY > 0 ? shiftY : 0, shiftX < 0 ? -shiftX : 0, shiftY < 0 ? -shiftY : 0)(buf, w, h);
    const meta = await sharp(moved).metadata();
    const exposed = await exposure(ev)(moved, meta.width!, meta.height!);
    return hdrMode ? hdr(exposed, meta.width!, meta.height!) : exposed;
  };

/** Copy kinds: name → how it is made, and whether it is a burst neighbour (keeps a capture time). */
const KINDS: { kind: string; group: string; make: Make }[] = [
  { kind: 'crop 2% centred', group: 'crop', make: crop(0.01, 0.01, 0.01, 0.01) },
  { kind: 'crop 5% left', group: 'crop', make: crop(0.05, 0, 0, 0) },
  { kind: 'crop 5% bottom', group: 'crop', make: crop(0, 0, 0, 0.05) },
  { kind: 'crop 5% top-right', group: 'crop', make: crop(0, 0.05, 0.05, 0) },
  { kind: 'crop 8% right', group: 'crop', make: crop(0, 0, 0.08, 0) },
  { kind: 'crop 8% top-left', group: 'crop', make: crop(0.08, 0.08, 0, 0) },
  { kind: 'crop 10% centred', group: 'crop', make: crop(0.05, 0.05, 0.05, 0.05) },
  { kind: 'crop 10% top', group: 'crop', make: crop(0, 0.1, 0, 0) },
  { kind: 'crop 10% right', group: 'crop', make: crop(0, 0, 0.1, 0) },
  { kind: 'crop 10% left+3% top', group: 'crop', make: crop(0.1, 0.03, 0, 0) },
  { kind: 'crop 10% bottom-right', group: 'crop', make: crop(0, 0, 0.1, 0.1) },
  { kind: 'exposure +0.5 EV', group: 'exposure/HDR', make: exposure(0.5) },
  { kind: 'exposure −0.5 EV', group: 'exposure/HDR', make: exposure(-0.5) },
  { kind: 'exposure +1 EV', group: 'exposure/HDR', make: exposure(1) },
  { kind: 'exposure −1 EV', group: 'exposure/HDR', make: exposure(-1) },
  { kind: 'HDR tone-mapped', group: 'exposure/HDR', make: hdr },
  { kind: 'rotated 2° re-framed', group: 'reframe', make: rotate(2) },
  { kind: 're-framed 4%', group: 'reframe', make: crop(0.04, 0.02, 0, 0.02) },
  { kind: 're-encoded q40', group: 'copy', make: (b) => sharp(b).jpeg({ quality: 40 }).toBuffer() },
  { kind: 'half size', group: 'copy', make: async (b, w) => sharp(b).resize(Math.round(w / 2)).jpeg({ quality: 85 }).toBuffer() },
  { kind: 'PNG', group: 'copy', make: (b) => sharp(b).png().toBuffer() },
];
const BURST_KINDS: { kind: string; make: Make; after: number }[] = [
  { kind: 'burst: +12 s, moved 5% right, +0.5 EV', make: burst(0.05, 0, 0.5, false), after: 12_000 },
  { kind: 'burst: +26 s, moved 4% down, HDR mode', make: burst(0, 0.04, 0.3, true), after: 26_000 },
];

interface Photo {
  item: DetectionItem;
  /** Truth: photos of one `truth` are copies of each other. */
  truth: string;
  kind: string;
}

let serial = 0;
async function hashPhoto(file: string, tmp: string, truth: string, kind: string, capture: { taken: number | null; camera: string | null }, bytes: Buffer): Promise<Photo> {
  const thumbs = await generateThumbnails(file, { small: path.join(tmp, `t${serial}.webp`) }, { phash: true });
  const n = serial++;
  return {
    truth,
    kind,
    item: {
      asset_id: `00000000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`,
      owner_id: 1,
      type: 'PHOTO',
      hash: crypto.createHash('sha256').update(bytes).digest('hex'),
      file_size: bytes.length,
      phash: thumbs.phash ?? null,
      phash_windows: thumbs.phashWindows ?? null,
      phash_version: PHASH_VERSION,
      media_item_id: null,
      stack_id: null,
      width: thumbs.source.width,
      height: thumbs.source.height,
      rating: 0,
      capture_time: capture.taken ?? 1_900_000_000_000 + n,
      taken_time: capture.taken,
      camera: capture.camera,
    },
  };
}

const exifTime = (s: string | undefined) => (s ? Date.parse(`${s.slice(0, 10).replaceAll(':', '-')}T${s.slice(11, 19)}Z`) : null);

async function buildSet(sources: number, tmp: string): Promise<Photo[]> {
  const photos: Photo[] = [];
  const labels = JSON.parse(fs.readFileSync(path.join(CORPUS, 'labelled/labels.json'), 'utf8')) as Record<string, { coarse_category?: string }>;
  const category = (f: string) => labels[f]?.coarse_category ?? 'other';
  const names = Object.keys(labels)
    .filter((f) => /\.jpe?g$/i.test(f))
    .sort((a, b) => category(a).localeCompare(category(b)) || a.localeCompare(b))
    .slice(0, sources);
  let t = Date.parse('2024-06-01T10:00:00Z');
  let lastCategory = '';
  for (const name of names) {
    // Same category: 40 s after the previous source (inside the capture-neighbour window); else an hour later.
    t += category(name) === lastCategory ? 40_000 : 3_600_000;
    lastCategory = category(name);
    const file = path.join(CORPUS, 'labelled', name);
    const bytes = fs.readFileSync(file);
    const camera = 'Bench Camera';
    photos.push(await hashPhoto(file, tmp, name, 'source', { taken: t, camera }, bytes));
    const up = await sharp(bytes).rotate().toBuffer({ resolveWithObject: true });
    const made = async (kind: string, make: Make, capture: { taken: number | null; camera: string | null }) => {
      const out = await make(up.data, up.info.width, up.info.height);
      const f = path.join(tmp, `c${serial}.img`);
      fs.writeFileSync(f, out);
      photos.push(await hashPhoto(f, tmp, name, kind, capture, out));
      fs.rmSync(f);
    };
    for (const k of KINDS) await made(k.kind, k.make, { taken: null, camera: null });
    for (const b of BURST_KINDS) await made(b.kind, b.make, { taken: t + b.after, camera });
  }
  // Real files: the corpus's duplicate groups and one camera's shots of different scenes seconds apart.
  const real: [string, string, string][] = [];
  const dups = JSON.parse(fs.readFileSync(path.join(CORPUS, 'duplicates/labels.json'), 'utf8')) as Record<string, { dup_group: string }>;
  // HEIC left out: its decoder runs in a worker thread, which a benchmark run through tsx cannot start.
  for (const [f, l] of Object.entries(dups)) if (!/\.heic$/i.test(f)) real.push(['duplicates', f, `real ${l.dup_group}`]);
  for (const f of ['DSCN0010.jpg', 'DSCN0012.jpg', 'DSCN0025.jpg', 'DSCN0027.jpg']) real.push(['gps', f, `real ${f}`]);
  for (const [dir, f, truth] of real) {
    const labels = JSON.parse(fs.readFileSync(path.join(CORPUS, dir, 'labels.json'), 'utf8')) as Record<string, { expected_metadata: { datetime_original?: string; make?: string; model?: string } }>;
    const m = labels[f]!.expected_metadata;
    const file = path.join(CORPUS, dir, f);
    const camera = [m.make, m.model].filter(Boolean).join(' ') || null;
    photos.push(await hashPhoto(file, tmp, truth, dir === 'gps' ? 'real: one camera, other scene' : 'real: corpus duplicates', { taken: exifTime(m.datetime_original), camera }, fs.readFileSync(file)));
  }
  return photos;
}

function score(label: string, photos: Photo[], groups: Awaited<ReturnType<typeof detectDuplicateGroups>>) {
  const groupOf = new Map<string, number>();
  groups.forEach((g, i) => g.members.forEach((m) => groupOf.set(m.asset_id, i)));
  const same = (a: Photo, b: Photo) => groupOf.has(a.item.asset_id) && groupOf.get(a.item.asset_id) === groupOf.get(b.item.asset_id);
  // Pairs: every pair in one group is predicted; every pair of one truth is true.
  let predicted = 0;
  let correct = 0;
  let truePairs = 0;
  const wrong: string[] = [];
  for (let i = 0; i < photos.length; i++) {
    for (let j = i + 1; j < photos.length; j++) {
      const a = photos[i]!;
      const b = photos[j]!;
      const isTrue = a.truth === b.truth;
      if (isTrue) truePairs++;
      if (same(a, b)) {
        predicted++;
        if (isTrue) correct++;
        else if (wrong.length < 5) wrong.push(`${a.truth} (${a.kind}) + ${b.truth} (${b.kind})`);
      }
    }
  }
  // Recall per kind: a copy found when it is in its source's group.
  const sources = new Map(photos.filter((p) => p.kind === 'source').map((p) => [p.truth, p]));
  const perKind = new Map<string, { found: number; total: number }>();
  for (const p of photos) {
    if (p.kind === 'source' || p.kind.startsWith('real')) continue;
    const s = perKind.get(p.kind) ?? { found: 0, total: 0 };
    s.total++;
    if (same(p, sources.get(p.truth)!)) s.found++;
    perKind.set(p.kind, s);
  }
  const precision = predicted ? correct / predicted : 1;
  const recall = truePairs ? correct / truePairs : 1;
  console.log(`\n### ${label}: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (pairs: ${correct} correct of ${predicted} predicted, ${truePairs} true)`);
  const byGroup = new Map<string, { found: number; total: number }>();
  for (const [kind, s] of perKind) {
    const group = KINDS.find((k) => k.kind === kind)?.group ?? 'burst neighbour';
    const g = byGroup.get(group) ?? { found: 0, total: 0 };
    g.found += s.found;
    g.total += s.total;
    byGroup.set(group, g);
    console.log(`  ${kind.padEnd(40)} recall ${(s.found / s.total).toFixed(3)} (${s.found}/${s.total})`);
  }
  for (const [group, g] of byGroup) console.log(`  = ${group.padEnd(38)} recall ${(g.found / g.total).toFixed(3)} (${g.found}/${g.total})`);
  const realTruths = new Set(photos.filter((p) => p.kind.startsWith('real')).map((p) => p.truth));
  let realTrue = 0;
  let realFound = 0;
  for (const t of realTruths) {
    const members = photos.filter((p) => p.truth === t);
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        realTrue++;
        if (same(members[i]!, members[j]!)) realFound++;
      }
    }
  }
  console.log(`  real corpus pairs: ${realFound}/${realTrue} found`);
  if (wrong.length) console.log(`  false pairs (first ${wrong.length}): ${wrong.join('; ')}`);
  return { precision, recall };
}

export async function benchQuality(sources: number): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-dups-bench-'));
  try {
    const t0 = performance.now();
    const photos = await buildSet(sources, tmp);
    console.log(`\n## quality: ${sources} corpus photos, ${photos.length} photos in all (copies made and hashed in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    const items = photos.map((p) => p.item);
    // Today's detection: the whole-frame pHash only (no window hashes, no capture neighbours).
    score('today (whole-frame pHash ≤ 6)', photos, await detectDuplicateGroups(items.map((it) => ({ ...it, phash_windows: null, taken_time: null }))));
    score('now (+ window pHashes, + capture neighbours)', photos, await detectDuplicateGroups(items));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
