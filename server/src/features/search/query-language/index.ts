/**
 * Plain-language queries (issue 13 point 5): parseQuery and the English grammar.
 *
 * Wired into searchAssets by ../understand-query.ts:
 * - A QueryParser per request from the caller's catalog (the values getFilterOptions lists:
 *   `camera_makes`, `cameras` as cameraModels `{ value: model, say: [name] }`, `lenses`), now, and
 *   `viewer_timezone` (UTC when absent).
 * - With `enhancement_mode` `auto` (the default) the query is parsed, the parsed filter combined
 *   with the request's `filter` (the request's own fields win where both set one), `rest` sent to the
 *   channels (no channel runs on an empty rest: the filter alone is the answer), and `parsed` echoed
 *   with a chip per part; `off`: no parsing, the whole query to the channels; `only`: the filter alone.
 * - A chip is removed by sending its id in `ignore_parsed` (`QueryParser.parseIgnoring`): its words
 *   then stay in the rest.
 */
export { parseQuery, QueryParser, type ParsedPart, type ParsedQuery, type QueryContext } from './parse-query.ts';
export { en } from './grammar.en.ts';
export type { Grammar, Holiday, HolidayRule, Season, Unit } from './grammar.ts';
export type { CatalogName, PlaceBox, PlaceName } from './lexicon.ts';
export type { PartKind } from './rules.ts';
