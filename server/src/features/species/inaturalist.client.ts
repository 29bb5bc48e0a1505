/**
 * The iNaturalist API v1, as the species reference card needs it: the taxa search (`/taxa?q=…&locale=…`)
 * and, when the chosen search result carries no Wikipedia summary, that taxon (`/taxa/<id>?locale=…`).
 *
 * Every request has one deadline (`timeoutMs`, HEARTH_SPECIES_TIMEOUT_MS) covering the connection, the answer
 * and its body, through an AbortSignal: a service that accepts the connection and never answers, or stops
 * half-way through the body, costs the caller that long and no longer. Bodies are read up to 2 MiB (a taxa page
 * is a few tens of KiB): a larger answer is not what iNaturalist sends.
 *
 * Failures are `UpstreamError`s of two kinds, which the service turns into problem documents:
 * - `offline`: the service could not be reached (refused, no route, no DNS, reset) or did not answer in time;
 * - `unavailable`: it answered, but not with a taxa page (HTTP status other than 2xx, not JSON, wrong shape).
 */
import { z } from '@hono/zod-openapi';

/** iNaturalist asks API users to say who they are (https://www.inaturalist.org/pages/api+recommended+practices). */
export const USER_AGENT = 'Hearth/1.0 (self-hosted family photo library; species reference cards)';
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Results read per search: the exact name is near the top when iNaturalist knows it. */
const PER_PAGE = 10;

export type UpstreamFailure = 'offline' | 'unavailable';

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

// Lenient per field: a field of an unexpected type is dropped rather than failing the whole card.
const optionalText = z.string().nullish().catch(undefined);
const PhotoSchema = z.object({
  url: optionalText,
  medium_url: optionalText,
  square_url: optionalText,
  attribution: optionalText,
  license_code: optionalText,
});
export const TaxonSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  rank: optionalText,
  preferred_common_name: optionalText,
  matched_term: optionalText,
  // undefined (absent) and null differ: absent means "ask the taxon itself", null means "it has none".
  wikipedia_summary: optionalText,
  wikipedia_url: optionalText,
  default_photo: PhotoSchema.nullish().catch(undefined),
  is_active: z.boolean().nullish().catch(undefined),
  iconic_taxon_name: optionalText,
});
export type Taxon = z.infer<typeof TaxonSchema>;
export type TaxonPhoto = z.infer<typeof PhotoSchema>;

const PageSchema = z.object({ results: z.array(z.unknown()) });

export interface INaturalistOptions {
  /** API root without a trailing slash, e.g. https://api.inaturalist.org/v1. */
  baseUrl: string;
  timeoutMs: number;
}

export class INaturalistClient {
  constructor(private readonly opts: INaturalistOptions) {}

  /** The taxa whose names match `q`, in iNaturalist's order; malformed entries are left out. */
  async searchTaxa(q: string, locale: string): Promise<Taxon[]> {
    const params = new URLSearchParams({ q, locale, per_page: String(PER_PAGE) });
    return this.taxa(`/taxa?${params}`);
  }

  /** One taxon by id (its Wikipedia summary is there when the search left it out); null when unknown. */
  async taxon(id: number, locale: string): Promise<Taxon | null> {
    const found = await this.taxa(`/taxa/${id}?${new URLSearchParams({ locale })}`);
    return found.find((t) => t.id === id) ?? null;
  }

  private async taxa(pathAndQuery: string): Promise<Taxon[]> {
    const page = PageSchema.safeParse(await this.getJson(pathAndQuery));
    if (!page.success) throw new UpstreamError('unavailable', 'iNaturalist answered JSON that is not a page of taxa (no `results` list).');
    return page.data.results.flatMap((r) => {
      const t = TaxonSchema.safeParse(r);
      return t.success ? [t.data] : [];
    });
  }

  private async getJson(pathAndQuery: string): Promise<unknown> {
    const url = `${this.opts.baseUrl}${pathAndQuery}`;
    const signal = AbortSignal.timeout(this.opts.timeoutMs);
    let res: Response;
    try {
      res = await fetch(url, { headers: { accept: 'application/json', 'user-agent': USER_AGENT }, signal, redirect: 'follow' });
    } catch (e) {
      throw this.offline(e);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new UpstreamError('unavailable', `iNaturalist answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`);
    }
    let text: string;
    try {
      text = await readCapped(res, MAX_BODY_BYTES);
    } catch (e) {
      if (e instanceof UpstreamError) throw e;
      throw this.offline(e);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new UpstreamError('unavailable', 'iNaturalist answered something that is not JSON.');
    }
  }

  /** Why the service could not be reached, in words a person can act on. */
  private offline(e: unknown): UpstreamError {
    const host = safeHost(this.opts.baseUrl);
    const err = e as { name?: string; cause?: { code?: string; name?: string } };
    if (err?.name === 'TimeoutError' || err?.cause?.name === 'TimeoutError' || err?.name === 'AbortError') {
      return new UpstreamError('offline', `${host} did not answer within ${formatSeconds(this.opts.timeoutMs)}.`);
    }
    const code = err?.cause?.code;
    const why =
      code === 'ECONNREFUSED'
        ? 'the connection was refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'the name could not be looked up (no DNS)'
          : code === 'ENETUNREACH' || code === 'EHOSTUNREACH'
            ? 'there is no route to it'
            : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
              ? 'the connection was cut'
              : 'the request failed';
    return new UpstreamError('offline', `Could not reach ${host}: ${why}${code ? ` (${code})` : ''}.`);
  }
}

function safeHost(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'the species reference service';
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** The body as text, refusing (unavailable) one larger than `cap` bytes without reading the rest. */
async function readCapped(res: Response, cap: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw new UpstreamError('unavailable', `iNaturalist answered more than ${cap / 1024 / 1024} MiB; a page of taxa is far smaller.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
