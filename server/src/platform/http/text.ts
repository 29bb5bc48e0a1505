/**
 * Text that people type: names, titles, descriptions, user names, display names, tags, repository
 * names. Every request schema that takes such text passes it through `singleLine` or `multiLine`, so
 * a control character is a 422 naming the field (code `control_characters`) before anything reaches
 * a service or the database (a check constraint is never the first line of validation).
 *
 * Decisions:
 * - Single-line text (names, titles, tags, user names): no C0/C1 control characters at all (NUL,
 *   tab, newline, escape, DEL, U+0080..U+009F) and no Unicode line or paragraph separators
 *   (U+2028/U+2029): a name shows on one line in every list.
 * - Multi-line text (descriptions, captions): tab, line feed and carriage return are allowed (a
 *   caption may have paragraphs); every other control character is refused.
 * - Bidirectional formatting characters (U+200E/U+200F, U+202A..U+202E, U+2066..U+2069) are kept in
 *   typed text: right-to-left writers need them, and a member's own album name cannot mislead
 *   anyone else. File names are another matter: see `neutralizeBidi` in display-names.ts.
 * - Lone UTF-16 surrogates (possible in JSON as "\ud800") are refused: they are not text and SQLite
 *   would store a replacement character instead.
 */
import { z } from '@hono/zod-openapi';

/** Stable code of the field error a control character gives. */
export const CONTROL_CHARACTERS_CODE = 'control_characters';

// eslint-disable-next-line no-control-regex -- finding control characters is the point: text with them is refused
export const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point: text with them is refused
export const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `s` may be stored as a single-line name. */
export function isSingleLineText(s: string): boolean {
  return !SINGLE_LINE_FORBIDDEN.test(s) && !LONE_SURROGATE.test(s);
}

/** True when `s` may be stored as a multi-line description. */
export function isMultiLineText(s: string): boolean {
  return !MULTI_LINE_FORBIDDEN.test(s) && !LONE_SURROGATE.test(s);
}

const refusal = (message: string) => ({ message, params: { code: CONTROL_CHARACTERS_CODE } });

/**
 * The document states the rule as a `pattern` (control characters only; lone surrogates cannot be
 * written portably in a JSON Schema pattern).
 *
 * `schema` (a string schema, usually already trimmed and bounded) that also refuses control
 * characters. The check runs after the schema's own (after `trim()`), so surrounding white space is
 * trimmed rather than refused.
 */
export function singleLine<S extends z.ZodString>(schema: S): S {
  const checked = schema.refine(isSingleLineText, refusal('must not contain control characters or line breaks'));
  return documented(checked, SINGLE_LINE_FORBIDDEN);
}

/** Like `singleLine`, but tab and line breaks are allowed (descriptions, captions). */
export function multiLine<S extends z.ZodString>(schema: S): S {
  const checked = schema.refine(isMultiLineText, refusal('must not contain control characters (tab and line breaks are allowed)'));
  return documented(checked, MULTI_LINE_FORBIDDEN);
}

/** States the rule as the schema's `pattern`, unless it has a (stricter) pattern of its own already. */
function documented<S extends z.ZodString>(schema: S, forbidden: RegExp): S {
  const checks = (schema._zod.def.checks ?? []) as { _zod: { def: { format?: string } } }[];
  if (checks.some((c) => c._zod.def.format === 'regex')) return schema;
  return schema.openapi({ pattern: `^[^${forbidden.source.slice(1, -1)}]*$` }) as S;
}
