/**
 * Google Photos' JSON sidecar (`IMG_1.jpg.json`, `….supplemental-metadata.json`) read into the facts a provider
 * reports. Takeout's real format: `photoTakenTime.timestamp` is epoch seconds as a string; `geoData` is where the
 * person placed the photo (edited in Google Photos) and `geoDataExif` what the camera wrote; 0,0 means "none".
 *
 * A value that cannot be true is dropped with a reason, never guessed: a wrong date would sort the photo among
 * the wrong year for good.
 */
import type { RemoteFacts } from '../provider.ts';

export interface SidecarFacts {
  facts: RemoteFacts;
  /** The `title` field: the file's name as the person last saw it in Google Photos. */
  title: string | null;
  /** What was dropped and why (impossible date, malformed place). */
  dropped: string[];
}

/** Photos earlier than this cannot exist (the first surviving photograph is from 1826-27). */
const EARLIEST_CAPTURE_MS = Date.UTC(1826, 0, 1);
const DAY_MS = 24 * 60 * 60 * 1000;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/** A place from `{latitude, longitude}`; undefined for absent, 0,0 (Takeout's "none") or out of range. */
export function placeOf(v: unknown): { latitude: number; longitude: number } | undefined {
  if (!isObject(v)) return undefined;
  const latitude = Number(v['latitude']);
  const longitude = Number(v['longitude']);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined;
  if (latitude === 0 && longitude === 0) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return { latitude, longitude };
}

/** Epoch ms of a Takeout `{timestamp: "…"}`; a reason when it is there but impossible. */
function timeOf(v: unknown, now: number): { ms: number } | { reason: string } | null {
  if (!isObject(v) || v['timestamp'] === undefined || v['timestamp'] === null) return null;
  const raw = v['timestamp'];
  const seconds = typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : typeof raw === 'number' ? raw : NaN;
  const ms = seconds * 1000;
  if (!Number.isFinite(ms)) return { reason: `photoTakenTime ${JSON.stringify(raw)} is not a time` };
  if (ms <= EARLIEST_CAPTURE_MS) return { reason: `photoTakenTime ${new Date(ms).toISOString()} is before photography existed` };
  if (ms > now + DAY_MS) return { reason: `photoTakenTime ${new Date(ms).toISOString()} is in the future` };
  return { ms };
}

/** Parses sidecar JSON text. Throws a SyntaxError-like Error when it is not a JSON object. */
export function parseSidecar(json: string, now = Date.now()): SidecarFacts {
  const doc: unknown = JSON.parse(json);
  if (!isObject(doc)) throw new Error('sidecar is not a JSON object');
  const facts: RemoteFacts = {};
  const dropped: string[] = [];

  const taken = timeOf(doc['photoTakenTime'], now);
  if (taken && 'ms' in taken) facts.capturedAt = { time: taken.ms, offsetMinutes: null };
  else if (taken) dropped.push(taken.reason);

  const gps = placeOf(doc['geoData']) ?? placeOf(doc['geoDataExif']);
  if (gps) facts.gps = gps;

  const description = text(doc['description']);
  if (description !== null) facts.description = description.trim();
  if (typeof doc['favorited'] === 'boolean') facts.favorite = doc['favorited'];
  if (typeof doc['archived'] === 'boolean') facts.archived = doc['archived'];
  if (typeof doc['trashed'] === 'boolean') facts.trashed = doc['trashed'];

  if (Array.isArray(doc['people'])) {
    const names = doc['people'].map((p) => (isObject(p) ? text(p['name'])?.trim() : null)).filter((n): n is string => !!n);
    if (names.length) facts.people = [...new Set(names)];
  }
  return { facts, title: text(doc['title']), dropped };
}
