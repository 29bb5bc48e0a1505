/**
 * Plain-language queries (issue 13 point 5): parseQuery and the English grammar.
 *
 * Not wired to an endpoint yet. How searchAssets should use it:
 * - Build a QueryParser per request from the caller's catalog (the values getFilterOptions lists:
 *   `camera_makes` as cameraMakes with their brand as `say`, `cameras` as cameraModels
 *   `{ value: model, say: [name] }`, `lenses`), `now`, and `viewer_timezone` (UTC when absent).
 * - With `enhancement_mode` `auto` (the default) parse `query`, combine the parsed filter with the
 *   request's `filter` (the request's own fields win where both set one), send `rest` to the
 *   channels (no channel runs on an empty rest: the filter alone is the answer), and echo
 *   `parsed` in the answer for the chips; `off`: no parsing, the whole query to the channels.
 * - A chip is removed by sending the query without the chip's [start, end) text.
 */
export { parseQuery, QueryParser, type ParsedPart, type ParsedQuery, type QueryContext } from './parse-query.ts';
export { en } from './grammar.en.ts';
export type { Grammar, Holiday, HolidayRule, Season, Unit } from './grammar.ts';
export type { CatalogName } from './lexicon.ts';
export type { PartKind } from './rules.ts';
