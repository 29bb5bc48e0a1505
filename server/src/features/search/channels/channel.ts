/**
 * What every search channel answers: the assets it found among the allowed ones, best first, each
 * with its raw score (shown in `debug`) and the short phrase that says why (shown on the result).
 */
export type SourceType = 'embedding' | 'place' | 'ocr' | 'filename' | 'text';

/**
 * Channel weights in the fusion (reference: embedding 1.0, ocr 0.7, filename 0.6). The words a person
 * wrote (description, tags, album names) weigh 0.8: a person's own words are strong evidence. The
 * place names of the photos' positions (`place`, channels/place.ts) weigh 0.8 as in the reference.
 */
export const CHANNEL_WEIGHTS: Record<SourceType, number> = { embedding: 1.0, place: 0.8, text: 0.8, ocr: 0.7, filename: 0.6 };

/** The most assets one channel lists (the reference caps each at 10,000). */
export const CHANNEL_CAP = 10_000;

export interface ChannelHit {
  /** assets.rowid */
  rowid: number;
  rawScore: number;
  /** Short phrases ("filename", "tag 'beach'"). */
  why?: string | string[] | undefined;
  frameTsMs?: number | null | undefined;
  /**
   * A strong match, one that may be a "best result": every query term found as a word (words.ts), a
   * place named by the whole query, a likeness at the strict cosine floor. A weak one is a result only.
   */
  strong?: boolean | undefined;
}

export interface ChannelResult {
  type: SourceType;
  weight: number;
  hits: ChannelHit[];
  durationMs: number;
  /** Why the channel could not answer (its hits are then empty). */
  error: string | null;
}

/** Runs one channel, timing it; a channel that throws answers nothing and says why (the others still answer). */
export async function runChannel(type: SourceType, run: () => ChannelHit[] | Promise<ChannelHit[]>): Promise<ChannelResult> {
  const t0 = performance.now();
  try {
    const hits = await run();
    return { type, weight: CHANNEL_WEIGHTS[type], hits: hits.slice(0, CHANNEL_CAP), durationMs: ms(t0), error: null };
  } catch (e) {
    return { type, weight: CHANNEL_WEIGHTS[type], hits: [], durationMs: ms(t0), error: e instanceof Error ? e.message : String(e) };
  }
}

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

/** Whether the asset at `rowid` may be returned (the allowed bitmap: ownership and every filter). */
export const isAllowed = (allowed: Uint8Array, rowid: number) => rowid < allowed.length && allowed[rowid] === 1;

/** Query words, NFKC and lower case, at most 16 of at most 100 characters (a pasted paragraph is not a query). */
export function queryWords(text: string): string[] {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[\s,;]+/u)
    .map((w) => w.replace(/^[\p{P}]+|[\p{P}]+$/gu, ''))
    .filter(Boolean)
    .map((w) => [...w].slice(0, 100).join(''));
  return [...new Set(words)].slice(0, 16);
}

/** A LIKE pattern that finds `s` anywhere (escape character `\`). */
export const containsLike = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Shortest word the trigram indexes (ocr_lines_fts, assets_words_fts) can find; shorter ones are read with LIKE. */
export const TRIGRAM = 3;

/** An FTS5 query matching any of `words` (each a quoted string: found anywhere by the trigrams) in `column`. */
export const matchAny = (column: string, words: readonly string[]) => `${column} : (${words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ')})`;

/** A phrase quoting a piece of text, cut to a readable length. */
export function quoted(s: string, max = 40): string {
  const trimmed = s.trim();
  // No more UTF-16 units than `max`, so no more characters: quoted whole (every OCR hit is quoted; most lines are short).
  if (trimmed.length <= max) return `'${trimmed}'`;
  const chars = [...trimmed];
  return `'${chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('')}'`;
}
