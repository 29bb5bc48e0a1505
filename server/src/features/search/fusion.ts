/**
 * Weighted reciprocal-rank fusion of the search channels (the reference's hybrid ranking):
 * score(asset) = Σ over the channels that found it of weight / (k + rank), k = 60, one best rank per
 * channel. Ties: the better best rank, then the smaller rowid (stable and independent of the order the
 * channels answered in). Each channel is "self-thresholded set membership": it only lists what passed
 * its own floor, so an asset one channel alone found is as much a result as one all found.
 */
import type { ChannelResult, SourceType } from './channels/channel.ts';

export const RRF_K = 60;

export interface Contribution {
  rank: number;
  raw_score: number;
  rrf_score: number;
  weight: number;
}

export interface FusedHit {
  rowid: number;
  score: number;
  bestRank: number;
  contributions: Partial<Record<SourceType, Contribution>>;
  /** Per channel, the words that say why it found the asset. */
  why: string[];
  /** The best video frame the embedding channel matched, else null. */
  frameTsMs: number | null;
  /** Some channel found it as a strong match (channel.ts `strong`): it may be a "best result". */
  strong: boolean;
}

/** Every asset any channel found, best first (the caller cuts the candidate pool). */
export function fuse(results: readonly ChannelResult[]): FusedHit[] {
  const byRow = new Map<number, FusedHit>();
  for (const r of results) {
    r.hits.forEach((h, i) => {
      const rank = i + 1;
      let f = byRow.get(h.rowid);
      if (!f) byRow.set(h.rowid, (f = { rowid: h.rowid, score: 0, bestRank: rank, contributions: {}, why: [], frameTsMs: null, strong: false }));
      // One best rank per channel: a channel lists an asset once, but never count it twice.
      if (f.contributions[r.type]) return;
      const rrf = r.weight / (RRF_K + rank);
      f.contributions[r.type] = { rank, raw_score: round(h.rawScore), rrf_score: round(rrf), weight: r.weight };
      f.score += rrf;
      f.bestRank = Math.min(f.bestRank, rank);
      if (h.strong) f.strong = true;
      if (h.why) {
        if (typeof h.why === 'string') f.why.push(h.why);
        else f.why.push(...h.why);
      }
      if (h.frameTsMs !== undefined && h.frameTsMs !== null && h.frameTsMs >= 0) f.frameTsMs = h.frameTsMs;
    });
  }
  return [...byRow.values()].sort((a, b) => b.score - a.score || a.bestRank - b.bestRank || a.rowid - b.rowid);
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
