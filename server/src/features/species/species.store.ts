/**
 * The species reference cache (table `species_references`, migration 0025): one row per normalised question
 * (names and locale), holding the card as served, or NULL for "no such species".
 */
import type { Db } from '../../platform/db/connection.ts';
import type { StoredCard } from './species.card.ts';

/** Rows kept at most; the least recently fetched go first. A card is about 2 KiB: a few MiB in all. */
export const MAX_CACHED_QUESTIONS = 5000;

export interface CachedAnswer {
  /** null: iNaturalist knew no such species. */
  card: StoredCard | null;
  fetchedAt: number;
}

export class SpeciesStore {
  constructor(private readonly db: Db) {}

  get(key: string): CachedAnswer | undefined {
    const row = this.db.prepare('SELECT card, fetched_at FROM species_references WHERE query_key = ?').get(key) as
      | { card: string | null; fetched_at: number }
      | undefined;
    if (!row) return undefined;
    if (row.card === null) return { card: null, fetchedAt: row.fetched_at };
    try {
      return { card: JSON.parse(row.card) as StoredCard, fetchedAt: row.fetched_at };
    } catch {
      // A row that no longer parses is as good as none: the next answer replaces it.
      return undefined;
    }
  }

  put(key: string, locale: string, card: StoredCard | null, fetchedAt: number): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO species_references (query_key, locale, card, fetched_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (query_key) DO UPDATE SET locale = excluded.locale, card = excluded.card, fetched_at = excluded.fetched_at`,
        )
        .run(key, locale, card === null ? null : JSON.stringify(card), fetchedAt);
      this.db
        .prepare(
          `DELETE FROM species_references WHERE query_key IN
             (SELECT query_key FROM species_references ORDER BY fetched_at DESC LIMIT -1 OFFSET ?)`,
        )
        .run(MAX_CACHED_QUESTIONS);
    })();
  }
}
