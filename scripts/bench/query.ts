/**
 * `npm run bench:query`: how fast the library answers on a large catalog.
 *
 * 1. Builds synthetic catalogs (default 100k and 1M files) straight in SQLite through the real
 *    migrations: 3 users (one dominant), 15 years of dates clustered on weekends, summers and
 *    holidays, ~30 cameras and ~25 lenses with a skew, ~30% with GPS (home plus trips, some across
 *    the antimeridian), ~2 tags per asset from a few hundred names, albums, RAW+JPEG pairs and live
 *    photos as media items, bursts and manual stacks, realistic EXIF blobs (1–6 KB, as the pipeline
 *    stores them), folders like `YYYY/MM/event`. Catalogs are cached in `.tmp/bench-query/`, keyed
 *    by the generator version and the migrations, so reruns start at once.
 * 2. Starts the real server on loopback (createContainer + createApp + @hono/node-server), signs
 *    in over HTTP as the dominant user and times typical requests (the timeline at several offsets,
 *    both sorts, stacks collapsed and expanded, each kind of filter, the liked and rated lists, map
 *    points and folder summaries), printing p50/p95 per request and overall against the targets
 *    (p95 ≤ 20 ms at 100k, ≤ 100 ms at 1M), in four situations: the same request again; right after
 *    another member liked a photo; right after a new file arrived and a photo went to the Trash;
 *    right after another connection (a second better-sqlite3 connection to the catalog file, as
 *    the ML workers, command-line tools and imports will be) liked one of the user's photos: the
 *    catalog's change journal (migration 0012) names that row, so the caches patch it instead of
 *    starting over. For each situation the largest event-loop delay seen while its requests ran
 *    (perf_hooks.monitorEventLoopDelay: the server runs in this process) is reported beside the
 *    times: no answer may block the loop for more than 50 ms.
 *    The statistics operations are timed too and listed apart (the target is about the
 *    list, the map and folder summaries). What the first request after a start pays is not
 *    measured here: after a start the server prepares these answers itself (server/src/warm-up.ts).
 *
 *    Before those, each measured once (answer time, the event loop's longest stall, the process's
 *    CPU): the first request after the start (the catalog shape is built), the first request of a
 *    few filters (their lists computed from scratch), and the next answers right after a gap in the
 *    change journal (another connection writes more than 50k changes at once, as a big import by
 *    another process would: the shape is rebuilt and every cache starts over). `--gap-only` runs
 *    just those; `--no-gap` skips them.
 *
 *   npm run bench:query [-- --sizes 100k,1m] [--rounds 20] [--rebuild] [--gap-only | --no-gap]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { serve, type ServerType } from '@hono/node-server';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { loadConfig } from '../../server/src/config/env.ts';
import { createContainer, dataPaths } from '../../server/src/container.ts';
import { createApp } from '../../server/src/app.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { loadMigrations, migrate } from '../../server/src/platform/db/migrate.ts';
import { hashPassword } from '../../server/src/platform/crypto/passwords.ts';
import { seededRandom } from '../../test/shared/seeded-random.ts';

/** Bump when the generated data changes: cached catalogs of another version are rebuilt. */
const GENERATOR_VERSION = 1;
const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE = path.join(ROOT, '.tmp', 'bench-query');
const PASSWORD = 'bench password 1';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const parseSize = (s: string) => {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(s.trim());
  if (!m) throw new Error(`bad size ${s}`);
  return Math.round(Number(m[1]) * (m[2]?.toLowerCase() === 'm' ? 1e6 : m[2]?.toLowerCase() === 'k' ? 1e3 : 1));
};
const SIZES = (arg('sizes') ?? '100k,1m').split(',').map(parseSize);
const ROUNDS = Number(arg('rounds') ?? 20);
const REBUILD = process.argv.includes('--rebuild');
/** Only the first requests and the answers after a gap (`--gap-only`), or not those (`--no-gap`). */
const GAP_ONLY = process.argv.includes('--gap-only');
const SKIP_GAP = process.argv.includes('--no-gap');
const label = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

// ------------------------------------------------------------------ deterministic randomness

function prng(seed: number) {
  const next = seededRandom(seed);
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
    /** Skewed towards index 0 (the larger `skew`, the stronger). */
    skewed: (n: number, skew = 2.5) => Math.min(n - 1, Math.floor(n * Math.pow(next(), skew))),
    normal: () => Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next()),
    hex: (n: number) => {
      let out = '';
      while (out.length < n) out += Math.floor(next() * 4294967296).toString(16).padStart(8, '0');
      return out.slice(0, n);
    },
  };
}
type Rng = ReturnType<typeof prng>;

function uuid7(ms: number, r: Rng): string {
  const h = ms.toString(16).padStart(12, '0') + '7' + r.hex(3) + ((8 + r.int(0, 3)).toString(16)) + r.hex(15);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

// ------------------------------------------------------------------ the household

interface Camera {
  make: string;
  model: string;
  kind: 'phone' | 'dslr' | 'compact' | 'action';
  prefix: string;
  ext: string;
  raw?: string;
  lenses: string[];
  w: number;
  h: number;
  exif: number;
}
const cam = (make: string, model: string, kind: Camera['kind'], prefix: string, ext: string, w: number, h: number, exif: number, lenses: string[] = [], raw?: string): Camera => ({ make, model, kind, prefix, ext, raw, lenses, w, h, exif });
const CAMERAS: Camera[] = [
  cam('Canon', 'Canon EOS 550D', 'dslr', 'IMG_', 'JPG', 5184, 3456, 5800, ['EF-S18-55mm f/3.5-5.6 IS', 'EF50mm f/1.8 II', 'EF-S55-250mm f/4-5.6 IS'], 'CR2'),
  cam('NIKON CORPORATION', 'NIKON D750', 'dslr', 'DSC_', 'JPG', 6016, 4016, 3100, ['24.0-120.0 mm f/4.0', '50.0 mm f/1.8', '70.0-200.0 mm f/2.8', '14.0-24.0 mm f/2.8'], 'NEF'),
  cam('FUJIFILM', 'X-T4', 'dslr', 'DSCF', 'JPG', 6240, 4160, 4200, ['XF16-80mmF4 R OIS WR', 'XF35mmF1.4 R', 'XF56mmF1.2 R'], 'RAF'),
  cam('Apple', 'iPhone 5s', 'phone', 'IMG_', 'JPG', 3264, 2448, 1900, ['iPhone 5s back camera 4.12mm f/2.2']),
  cam('Apple', 'iPhone 7', 'phone', 'IMG_', 'HEIC', 4032, 3024, 2100, ['iPhone 7 back camera 3.99mm f/1.8']),
  cam('Apple', 'iPhone 11', 'phone', 'IMG_', 'HEIC', 4032, 3024, 2100, ['iPhone 11 back dual wide camera 4.25mm f/1.8', 'iPhone 11 back dual wide camera 1.54mm f/2.4']),
  cam('Apple', 'iPhone 13 Pro', 'phone', 'IMG_', 'HEIC', 4032, 3024, 2200, ['iPhone 13 Pro back triple camera 5.7mm f/1.5', 'iPhone 13 Pro back triple camera 9mm f/2.8']),
  cam('Apple', 'iPhone 15 Pro', 'phone', 'IMG_', 'HEIC', 5712, 4284, 2300, ['iPhone 15 Pro back triple camera 6.765mm f/1.78']),
  cam('samsung', 'SM-G900F', 'phone', '', 'jpg', 5312, 2988, 1300),
  cam('samsung', 'SM-G930F', 'phone', '', 'jpg', 4032, 3024, 1300),
  cam('samsung', 'SM-G973F', 'phone', '', 'jpg', 4032, 3024, 1400),
  cam('samsung', 'SM-S901B', 'phone', '', 'jpg', 4000, 3000, 1400),
  cam('Google', 'Pixel 3', 'phone', 'IMG_', 'jpg', 4032, 3024, 1500),
  cam('Google', 'Pixel 6', 'phone', 'PXL_', 'jpg', 4080, 3072, 1500),
  cam('Google', 'Pixel 8', 'phone', 'PXL_', 'jpg', 4080, 3072, 1500),
  cam('GoPro', 'HERO7 Black', 'action', 'GOPR', 'JPG', 4000, 3000, 1100),
  cam('SONY', 'DSC-RX100M3', 'compact', 'DSC0', 'JPG', 5472, 3648, 2600, ['24-70mm F1.8-2.8'], 'ARW'),
  cam('Panasonic', 'DMC-TZ70', 'compact', 'P10', 'JPG', 4896, 3672, 2400),
  cam('Canon', 'Canon PowerShot S120', 'compact', 'IMG_', 'JPG', 4000, 3000, 4800),
  cam('NIKON', 'COOLPIX P6000', 'compact', 'DSCN', 'JPG', 4224, 3168, 1300),
  cam('OLYMPUS IMAGING CORP.', 'E-M10', 'dslr', 'P', 'JPG', 4608, 3456, 3500, ['OLYMPUS M.14-42mm F3.5-5.6 II R', 'OLYMPUS M.45mm F1.8']),
  cam('SONY', 'ILCE-6000', 'dslr', 'DSC0', 'JPG', 6000, 4000, 2800, ['E PZ 16-50mm F3.5-5.6 OSS', 'E 35mm F1.8 OSS'], 'ARW'),
  cam('Canon', 'Canon EOS 6D', 'dslr', 'IMG_', 'JPG', 5472, 3648, 6000, ['EF24-105mm f/4L IS USM', 'EF100mm f/2.8L Macro IS USM']),
  cam('HUAWEI', 'ELE-L29', 'phone', 'IMG_', 'jpg', 3648, 2736, 1600),
  cam('Xiaomi', 'Mi 9T', 'phone', 'IMG_', 'jpg', 4000, 3000, 1500),
  cam('OnePlus', 'ONEPLUS A6003', 'phone', 'IMG_', 'jpg', 4608, 3456, 1500),
  cam('LGE', 'Nexus 5', 'phone', 'IMG_', 'jpg', 3264, 2448, 1200),
  cam('Apple', 'iPad Air 2', 'phone', 'IMG_', 'JPG', 3264, 2448, 1900, ['iPad Air 2 back camera 3.3mm f/2.4']),
  cam('DJI', 'FC3170', 'action', 'DJI_', 'JPG', 4000, 3000, 1800),
  cam('LEICA', 'Q2', 'compact', 'L100', 'JPG', 8368, 5584, 3000, ['SUMMILUX 1:1.7/28 ASPH.'], 'DNG'),
];
const RAW_MIME: Record<string, string> = { CR2: 'image/x-canon-cr2', NEF: 'image/x-nikon-nef', RAF: 'image/x-fujifilm-raf', ARW: 'image/x-sony-arw', DNG: 'image/x-adobe-dng' };
const C = Object.fromEntries(CAMERAS.map((c, i) => [c.model, i]));

/** Which cameras a user had in which years, with weights; friends' cameras appear rarely. */
const USERS = [
  {
    name: 'alice',
    role: 'admin',
    share: 0.8,
    gear: (y: number): [number, number][] => [
      [y < 2014 ? C['Canon EOS 550D']! : y < 2020 ? C['NIKON D750']! : C['X-T4']!, 4],
      [y < 2016 ? C['iPhone 5s']! : y < 2019 ? C['iPhone 7']! : y < 2021 ? C['iPhone 11']! : y < 2023 ? C['iPhone 13 Pro']! : C['iPhone 15 Pro']!, 6],
      [C['DSC-RX100M3']!, y >= 2015 && y < 2019 ? 1 : 0],
      [C['HERO7 Black']!, y >= 2018 ? 0.6 : 0],
      [C['FC3170']!, y >= 2020 ? 0.3 : 0],
    ],
  },
  {
    name: 'bob',
    role: 'user',
    share: 0.15,
    gear: (y: number): [number, number][] => [
      [y < 2015 ? C['SM-G900F']! : y < 2019 ? C['SM-G930F']! : y < 2022 ? C['SM-G973F']! : C['SM-S901B']!, 6],
      [C['HERO7 Black']!, y >= 2018 ? 1 : 0],
      [C['ILCE-6000']!, y >= 2014 ? 1.5 : 0],
    ],
  },
  {
    name: 'carol',
    role: 'user',
    share: 0.05,
    gear: (y: number): [number, number][] => [
      [y < 2018 ? C['Nexus 5']! : y < 2021 ? C['Pixel 3']! : y < 2023 ? C['Pixel 6']! : C['Pixel 8']!, 6],
      [C['E-M10']!, 1],
    ],
  },
] as const;
const FRIEND_CAMERAS = ['DMC-TZ70', 'Canon PowerShot S120', 'COOLPIX P6000', 'Canon EOS 6D', 'ELE-L29', 'Mi 9T', 'ONEPLUS A6003', 'iPad Air 2', 'Q2'].map((m) => C[m]!);

const PLACES: { name: string; lat: number; lon: number; tz: number; w: number }[] = [
  { name: 'home', lat: 52.37, lon: 4.89, tz: 60, w: 60 },
  { name: 'paris', lat: 48.857, lon: 2.352, tz: 60, w: 5 },
  { name: 'barcelona', lat: 41.387, lon: 2.17, tz: 60, w: 5 },
  { name: 'rome', lat: 41.9, lon: 12.5, tz: 60, w: 4 },
  { name: 'alps', lat: 47.05, lon: 11.2, tz: 60, w: 5 },
  { name: 'lisbon', lat: 38.72, lon: -9.14, tz: 0, w: 3 },
  { name: 'reykjavik', lat: 64.14, lon: -21.94, tz: 0, w: 2 },
  { name: 'new-york', lat: 40.71, lon: -74.0, tz: -300, w: 3 },
  { name: 'tokyo', lat: 35.68, lon: 139.76, tz: 540, w: 2 },
  { name: 'cape-town', lat: -33.92, lon: 18.42, tz: 120, w: 1.5 },
  { name: 'sydney', lat: -33.87, lon: 151.21, tz: 600, w: 1.5 },
  { name: 'fiji', lat: -17.8, lon: 178.1, tz: 720, w: 1 },
  { name: 'taveuni', lat: -16.85, lon: -179.97, tz: 720, w: 0.5 },
  { name: 'auckland', lat: -36.85, lon: 174.76, tz: 720, w: 1 },
];
const EVENT_NAMES = ['birthday', 'beach', 'hiking', 'christmas', 'new-year', 'easter', 'school', 'garden', 'zoo', 'wedding', 'ski-trip', 'city-trip', 'bbq', 'concert', 'museum', 'football', 'picnic', 'camping', 'family-visit', 'sunday-walk', 'carnival', 'graduation', 'first-day', 'road-trip', 'lake', 'snow', 'halloween', 'kings-day', 'market', 'sailing'];
const TAG_BASE = ['beach', 'sunset', 'dog', 'cat', 'child', 'baby', 'birthday cake', 'tree', 'mountain', 'snow', 'car', 'bicycle', 'food', 'pizza', 'flower', 'garden', 'sea', 'lake', 'river', 'boat', 'bridge', 'church', 'castle', 'museum', 'painting', 'statue', 'train', 'plane', 'airport', 'street', 'city', 'night', 'fireworks', 'christmas tree', 'candle', 'present', 'balloon', 'party', 'wedding', 'dress', 'suit', 'football', 'ball', 'playground', 'swing', 'slide', 'sand', 'shell', 'bird', 'duck', 'horse', 'cow', 'sheep', 'goat', 'chicken', 'fish', 'butterfly', 'bee', 'leaf', 'autumn', 'spring', 'summer', 'winter', 'rain', 'cloud', 'sky', 'rainbow', 'forest', 'field', 'tulip', 'windmill', 'canal', 'house', 'kitchen', 'living room', 'bed', 'book', 'guitar', 'piano', 'drawing', 'lego', 'toy', 'teddy bear', 'costume', 'mask', 'hat', 'glasses', 'selfie', 'group photo', 'portrait', 'document', 'screenshot', 'receipt', 'whiteboard', 'text', 'map', 'sign', 'menu', 'coffee', 'wine', 'beer', 'cake', 'ice cream', 'fruit', 'vegetables', 'bread', 'cheese', 'barbecue', 'tent', 'campfire', 'hiking trail', 'waterfall', 'cave', 'desert', 'palm tree', 'pool', 'ski', 'sled', 'snowman', 'skating', 'sailboat'];
const TAG_NAMES = [...TAG_BASE, ...PLACES.slice(1).flatMap((p) => [p.name, `${p.name} trip`]), ...Array.from({ length: 15 }, (_, i) => `holiday ${2011 + i}`), ...Array.from({ length: 15 }, (_, i) => `school year ${2011 + i}`), ...TAG_BASE.slice(0, 120).map((t) => `${t} (close-up)`)];

// ------------------------------------------------------------------ generation

interface Gen {
  asset_id: string;
  owner: number;
  repo: number;
  path: string;
  name: string;
  type: 'PHOTO' | 'VIDEO';
  mime: string;
  size: number;
  w: number;
  h: number;
  duration: number | null;
  taken: number | null;
  offset: number | null;
  upload: number;
  lat: number | null;
  lon: number | null;
  liked: number;
  rating: number;
  deleted: number;
  camera: number;
  lens: string | null;
  isRaw: boolean;
  contentId: string | null;
  failed: boolean;
  /** Index of the first file of the media item (itself for a primary). */
  item: number;
  position: number;
  relation: string;
  kind: string;
  stack: number;
  stackPos: number;
  event: number;
}

const DAY = 86_400_000;
const START = Date.UTC(2011, 0, 1);
const END = Date.UTC(2025, 11, 31);
/** Hearth went into use here: everything taken before was imported in one go over a few days. */
const CATALOG_START = Date.UTC(2019, 2, 1, 9);

function dayWeights(): Float64Array {
  const days = Math.round((END - START) / DAY);
  const w = new Float64Array(days);
  const easter: Record<number, [number, number]> = { 2011: [3, 24], 2012: [3, 8], 2013: [2, 31], 2014: [3, 20], 2015: [3, 5], 2016: [2, 27], 2017: [3, 16], 2018: [3, 1], 2019: [3, 21], 2020: [3, 12], 2021: [3, 4], 2022: [3, 17], 2023: [3, 9], 2024: [2, 31], 2025: [3, 20] };
  for (let i = 0; i < days; i++) {
    const d = new Date(START + i * DAY);
    const y = d.getUTCFullYear();
    const m = d.getUTCMonth();
    const dd = d.getUTCDate();
    let x = 1 + 0.12 * (y - 2011);
    x *= [0.6, 0.6, 0.8, 1.1, 1.2, 1.1, 2.0, 2.3, 1.0, 0.9, 0.7, 1.5][m]!;
    const wd = d.getUTCDay();
    if (wd === 0 || wd === 6) x *= 1.8;
    if (m === 11 && dd >= 24 && dd <= 26) x *= 4;
    if ((m === 11 && dd === 31) || (m === 0 && dd === 1)) x *= 3;
    if ((m === 2 && dd === 14) || (m === 8 && dd === 3) || (m === 5 && dd === 21)) x *= 4; // birthdays
    if (m === 3 && dd === 27) x *= 2.5; // king's day
    const e = easter[y];
    if (e && m === e[0] && Math.abs(dd - e[1]) <= 1) x *= 2.5;
    w[i] = x;
  }
  return w;
}

function sampler(weights: Float64Array, r: Rng) {
  const cum = new Float64Array(weights.length);
  let t = 0;
  for (let i = 0; i < weights.length; i++) cum[i] = t += weights[i]!;
  return () => {
    const u = r.next() * t;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function generate(n: number): { assets: Gen[]; stacks: { owner: number; kind: string; cover: number; members: number[] }[] } {
  const r = prng(20_251_121);
  const day = sampler(dayWeights(), r);
  const placeW = new Float64Array(PLACES.map((p) => p.w));
  const place = sampler(placeW, r);
  const counters = new Map<string, number>();
  const used = new Set<string>();
  const assets: Gen[] = [];
  const stacks: { owner: number; kind: string; cover: number; members: number[] }[] = [];
  let event = 0;
  while (assets.length < n) {
    const u = r.next();
    const owner = u < USERS[0].share ? 0 : u < USERS[0].share + USERS[1].share ? 1 : 2;
    const d = day();
    const y = new Date(START + d * DAY).getUTCFullYear();
    const gear = USERS[owner]!.gear(y).filter(([, w]) => w > 0);
    const totalW = gear.reduce((s, [, w]) => s + w, 0);
    let pickW = r.next() * totalW;
    let camera = gear[0]![0];
    for (const [c, w] of gear) if ((pickW -= w) <= 0) { camera = c; break; }
    const where = PLACES[r.chance(0.75) ? 0 : place()]!;
    const trip = where.name !== 'home';
    const name = trip ? `${where.name}-${r.pick(['holiday', 'trip', 'weekend'])}` : r.pick(EVENT_NAMES);
    const local = START + d * DAY + r.int(8, 17) * 3_600_000 + r.int(0, 59) * 60_000;
    const utc = local - where.tz * 60_000;
    const size = Math.max(1, Math.min(600, Math.round(Math.exp(2.6 + 1.0 * r.normal()) * (trip ? 2.5 : 1))));
    const span = r.int(1, trip ? 30 : 6) * 3_600_000;
    const dt = new Date(local);
    const folder = `${dt.getUTCFullYear()}/${String(dt.getUTCMonth() + 1).padStart(2, '0')}/${name}`;
    const repo = r.chance(0.1) ? 1 : 0;
    const noExif = r.chance(0.04); // messaging images, screenshots
    const failedEvent = r.chance(0.002);
    let t = utc;
    let burstLeft = 0;
    let burst: number[] = [];
    for (let k = 0; k < size && assets.length < n; k++) {
      const c = r.chance(0.12) ? (r.chance(0.3) ? r.pick(FRIEND_CAMERAS) : r.pick(gear)[0]) : camera;
      const cm = CAMERAS[c]!;
      if (burstLeft > 0) t += r.int(80, 350);
      else t += Math.round(span / size * (0.2 + 1.6 * r.next()));
      const video = cm.kind === 'action' ? r.chance(0.5) : cm.kind === 'phone' ? r.chance(0.08) : r.chance(0.02);
      const hasGps = cm.kind === 'phone' ? r.chance(0.55) : cm.kind === 'action' ? r.chance(0.3) : r.chance(0.03);
      const lat = hasGps ? where.lat + r.normal() * (trip ? 0.08 : 0.03) : null;
      let lon = hasGps ? where.lon + r.normal() * (trip ? 0.08 : 0.03) : null;
      if (lon !== null && lon > 180) lon -= 360;
      if (lon !== null && lon < -180) lon += 360;
      const key = `${owner}:${cm.model}`;
      const num = ((counters.get(key) ?? r.int(1, 9000)) % 9999) + 1;
      counters.set(key, num);
      const stamp = new Date(t + where.tz * 60_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
      let stem = cm.prefix === '' ? `${stamp.slice(0, 8)}_${stamp.slice(8)}` : cm.prefix === 'PXL_' ? `PXL_${stamp.slice(0, 8)}_${stamp.slice(8)}` : `${cm.prefix}${String(num).padStart(8 - cm.prefix.length, '0')}`;
      while (used.has(`${repo}/${folder}/${stem}`)) stem += '_1';
      used.add(`${repo}/${folder}/${stem}`);
      const ext = video ? (cm.make === 'Apple' ? 'MOV' : 'MP4') : noExif ? 'jpg' : cm.ext;
      const liked = r.chance(0.03) ? 1 : 0;
      const rating = r.chance(0.08) ? r.pick([1, 2, 3, 3, 4, 4, 4, 5, 5]) : 0;
      const deleted = r.chance(0.01) ? 1 : 0;
      const base: Gen = {
        asset_id: '',
        owner,
        repo,
        path: `${folder}/${stem}.${ext}`,
        name: `${stem}.${ext}`,
        type: video ? 'VIDEO' : 'PHOTO',
        mime: video ? (ext === 'MOV' ? 'video/quicktime' : 'video/mp4') : ext.toLowerCase() === 'heic' ? 'image/heic' : 'image/jpeg',
        size: video ? r.int(5e6, 4e8) : r.int(1.5e6, 9e6),
        w: cm.w,
        h: cm.h,
        duration: video ? Math.round(r.int(3, 300) * 10) / 10 : null,
        taken: noExif || failedEvent ? null : t,
        offset: noExif || failedEvent ? null : where.tz,
        upload: 0,
        lat: noExif ? null : lat,
        lon: noExif ? null : lon,
        liked,
        rating,
        deleted,
        camera: noExif ? -1 : c,
        lens: noExif || cm.lenses.length === 0 ? null : cm.lenses[r.skewed(cm.lenses.length)]!,
        isRaw: false,
        contentId: null,
        failed: failedEvent,
        item: assets.length,
        position: 0,
        relation: 'original',
        kind: video ? 'video' : 'photo',
        stack: -1,
        stackPos: 0,
        event,
      };
      const primary = assets.length;
      assets.push(base);
      if (failedEvent) continue;
      // RAW + JPEG pairs (some RAW alone), live photos.
      if (!video && !noExif && cm.raw) {
        const pairP = cm.model === 'NIKON D750' ? 0.8 : cm.model === 'X-T4' ? 0.3 : 0.1;
        if (r.chance(pairP) && assets.length < n) {
          const rawOnly = r.chance(0.03);
          const raw: Gen = { ...base, path: `${folder}/${stem}.${cm.raw}`, name: `${stem}.${cm.raw}`, mime: RAW_MIME[cm.raw]!, size: r.int(2e7, 5e7), isRaw: true };
          if (rawOnly) assets[primary] = { ...raw, item: primary };
          else {
            assets.push({ ...raw, item: primary, position: 1, relation: 'raw_original' });
            assets[primary]!.relation = 'jpeg_original';
          }
        }
      }
      if (!video && cm.make === 'Apple' && cm.kind === 'phone' && y >= 2016 && r.chance(0.5) && assets.length < n) {
        const cid = `${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}`.toUpperCase();
        assets[primary]!.contentId = cid;
        assets[primary]!.relation = 'live_photo_still';
        assets[primary]!.kind = 'live_photo';
        assets.push({ ...base, path: `${folder}/${stem}.MOV`, name: `${stem}.MOV`, type: 'VIDEO', mime: 'video/quicktime', size: r.int(2e6, 4e6), duration: 2.8, contentId: cid, item: primary, position: 1, relation: 'live_photo_video', kind: 'live_photo', lens: null });
      }
      // Bursts: 2% of photos start one of 3..12 shots, stacked with the middle shot as cover.
      if (!video && !noExif) {
        if (burstLeft === 0 && r.chance(0.02)) {
          burstLeft = r.int(3, 12);
          burst = [];
        }
        if (burstLeft > 0) {
          burst.push(primary);
          if (--burstLeft === 0 || k === size - 1) {
            if (burst.length >= 2) {
              burst.forEach((m, p) => ((assets[m]!.stack = stacks.length), (assets[m]!.stackPos = p)));
              stacks.push({ owner, kind: 'burst', cover: burst[burst.length >> 1]!, members: burst });
            }
            burstLeft = 0;
          }
        } else if (r.chance(0.002) && assets.length > 4) {
          // A manual stack of this photo and the few before it (same event, not stacked yet).
          const members = [primary - 3, primary - 2, primary - 1, primary].filter((i) => assets[i]!.event === event && assets[i]!.item === i && assets[i]!.stack < 0 && !assets[i]!.failed);
          if (members.length >= 2) {
            members.forEach((m, p) => ((assets[m]!.stack = stacks.length), (assets[m]!.stackPos = p)));
            stacks.push({ owner, kind: 'manual', cover: members[0]!, members });
          }
        }
      }
      if (burstLeft === 0) burst = [];
    }
    event++;
  }
  // Upload times: files taken before Hearth went into use were imported in one go (in folder
  // order) over a few days; later ones came in a few minutes (phones) to weeks (cameras) after.
  const early = assets.filter((a) => (a.taken ?? START + (a.event % 5000) * DAY) < CATALOG_START);
  early.sort((a, b) => (a.repo - b.repo) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const importSpan = 5 * DAY;
  early.forEach((a, i) => (a.upload = CATALOG_START + Math.floor((i / early.length) * importSpan)));
  for (const a of assets) {
    if (a.upload) continue;
    const base = a.taken ?? CATALOG_START + importSpan + ((a.event * 7919) % (END - CATALOG_START - importSpan));
    const cm = CAMERAS[a.camera];
    a.upload = Math.max(CATALOG_START + importSpan, base + (cm?.kind === 'phone' ? r.int(60_000, 6 * 3_600_000) : r.int(DAY, 20 * DAY)));
  }
  // Components of one item upload together.
  assets.forEach((a, i) => {
    if (a.item !== i) a.upload = assets[a.item]!.upload + 1;
  });
  return { assets, stacks };
}

// ------------------------------------------------------------------ writing the catalog

const FILLER = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function exifBlob(a: Gen, r: Rng): string {
  const cm = CAMERAS[a.camera];
  const target = cm?.exif ?? 900;
  const head = {
    Make: cm?.make,
    Model: cm?.model,
    LensModel: a.lens,
    DateTimeOriginal: a.taken ? new Date(a.taken).toISOString() : null,
    ExposureTime: 1 / r.pick([60, 125, 250, 500, 1000]),
    FNumber: r.pick([1.8, 2.8, 4, 5.6, 8]),
    ISO: r.pick([100, 200, 400, 800]),
    GPSLatitude: a.lat,
    GPSLongitude: a.lon,
    ImageWidth: a.w,
    ImageHeight: a.h,
  };
  const s = JSON.stringify(head);
  return `${s.slice(0, -1)},${fillerFor(Math.max(0, target - s.length + r.int(-300, 300)))}}`;
}

/** Maker-note-like padding of about `len` characters (cached by length bucket). */
const fillers = new Map<number, string>();
function fillerFor(len: number): string {
  const bucket = Math.round(len / 100) * 100;
  let f = fillers.get(bucket);
  if (f === undefined) {
    const parts: string[] = [];
    for (let i = 0, l = 0; l < bucket; i++) {
      const v = FILLER.slice(i % 20, (i % 20) + 8 + (i % 30));
      parts.push(`"Tag${i}":"${v}"`);
      l += v.length + 10 + String(i).length;
    }
    f = parts.join(',') || '"Tag":""';
    fillers.set(bucket, f);
  }
  return f;
}

async function buildCatalog(n: number, dir: string): Promise<void> {
  const t0 = performance.now();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const { assets, stacks } = generate(n);
  const tGen = performance.now();
  const order = assets.map((_, i) => i).sort((x, y) => assets[x]!.upload - assets[y]!.upload || x - y);
  const r = prng(7);
  for (const i of order) assets[i]!.asset_id = uuid7(assets[i]!.upload, r);

  const db = new Database(dataPaths(dir).catalog);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = MEMORY');
  db.pragma('threads = 4'); // CREATE INDEX sorts with helper threads
  db.pragma('foreign_keys = OFF');
  migrate(db);
  // Secondary indexes are dropped for the load and created again from their own definitions.
  const indexes = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('assets', 'media_items', 'media_item_components', 'asset_tags', 'album_assets', 'albums', 'tags', 'stacks', 'stack_members')")
    .all() as { name: string; sql: string }[];
  for (const ix of indexes) db.exec(`DROP INDEX ${ix.name}`);
  // So are the change journal's triggers (0012): a built catalog starts with an empty journal.
  const triggers = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL").all() as { name: string; sql: string }[];
  for (const tr of triggers) db.exec(`DROP TRIGGER ${tr.name}`);

  const now = Date.UTC(2026, 0, 5);
  const hash = await hashPassword(PASSWORD);
  const userIds: number[] = [];
  for (const u of USERS) {
    userIds.push(
      Number(
        db.prepare('INSERT INTO users (username, display_name, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(u.name, u.name[0]!.toUpperCase() + u.name.slice(1), hash, u.role, now, now).lastInsertRowid,
      ),
    );
  }
  // The photos live in two repositories that are not mounted on this machine (offline): the server
  // neither scans nor watches them, so the catalog stays as built.
  const repoIds = ['0195f000-0000-7000-8000-00000000a001', '0195f000-0000-7000-8000-00000000a002'];
  ['Family photos', 'Phone backup'].forEach((name, i) =>
    db.prepare("INSERT INTO repositories (repository_id, name, path, role, created_at, updated_at, status) VALUES (?, ?, ?, 'regular', ?, ?, 'offline')").run(repoIds[i], name, path.join(dir, `not-mounted-${i}`), now, now),
  );

  const insAsset = db.prepare(`INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, hash, file_mtime,
      width, height, duration, taken_time, capture_offset_minutes, upload_time, gps_latitude, gps_longitude, liked, rating, description, is_deleted, deleted_at,
      content_id, phash, specific_metadata, exif_raw, state, status, last_error, media_item_id, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insItem = db.prepare('INSERT INTO media_items (media_item_id, owner_id, media_kind, primary_asset_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
  const insComp = db.prepare('INSERT INTO media_item_components (media_item_id, asset_id, position, relation) VALUES (?, ?, ?, ?)');
  const itemIds = new Map<number, string>();
  const write = db.transaction((from: number, to: number) => {
    for (let k = from; k < to; k++) {
      const i = order[k]!;
      const a = assets[i]!;
      const cm = CAMERAS[a.camera];
      if (!a.failed && a.item === i) {
        itemIds.set(i, uuid7(a.upload, r));
      }
      const itemId = a.failed ? null : itemIds.get(a.item)!;
      const meta = a.failed
        ? null
        : a.type === 'VIDEO'
          ? JSON.stringify({ camera_make: cm?.make ?? null, camera_model: cm?.model ?? null, video_codec: 'h264', audio_codec: 'aac', fps: 30, bitrate: 12_000_000, rotation: 0, container: 'mp4', content_identifier: a.contentId, web_copy: false })
          : JSON.stringify({ camera_make: cm?.make ?? null, camera_model: cm?.model ?? null, lens_model: a.lens, f_number: 2.8, exposure_time: '1/250', iso_speed: 200, focal_length: 35, exposure_compensation: 0, description: null, is_raw: a.isRaw, content_identifier: a.contentId, rating: null, keywords: [], gps_altitude: null, orientation: 1 });
      insAsset.run(
        a.asset_id, userIds[a.owner], repoIds[a.repo], a.path, a.type, a.name, a.mime, a.size, r.hex(64), a.upload - 5000,
        a.failed ? null : a.w, a.failed ? null : a.h, a.duration, a.taken, a.offset, a.upload, a.lat, a.lon, a.liked, a.rating, a.deleted, a.deleted ? a.upload + 30 * DAY : null,
        a.contentId, a.failed ? null : r.hex(16), meta, a.failed || a.camera < 0 ? null : exifBlob(a, r),
        a.failed ? 'failed' : 'ready', a.failed ? '[10,-21]' : '[10,20,30,40,50,60]', a.failed ? 'The image could not be decoded (unsupported or corrupt file).' : null,
        itemId, a.upload, a.upload,
      );
      if (itemId) {
        if (a.item === i) insItem.run(itemId, userIds[a.owner], a.kind, a.asset_id, a.upload, a.upload);
        insComp.run(itemId, a.asset_id, a.position, a.relation);
      }
    }
  });
  for (let k = 0; k < order.length; k += 50_000) write(k, Math.min(order.length, k + 50_000));
  if (process.env.BENCH_DEBUG) console.log('assets written', ((performance.now() - tGen) / 1000).toFixed(1));
  // A media item's primary is its first component: fix the rare item whose RAW arrived first.
  db.exec(`UPDATE media_items SET primary_asset_id = (SELECT asset_id FROM media_item_components c WHERE c.media_item_id = media_items.media_item_id AND c.position = 0)`);

  // Stacks.
  const insStack = db.prepare('INSERT INTO stacks (stack_id, owner_id, stack_kind, group_key, cover_media_item_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insMember = db.prepare('INSERT INTO stack_members (stack_id, media_item_id, position) VALUES (?, ?, ?)');
  db.transaction(() => {
    stacks.forEach((s, i) => {
      const cover = assets[s.cover]!;
      const id = uuid7(cover.upload, r);
      insStack.run(id, userIds[s.owner], s.kind, s.kind === 'burst' ? `time:${userIds[s.owner]}:${cover.camera}:${i}:${cover.taken}` : null, itemIds.get(s.cover), now, now);
      s.members.forEach((m, p) => insMember.run(id, itemIds.get(m), p));
    });
  })();

  // Tags: ~2 per asset (Poisson), skewed towards common names; most from the classifier.
  const tagIds: number[] = [];
  const insTag = db.prepare('INSERT INTO tags (tag_name, created_at) VALUES (?, ?)');
  db.transaction(() => TAG_NAMES.forEach((t) => tagIds.push(Number(insTag.run(t, now).lastInsertRowid))))();
  const insAT = db.prepare('INSERT OR IGNORE INTO asset_tags (asset_id, tag_id, source, confidence, created_at) VALUES (?, ?, ?, ?, ?)');
  const tagAll = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const a = assets[i]!;
      if (a.failed || a.position > 0) continue;
      let k = 0;
      for (let p = Math.exp(-2), s = p, u = r.next(); u > s && k < 8; k++) {
        p *= 2 / (k + 1);
        s += p;
      }
      for (let j = 0; j < k; j++) {
        const src = r.next();
        insAT.run(a.asset_id, tagIds[r.skewed(tagIds.length, 3)], src < 0.7 ? 'zeroshot' : src < 0.9 ? 'manual' : 'metadata', src < 0.7 ? 0.3 + 0.7 * r.next() : 1, a.upload);
      }
    }
  });
  for (let i = 0; i < assets.length; i += 50_000) tagAll(i, Math.min(assets.length, i + 50_000));
  if (process.env.BENCH_DEBUG) console.log('tags written', ((performance.now() - tGen) / 1000).toFixed(1));

  // Albums: per user, a few dozen to a few hundred, each from one to a few events.
  const byEvent = new Map<number, number[]>();
  assets.forEach((a, i) => {
    if (a.failed || a.position > 0) return;
    const l = byEvent.get(a.event) ?? [];
    l.push(i);
    byEvent.set(a.event, l);
  });
  const events = [...byEvent.keys()];
  const insAlbum = db.prepare('INSERT INTO albums (owner_id, album_name, album_type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
  const insAA = db.prepare('INSERT OR IGNORE INTO album_assets (album_id, asset_id, position, added_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    USERS.forEach((u, ui) => {
      const mine = events.filter((e) => assets[byEvent.get(e)![0]!]!.owner === ui);
      const count = Math.max(3, Math.round((n / 1e6) * [300, 60, 15][ui]! + [40, 10, 3][ui]!));
      for (let k = 0; k < count; k++) {
        const albumId = Number(insAlbum.run(userIds[ui], `${u.name} album ${k + 1}`, k % 40 === 0 ? 'bio' : 'regular', now, now).lastInsertRowid);
        let pos = 0;
        for (let e = r.int(1, 4); e > 0; e--) {
          const ev = mine[r.int(0, mine.length - 1)];
          if (ev === undefined) continue;
          const keep = 0.3 + 0.7 * r.next();
          for (const i of byEvent.get(ev)!) if (r.chance(keep)) insAA.run(albumId, assets[i]!.asset_id, pos++, now);
        }
      }
    });
  })();

  const tLoad = performance.now();
  for (const ix of indexes) db.exec(ix.sql);
  for (const tr of triggers) db.exec(tr.sql);
  db.pragma('journal_mode = WAL');
  db.close();
  fs.writeFileSync(path.join(dir, 'built.json'), JSON.stringify({ assets: assets.length, stacks: stacks.length, generator: GENERATOR_VERSION, migrations: migrationHashes(), at: new Date().toISOString() }));
  const tEnd = performance.now();
  console.log(
    `built ${label(n)} catalog in ${((tEnd - t0) / 1000).toFixed(1)} s (generate ${((tGen - t0) / 1000).toFixed(1)} s, load ${((tLoad - tGen) / 1000).toFixed(1)} s, indexes ${((tEnd - tLoad) / 1000).toFixed(1)} s): ` +
      `${(fs.statSync(dataPaths(dir).catalog).size / 1e9).toFixed(2)} GB`,
  );
}

/**
 * A hash of each migration's statements (comments and spacing left out): a cached catalog whose
 * applied migrations changed since is rebuilt; new migrations are applied to it like an upgrade.
 */
function migrationHashes(): Record<string, string> {
  const statements = (sql: string) => sql.replace(/--[^\n]*/g, '').replace(/\s+/g, ' ').trim();
  return Object.fromEntries(loadMigrations().map((m) => [String(m.version), crypto.createHash('sha256').update(statements(m.sql)).digest('hex').slice(0, 16)]));
}

// ------------------------------------------------------------------ running requests

interface Scenario {
  name: string;
  /** An HTTP request through the real server. */
  http: { method: 'GET' | 'POST'; path: string; body?: unknown };
  /** Measured, but not one of the requests the target is about. */
  extra?: boolean;
}

interface Timing {
  name: string;
  warm: number[];
  like: number[];
  added: number[];
  other: number[];
  /** The largest event-loop delay (ms) seen during each situation's requests. */
  loop: { warm: number; like: number; added: number; other: number };
  /** The longest garbage collection pause (ms) seen during each situation's requests. */
  gc: { warm: number; like: number; added: number; other: number };
  extra: boolean;
  info: string;
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const ms = (x: number) => (Number.isNaN(x) ? '-' : x < 10 ? x.toFixed(1) : x.toFixed(0));

/** Runs one statement `times` in one transaction of a worker thread's own connection to the catalog. */
function writeFromWorker(catalog: string, [sql, ...params]: [string, ...unknown[]], times: number): Promise<void> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    const Database = require(workerData.driver);
    const db = new Database(workerData.catalog);
    db.pragma('busy_timeout = 10000');
    const st = db.prepare(workerData.sql);
    db.transaction(() => { for (let i = 0; i < workerData.times; i++) st.run(...workerData.params); })();
    db.close();
    parentPort.postMessage('done');`;
  const worker = new Worker(code, { eval: true, execArgv: [], workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), catalog, sql, params, times } });
  return new Promise((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
}

/** A request measured once: the time to its whole answer, the event loop's longest stall meanwhile, and the process's CPU. */
interface Situation {
  name: string;
  ms: number;
  /** The largest event-loop delay during it (ms, wall clock: inflated when the machine is loaded). */
  loop: number;
  /**
   * The most CPU the main thread spent between two turns of a 1 ms timer (ms): the longest
   * synchronous stretch, as CPU (not inflated by other processes taking the cores).
   */
  stretch: number;
  /** CPU of the whole process meanwhile (ms; worker threads included). */
  cpu: number;
  /** The longest garbage collection pause meanwhile (ms, wall clock). */
  gc: number;
}

/** Lists computed the first time (nothing kept yet), each a kind of drive: the index order, and sorts of what an index found. */
const COLD = ['date_captured, first page', 'camera NIKON D750 (date_captured)', 'tag "beach"', 'folder 2018 (recursive)', 'album (largest)'];
/** The answers timed right after a gap, in this order (the first one waits for the rebuild). */
const GAP_ORDER = ['timeline, first page', 'date_captured, first page', 'getMapPoints (world)', 'getStatsYears', 'tag "beach"'];

/** The main thread's CPU time in ms. */
const threadCpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

async function situation(name: string, run: () => Promise<unknown>): Promise<Situation> {
  const loop = monitorEventLoopDelay({ resolution: 2 });
  loop.enable();
  let stretch = 0;
  let last = threadCpu();
  let ticking = true;
  const tick = () => {
    const now = threadCpu();
    stretch = Math.max(stretch, now - last);
    last = now;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  let gcMax = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMax = Math.max(gcMax, e.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  ticking = false;
  tick();
  loop.disable();
  await new Promise((resolve) => setImmediate(resolve)); // the last GC entries are delivered
  gc.disconnect();
  return { name, ms: elapsed, loop: loop.max / 1e6, stretch, cpu: (cpu.user + cpu.system) / 1000, gc: gcMax };
}

function reportSlow(xs: Situation[]): void {
  if (xs.length === 0) return;
  const w = Math.max(...xs.map((x) => x.name.length)) + 2;
  console.log(`  ${'first requests and answers after a gap (one each)'.padEnd(w)}${'answer ms'.padStart(10)}${'loop max'.padStart(10)}${'stretch'.padStart(10)}${'GC max'.padStart(10)}${'CPU ms'.padStart(10)}`);
  for (const x of xs) console.log(`  ${x.name.padEnd(w)}${ms(x.ms).padStart(10)}${ms(x.loop).padStart(10)}${ms(x.stretch).padStart(10)}${ms(x.gc).padStart(10)}${ms(x.cpu).padStart(10)}`);
  console.log(
    `  longest synchronous stretch among them: ${ms(Math.max(...xs.map((x) => x.stretch)))} ms of main-thread CPU (target ≤ 50); ` +
      `longest event-loop delay (wall clock, inflated by the machine's load ${os.loadavg()[0]!.toFixed(1)}): ${ms(Math.max(...xs.map((x) => x.loop)))} ms. ` +
      'answer: wall clock; stretch: the most main-thread CPU between two turns of a 1 ms timer (garbage collection on the main thread included); ' +
      `GC max: the longest collection pause (wall clock); CPU: the whole process (the list worker thread included). V8 flags: ${process.execArgv.join(' ') || 'none'} ${process.env.NODE_OPTIONS ?? ''}`,
  );
}

async function runBench(n: number, dir: string): Promise<{ timings: Timing[]; target: number }> {
  const catalog = dataPaths(dir).catalog;
  // Migrations added since the catalog was built (the real ones), without the backup copy an upgrade makes.
  const pre = new Database(catalog);
  const applied = migrate(pre).applied;
  pre.exec('DROP TABLE IF EXISTS bench_tick');
  pre.close();
  if (applied.length) {
    console.log(`  applied migrations ${applied.join(', ')} to the cached catalog`);
    const built = JSON.parse(fs.readFileSync(path.join(dir, 'built.json'), 'utf8')) as { migrations: Record<string, string> };
    fs.writeFileSync(path.join(dir, 'built.json'), JSON.stringify({ ...built, migrations: migrationHashes() }));
  }

  const config = loadConfig({ HEARTH_DATA_DIR: dir, HEARTH_PORT: '0', HEARTH_LOG_LEVEL: 'silent' });
  const container = createContainer(config, createLogger('silent'));
  const app = createApp(container);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Another connection to the same catalog: its writes reach the server through the change journal.
  const other = new Database(catalog);
  other.pragma('busy_timeout = 5000');
  const otherLike = other.prepare('UPDATE assets SET liked = 1 - liked WHERE asset_id = ?');
  // A like by another member (bob), through the server's own connection: alice's lists that do not
  // filter on likes stay as they are.
  const bobAsset = container.db.prepare("SELECT a.asset_id FROM assets a JOIN users u ON u.user_id = a.owner_id WHERE u.username = 'bob' LIMIT 1").pluck().get() as string;
  const like = container.db.prepare('UPDATE assets SET liked = 1 - liked WHERE asset_id = ?');
  // Alice's library changes: a new file arrives (just uploaded, not processed yet) and one of her
  // photos goes to the Trash: her lists take those rows in or out, and the catalog shape is patched.
  const aliceId = container.db.prepare("SELECT user_id FROM users WHERE username = 'alice'").pluck().get() as number;
  const trashable = container.db
    .prepare('SELECT asset_id FROM assets WHERE owner_id = ? AND is_deleted = 0 ORDER BY rowid LIMIT 200 OFFSET 1000')
    .pluck()
    .all(aliceId) as string[];
  let added = 0;
  const addFile = container.db.prepare(
    `INSERT INTO assets (asset_id, owner_id, repository_id, storage_path, type, original_filename, mime_type, file_size, upload_time, state, status, created_at, updated_at)
     VALUES (@id, @owner, @repo, @path, 'PHOTO', 'new.jpg', 'image/jpeg', 1000, @now, 'pending', '[10]', @now, @now)`,
  );
  const trash = container.db.prepare('UPDATE assets SET is_deleted = 1, deleted_at = ? WHERE asset_id = ?');
  // One of alice's photos that another connection likes (and unlikes) between requests.
  const likedByOther = trashable[trashable.length - 1]!;
  const change = () => {
    added++;
    const now = Date.now();
    addFile.run({ id: `0195f000-ffff-7000-8000-${String(added).padStart(12, '0')}`, owner: aliceId, repo, path: `bench-new/${added}.jpg`, now });
    trash.run(now, trashable[added % trashable.length]);
  };
  let token = '';
  let signedAt = 0;
  const signIn = async () => {
    const r = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: PASSWORD }) });
    if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${await r.text()}`);
    token = ((await r.json()) as { token: string }).token;
    signedAt = Date.now();
  };
  await signIn();
  /**
   * One request; the time is until the whole answer has arrived. Only `parse` answers are parsed
   * (the untimed warm-up, for the result column): the client shares this process, its event loop
   * and this timing with the server, and parsing a 1 MB map answer is the client's cost, not the server's.
   */
  const call = async (s: NonNullable<Scenario['http']>, parse = true): Promise<{ ms: number; body: any }> => {
    if (Date.now() - signedAt > 10 * 60_000) await signIn();
    const t = performance.now();
    const r = await fetch(`${base}/api/v1${s.path}`, {
      method: s.method,
      headers: { authorization: `Bearer ${token}`, ...(s.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: s.body !== undefined ? JSON.stringify(s.body) : undefined,
    });
    const text = await r.text();
    const elapsed = performance.now() - t;
    if (r.status !== 200) throw new Error(`${s.method} ${s.path} ${JSON.stringify(s.body)}: ${r.status} ${text.slice(0, 300)}`);
    return { ms: elapsed, body: parse ? JSON.parse(text) : null };
  };

  const db = container.db;
  const alice = db.prepare("SELECT user_id FROM users WHERE username = 'alice'").pluck().get() as number;
  const repo = db.prepare("SELECT repository_id FROM repositories WHERE name = 'Family photos'").pluck().get() as string;
  const album = db.prepare('SELECT al.album_id FROM albums al JOIN album_assets aa ON aa.album_id = al.album_id WHERE al.owner_id = ? GROUP BY al.album_id ORDER BY count(*) DESC LIMIT 1').pluck().get(alice) as number;
  // The first request after the start: the catalog shape is built and the timeline computed.
  const startedCold: Situation[] = [];
  let total = 0;
  startedCold.push(
    await situation('first request after the start: timeline (shape built, list computed)', async () => {
      total = (await call({ method: 'POST', path: '/assets/query', body: { pagination: { limit: 1 } } })).body.total_visible as number;
    }),
  );

  const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const find = (op: string) => {
    for (const [p, methods] of Object.entries(doc.paths)) for (const [m, o] of Object.entries(methods)) if (o.operationId === op) return { method: m.toUpperCase(), path: p.replace(/^\/api\/v1/, '') };
    return null;
  };
  const need = (op: string) => {
    const found = find(op);
    if (!found) throw new Error(`${op} is not in the OpenAPI document`);
    return found;
  };
  const mapOp = need('getMapPoints');
  const foldersOp = need('listFolders');

  const q = (body: unknown): Scenario['http'] => ({ method: 'POST', path: '/assets/query', body });
  const scenarios: Scenario[] = [
    { name: 'timeline, first page', http: q({}) },
    { name: 'timeline, page at 50% offset', http: q({ pagination: { limit: 50, offset: Math.floor(total / 2) } }) },
    { name: 'timeline, last page', http: q({ pagination: { limit: 50, offset: Math.max(0, total - 50) } }) },
    { name: 'date_captured, first page', http: q({ sort_by: 'date_captured' }) },
    { name: 'date_captured, 50% offset', http: q({ sort_by: 'date_captured', pagination: { limit: 50, offset: Math.floor(total / 2) } }) },
    { name: 'timeline, stacks expanded', http: q({ stack_mode: 'expanded' }) },
    { name: 'camera NIKON D750 (date_captured)', http: q({ sort_by: 'date_captured', filter: { camera_model: 'NIKON D750' } }) },
    { name: 'date range summer 2018 (Amsterdam)', http: q({ sort_by: 'date_captured', viewer_timezone: 'Europe/Amsterdam', filter: { date: { from: '2018-07-01', to: '2018-08-31' } } }) },
    { name: 'tag "beach"', http: q({ filter: { tag_name: 'beach' } }) },
    { name: 'tags "beach" + "sunset"', http: q({ filter: { tag_names: ['beach', 'sunset'] } }) },
    { name: 'liked', http: q({ filter: { liked: true } }) },
    { name: 'rating 4', http: q({ sort_by: 'date_captured', filter: { rating: 4 } }) },
    { name: 'videos', http: q({ filter: { type: 'VIDEO' } }) },
    { name: 'folder 2018 (recursive)', http: q({ sort_by: 'date_captured', filter: { repository_id: repo, folder_path: '2018' } }) },
    { name: 'location bbox (home city)', http: q({ filter: { location: { south: 52.3, north: 52.45, west: 4.75, east: 5.0 } } }) },
    { name: 'location bbox across antimeridian', http: q({ filter: { location: { south: -40, north: -10, west: 170, east: -175 } } }) },
    { name: 'album (largest)', http: q({ filter: { album_id: album } }) },
    { name: 'stacked only, collapsed', http: q({ filter: { stack: { membership: 'stacked' } } }) },
    { name: 'stacked only, expanded', http: q({ stack_mode: 'expanded', filter: { stack: { membership: 'stacked' } } }) },
    { name: 'RAW+JPEG pairs', http: q({ filter: { media_item: { composition: 'jpeg_raw' } } }) },
    { name: 'filename search "IMG_12"', http: q({ query: 'IMG_12' }) },
    { name: 'filename starts_with "DSC_00"', http: q({ filter: { filename: { operator: 'starts_with', value: 'DSC_00' } } }) },
    { name: 'listLikedAssets', http: { method: 'GET', path: '/assets/liked?limit=50' } },
    { name: 'listAssetsByRating 5', http: { method: 'GET', path: '/assets/rating/5?limit=50' } },
    { name: 'getMapPoints (viewport)', http: { method: mapOp.method as 'GET', path: `${mapOp.path}?south=52.3&north=52.45&west=4.75&east=5.0&limit=5000` } },
    { name: 'getMapPoints (world)', http: { method: mapOp.method as 'GET', path: `${mapOp.path}?limit=5000` } },
    { name: 'listFolders (root)', http: { method: foldersOp.method as 'GET', path: `${foldersOp.path}?repository_id=${repo}` } },
    { name: 'listFolders (2018)', http: { method: foldersOp.method as 'GET', path: `${foldersOp.path}?repository_id=${repo}&path=2018` } },
    // Not in the target (it names the list, the map and folder summaries), measured all the same.
    ...(
      [
        ['getStatsYears', ''],
        ['getCameraLensStats', '?limit=20'],
        ['getActivityHeatmap', '?year=2018'],
        ['getFocalLengthStats', ''],
        ['getTimeDistribution', '?type=hourly'],
      ] as const
    ).map(([op, query]): Scenario => ({ name: op, extra: true, http: { method: 'GET', path: `${need(op).path}${query}` } })),
  ];

  // Cold lists (the first request of a filter) and the answers right after a gap in the change journal.
  const slow: Situation[] = [...startedCold];
  if (!SKIP_GAP) {
    for (const s of scenarios.filter((x) => COLD.includes(x.name))) slow.push(await situation(`cold: ${s.name}`, () => call(s.http, false)));
    // Another connection writes more changes at once than the tracker applies one by one (a big
    // import by another process would): an even number of rating flips over the first rows, so
    // the catalog ends as it was and the journal holds every flip.
    // Written from a worker thread: this process's event loop (the server's) stays free meanwhile.
    const upTo = other.prepare('SELECT rowid FROM assets ORDER BY rowid LIMIT 1 OFFSET 29999').pluck().get() as number;
    const before = container.catalog.counters();
    const tFlood = performance.now();
    await writeFromWorker(catalog, ['UPDATE assets SET rating = 5 - rating WHERE rowid <= ?', upTo], 2);
    const written = (other.prepare('SELECT max(seq) FROM change_journal').pluck().get() as number) - (before.position ?? 0);
    console.log(`  gap: another connection wrote ${written} journal entries in ${((performance.now() - tFlood) / 1000).toFixed(1)} s`);
    for (const name of GAP_ORDER) {
      const s = scenarios.find((x) => x.name === name)!;
      slow.push(await situation(`after a gap: ${s.name}`, () => call(s.http, false)));
    }
    const after = container.catalog.counters();
    console.log(
      `  tracker after the gap: rebuilds +${after.rebuilds - before.rebuilds} (at once inside a request: +${after.blocking_rebuilds - before.blocking_rebuilds}), journal chunks applied a turn at a time +${after.chunks - before.chunks}`,
    );
  }
  reportSlow(slow);
  if (GAP_ONLY) {
    other.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    await container.close();
    return { timings: [], target: n >= 1e6 ? 100 : 20 };
  }

  const timings: Timing[] = [];
  for (const s of scenarios) {
    const t: Timing = { name: s.name, warm: [], like: [], added: [], other: [], loop: { warm: 0, like: 0, added: 0, other: 0 }, gc: { warm: 0, like: 0, added: 0, other: 0 }, extra: s.extra ?? false, info: '' };
    const loop = monitorEventLoopDelay({ resolution: 5 });
    // Garbage collection pauses seen while timing (the event loop waits for them too): the largest is reported beside the loop.
    let gcMax = 0;
    let timing = false;
    const gc = new PerformanceObserver((list) => {
      if (timing) for (const e of list.getEntries()) gcMax = Math.max(gcMax, e.duration);
    });
    gc.observe({ entryTypes: ['gc'] });
    /** One timed request, with the largest event-loop delay during it (the write before it excluded). */
    const timed = async (mode: keyof Timing['loop']): Promise<number> => {
      loop.reset();
      loop.enable();
      gcMax = 0;
      timing = true;
      const elapsed = await once();
      timing = false;
      loop.disable();
      t.loop[mode] = Math.max(t.loop[mode], loop.max / 1e6);
      t.gc[mode] = Math.max(t.gc[mode], gcMax);
      return elapsed;
    };
    const once = async (parse = false): Promise<number> => {
      const r = await call(s.http, parse);
      if (parse) t.info = r.body.total_visible !== undefined ? `${r.body.total_visible} rows` : r.body.total !== undefined ? `${r.body.total} total` : Array.isArray(r.body.folders) ? `${r.body.folders.length} folders` : '';
      return r.ms;
    };
    for (let i = 0; i < 3; i++) await once(true); // warm-up
    for (let i = 0; i < ROUNDS; i++) t.warm.push(await timed('warm'));
    for (let i = 0; i < Math.max(3, Math.ceil(ROUNDS / 4)); i++) {
      like.run(bobAsset);
      t.like.push(await timed('like'));
    }
    for (let i = 0; i < Math.max(3, Math.ceil(ROUNDS / 4)); i++) {
      change();
      t.added.push(await timed('added'));
    }
    for (let i = 0; i < Math.max(3, Math.ceil(ROUNDS / 4)); i++) {
      otherLike.run(likedByOther);
      t.other.push(await timed('other'));
    }
    gc.disconnect();
    timings.push(t);
  }
  other.prepare('UPDATE assets SET liked = 0 WHERE asset_id = ?').run(likedByOther);
  container.db.prepare("DELETE FROM assets WHERE storage_path LIKE 'bench-new/%'").run();
  container.db.prepare('UPDATE assets SET is_deleted = 0, deleted_at = NULL WHERE asset_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(trashable));
  other.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
  await container.close();
  return { timings, target: n >= 1e6 ? 100 : 20 };
}

function report(n: number, r: { timings: Timing[]; target: number }): void {
  console.log(`\n${label(n)} assets: p50 / p95 in ms; target p95 ≤ ${r.target} ms`);
  console.log('  warm:  the same request again (its list is cached; the page is read fresh)');
  console.log('  liked:   right after another member liked a photo');
  console.log('  changed: right after a new file arrived and a photo went to the Trash (lists and catalog shape brought up to date)');
  console.log("  other:   right after another connection's write (a like of one of her photos by a second SQLite connection)");
  console.log('  loop:    the largest event-loop delay during that situation\'s requests (ms; target ≤ 50)');
  const w = Math.max(...r.timings.map((t) => t.name.length)) + 2;
  const col = (xs: number[]) => `${ms(pct(xs, 50)).padStart(7)} ${ms(pct(xs, 95)).padStart(7)}`;
  console.log(
    `${'request'.padEnd(w)}${'result'.padStart(12)}  ${'warm'.padStart(15)}  ${'liked'.padStart(15)}  ${'changed'.padStart(15)}  ${'other conn.'.padStart(15)}  ${'loop max: w/l/c/o'.padStart(22)}  p95 within target`,
  );
  const modes = ['warm', 'like', 'added', 'other'] as const;
  const all = { warm: [] as number[], like: [] as number[], added: [] as number[], other: [] as number[] };
  const loopMax = { warm: 0, like: 0, added: 0, other: 0 };
  const loops = (l: Timing['loop']) => modes.map((m) => ms(l[m])).join('/').padStart(22);
  const line = (t: Timing) => {
    const within = modes.filter((k) => pct(t[k], 95) <= r.target).map((k) => (k === 'like' ? 'liked' : k === 'added' ? 'changed' : k));
    console.log(`${t.name.padEnd(w)}${t.info.padStart(12)}  ${modes.map((m) => col(t[m])).join('  ')}  ${loops(t.loop)}  ${within.join(', ') || 'none'}`);
  };
  for (const t of r.timings.filter((x) => !x.extra)) {
    for (const m of modes) {
      all[m].push(...t[m]);
      loopMax[m] = Math.max(loopMax[m], t.loop[m]);
    }
    line(t);
  }
  console.log(`${'overall'.padEnd(w)}${''.padStart(12)}  ${modes.map((m) => col(all[m])).join('  ')}  ${loops(loopMax)}`);
  // The figure: after another connection's write, the list, the map and the statistics.
  const afterOther = r.timings.filter((t) => t.name.startsWith('timeline') || t.name.startsWith('date_captured') || t.name.startsWith('getMapPoints') || t.name.startsWith('getStats') || t.extra);
  const otherTimes = afterOther.flatMap((t) => t.other);
  const otherLoop = Math.max(...afterOther.map((t) => t.loop.other));
  const otherGc = Math.max(...afterOther.map((t) => t.gc.other));
  console.log(
    `after another connection's write (queryAssets, map, statistics): p95 ${ms(pct(otherTimes, 95))} ms (target ≤ ${r.target}), ` +
      `event loop blocked at most ${ms(otherLoop)} ms (target ≤ 50; longest garbage collection pause meanwhile ${ms(otherGc)} ms)`,
  );
  const gcAll = Math.max(...r.timings.flatMap((t) => modes.map((m) => t.gc[m])));
  console.log(`longest garbage collection pause in any situation: ${ms(gcAll)} ms`);
  const extra = r.timings.filter((x) => x.extra);
  if (extra.length) {
    console.log('also measured (statistics; not part of the target):');
    extra.forEach(line);
  }
}

// ------------------------------------------------------------------ main

console.log(`bench:query on ${process.platform}/${process.arch}, Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const results: [number, { timings: Timing[]; target: number }][] = [];
for (const n of SIZES) {
  const dir = path.join(CACHE, `${label(n)}-g${GENERATOR_VERSION}`);
  const builtFile = path.join(dir, 'built.json');
  const now = migrationHashes();
  const built = fs.existsSync(builtFile) ? (JSON.parse(fs.readFileSync(builtFile, 'utf8')) as { migrations?: Record<string, string> }) : null;
  const stale = !built || Object.entries(built.migrations ?? {}).some(([v, h]) => now[v] !== h);
  if (REBUILD || stale) {
    for (const old of fs.existsSync(CACHE) ? fs.readdirSync(CACHE) : []) if (old.startsWith(`${label(n)}-`)) fs.rmSync(path.join(CACHE, old), { recursive: true, force: true });
    await buildCatalog(n, dir);
  } else console.log(`${label(n)} catalog: cached in ${path.relative(ROOT, dir)}`);
  if (process.argv.includes('--build-only')) continue;
  const r = await runBench(n, dir);
  results.push([n, r]);
  report(n, r);
}
