/**
 * Species reference cards (getSpeciesReference): names, a Wikipedia summary and a reference image with its
 * attribution, from iNaturalist, kept in the catalog so that a card seen once opens without the network.
 *
 * Decisions where the contract is silent:
 * - Who: any signed-in member. The card is public reference text, not library data, so the cache is shared
 *   by the household: one member's lookup saves the next one's.
 * - The question: `scientific_name` is searched first; `common_name` when there is no scientific name or it
 *   matched nothing. Names are trimmed, 1..200 characters, one line; at least one is needed (422 naming
 *   `query.scientific_name`). `locale` is a language tag (`en`, `de`, `pt-BR`, `zh_CN`), default `en`, written
 *   back as `language[-REGION]`; iNaturalist answers common names and summaries in it where it has them.
 * - Fresh for 30 days: a card fetched within that answers from the catalog alone (`cached: true`); an older
 *   one is fetched again, and when that fails (offline, iNaturalist down) the old card is still answered,
 *   `cached: true` with its `fetched_at`, rather than nothing. Species descriptions change slowly; a month
 *   keeps iNaturalist's load negligible and a renamed taxon shows within one. When iNaturalist, asked again,
 *   no longer matches the names, the old card goes and the answer is "no such species".
 * - "No such species" is remembered for 1 day (404 `species_not_found`): long enough that a photo's labels
 *   opened again and again cost no request, short enough that a name iNaturalist adds, or a network hiccup
 *   mistaken for nothing, heals the next day. An old "no such species" is not answered when iNaturalist
 *   cannot be asked: the offline problem says more than a guess.
 * - Nothing cached and iNaturalist cannot be reached or does not answer in time: 503
 *   `species_reference_offline`, the cause in `detail`; it answers but not with taxa (5xx, not JSON): 502
 *   `species_reference_unavailable`. Both `retryable`. Neither is remembered.
 * - The same question asked again while its lookup runs waits for that lookup (one request to iNaturalist).
 * - The card is served whether or not the ML species task is on: looking a name up is not running a model.
 */
import { DomainError, Invalid, NotFound } from '../../platform/http/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { INaturalistClient, UpstreamError, type Taxon } from './inaturalist.client.ts';
import { bestMatch, normaliseName, toCard, type MatchedBy, type StoredCard } from './species.card.ts';
import type { SpeciesStore } from './species.store.ts';

export const FRESH_MS = 30 * 24 * 3600_000;
export const MISS_MS = 24 * 3600_000;

export interface SpeciesQuery {
  scientific_name?: string | undefined;
  common_name?: string | undefined;
  locale?: string | undefined;
}

export type SpeciesCard = StoredCard & { cached: boolean };

/** A fresh answer from iNaturalist: a card, or null for "no such species". */
type Lookup = StoredCard | null;

export class SpeciesService {
  private readonly inFlight = new Map<string, Promise<Lookup>>();

  constructor(
    private readonly store: SpeciesStore,
    private readonly client: INaturalistClient,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  async reference(q: SpeciesQuery): Promise<SpeciesCard> {
    const scientific = q.scientific_name?.trim() || null;
    const common = q.common_name?.trim() || null;
    if (!scientific && !common) {
      throw new Invalid('Give a scientific_name (for example "Turdus merula") or a common_name (for example "Blackbird").', [
        { field: 'query.scientific_name', message: 'give scientific_name or common_name', code: 'required' },
        { field: 'query.common_name', message: 'give scientific_name or common_name', code: 'required' },
      ]);
    }
    const locale = normaliseLocale(q.locale ?? 'en');
    const key = JSON.stringify([scientific ? normaliseName(scientific) : '', common ? normaliseName(common) : '', locale]);

    const cached = this.store.get(key);
    const age = cached ? this.now() - cached.fetchedAt : Infinity;
    if (cached?.card && age < FRESH_MS) return { ...cached.card, cached: true };
    if (cached && !cached.card && age < MISS_MS) throw notFound(scientific, common);

    let fresh: Lookup;
    try {
      fresh = await this.once(key, () => this.lookUp(scientific, common, locale, key));
    } catch (e) {
      if (!(e instanceof UpstreamError)) throw e;
      if (cached?.card) {
        this.log.info({ reason: e.message }, 'species reference: iNaturalist unreachable, the cached card is served');
        return { ...cached.card, cached: true };
      }
      throw e.kind === 'offline'
        ? new DomainError(503, 'species_reference_offline', `The species reference needs the internet; this machine could not reach iNaturalist. ${e.message}`, { retryable: true })
        : new DomainError(502, 'species_reference_unavailable', `iNaturalist did not give a usable answer; try again later. ${e.message}`, { retryable: true });
    }
    if (!fresh) throw notFound(scientific, common);
    return { ...fresh, cached: false };
  }

  private once(key: string, run: () => Promise<Lookup>): Promise<Lookup> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const p = run().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  /** Asks iNaturalist and remembers the answer (a card or "none"); an UpstreamError remembers nothing. */
  private async lookUp(scientific: string | null, common: string | null, locale: string, key: string): Promise<Lookup> {
    let match: { taxon: Taxon; by: MatchedBy } | null = null;
    for (const [name, by] of [
      [scientific, 'scientific_name'],
      [common, 'common_name'],
    ] as const) {
      if (!name) continue;
      const taxon = bestMatch(await this.client.searchTaxa(name, locale), name, by);
      if (taxon) {
        match = { taxon, by };
        break;
      }
    }
    let card: Lookup = null;
    if (match) {
      let taxon = match.taxon;
      // The search may leave the summary out (`undefined`, not null): the taxon itself has it.
      if (taxon.wikipedia_summary === undefined) {
        const full = await this.client.taxon(taxon.id, locale);
        if (full) taxon = { ...full, ...definedOnly(taxon), wikipedia_summary: full.wikipedia_summary ?? null };
      }
      card = toCard(taxon, match.by, locale, new Date(this.now()));
    }
    this.store.put(key, locale, card, this.now());
    return card;
  }
}

/** The fields of `t` that are set, so that merging it over the full taxon keeps the full taxon's others. */
function definedOnly(t: Taxon): Partial<Taxon> {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined && v !== null)) as Partial<Taxon>;
}

function notFound(scientific: string | null, common: string | null): NotFound {
  const asked = [scientific, common].filter(Boolean).map((n) => `“${n}”`).join(' or ');
  return new NotFound(`iNaturalist knows no species called ${asked}.`, 'species_not_found');
}

/** `pt_br` → `pt-BR`, `ZH-hant` → `zh-Hant`: the form iNaturalist's `locale` parameter expects. */
export function normaliseLocale(raw: string): string {
  const [lang, ...rest] = raw.trim().replace(/_/g, '-').split('-');
  return [
    lang!.toLowerCase(),
    ...rest.map((part) => (part.length === 2 ? part.toUpperCase() : part.length === 4 ? part[0]!.toUpperCase() + part.slice(1).toLowerCase() : part.toLowerCase())),
  ].join('-');
}
