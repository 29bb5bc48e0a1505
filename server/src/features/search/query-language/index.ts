/**
 * Plain-language queries (issue 13 point 5): parseQuery and the English grammar. Not wired to an
 * endpoint yet: searchAssets will parse its `query` with the caller's catalog names and time zone,
 * merge `filter` into the request's filter and send `rest` to the search channels.
 */
export { parseQuery, QueryParser, type ParsedPart, type ParsedQuery, type QueryContext } from './parse-query.ts';
export { en } from './grammar.en.ts';
export type { Grammar, Holiday, HolidayRule, Season, Unit } from './grammar.ts';
export type { CatalogName } from './lexicon.ts';
export type { PartKind } from './rules.ts';
