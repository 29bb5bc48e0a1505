/**
 * The paging parameters every list operation takes, in one place so the lists page alike: `limit`
 * (items per page) with `offset` (items to skip), or `limit` with an opaque `cursor`.
 *
 * Each list keeps its own bounds and default (a map page holds more points than an album list holds
 * albums), given here as numbers, and the documentation text is written from them, so the OpenAPI
 * document always states the bounds the schema enforces.
 *
 * A default is either filled in by the schema (`pageParams`: the handler sees a number) or, with the
 * `optional…` helpers, applied by the service (the parameter stays optional): the lists whose services are also
 * called without HTTP (the browse lists) keep their default in one place, the service.
 */
import { z } from '@hono/zod-openapi';

/** Where the parameter travels: query strings carry text (coerced), JSON bodies carry numbers. */
type Carrier = 'query' | 'body';

interface Described {
  /** What is counted, for the documentation ("Albums per page"). */
  noun?: string;
  in?: Carrier;
}

/** `default`: filled in by the schema when absent. `serviceDefault`: the service applies it; the schema leaves it optional. */
export type LimitOptions = Described & { max: number } & ({ default: number } | { serviceDefault: number });

/** `max`: the largest offset accepted (none when the list has no practical end). `serviceDefault`: the service applies 0. */
export type OffsetOptions = Described & { max?: number; serviceDefault?: boolean };

function integer(carrier: Carrier = 'query') {
  return carrier === 'query' ? z.coerce.number().int() : z.number().int();
}

function limitDescription(o: LimitOptions): string {
  const fallback = 'default' in o ? o.default : o.serviceDefault;
  return `${o.noun ?? 'Items'} per page, 1..${o.max}. Default ${fallback}.`;
}

/** `limit`: how many items one page holds, 1..max, filled in with its default. */
export function limitParam(o: LimitOptions & { default: number }) {
  return integer(o.in).min(1).max(o.max).default(o.default).openapi({ description: limitDescription(o) });
}

/** `limit`, left optional: the service applies its default. */
export function optionalLimitParam(o: LimitOptions & { serviceDefault: number }) {
  return integer(o.in).min(1).max(o.max).optional().openapi({ description: limitDescription(o) });
}

function offsetBase(o: OffsetOptions) {
  const from = integer(o.in).min(0);
  return o.max === undefined ? from : from.max(o.max);
}

/** `offset`: how many items to skip before the page starts, filled in with 0. */
export function offsetParam(o: OffsetOptions = {}) {
  return offsetBase(o).default(0).openapi({ description: `${o.noun ?? 'Items'} to skip. Default 0.` });
}

/** `offset`, left optional: the service starts at 0. */
export function optionalOffsetParam(o: OffsetOptions = {}) {
  return offsetBase(o).optional().openapi({ description: `${o.noun ?? 'Items'} to skip. Default 0.` });
}

/** `cursor`: the `next_cursor` of the previous page; absent for the first page. */
export function cursorParam() {
  return z.string().min(1).max(200).optional().openapi({ description: '`next_cursor` of the previous page' });
}

/** `limit` and `offset` filled in with their defaults, to spread into a request's query object. */
export function pageParams(limit: LimitOptions & { default: number }, offset: OffsetOptions = {}) {
  return { limit: limitParam(limit), offset: offsetParam({ noun: limit.noun, in: limit.in, ...offset }) };
}

/** `limit` and `offset` left optional (the service applies the defaults), for a query or a JSON body. */
export function optionalPageParams(limit: LimitOptions & { serviceDefault: number }, offset: OffsetOptions = {}) {
  return { limit: optionalLimitParam(limit), offset: optionalOffsetParam({ noun: limit.noun, in: limit.in, ...offset }) };
}
