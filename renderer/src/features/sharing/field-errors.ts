/**
 * Where a server refusal belongs in a sharing form: the field it names (`body.user_id` →
 * `user_id`), else the form as a whole. Errors such as "that is you" (`share_with_self`) or "the
 * expiry is in the past" (`expiry_in_past`) thus show under the field that caused them.
 */
import { ApiError, messageOf } from '../../api/problem';

export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const own = error.fieldErrors[field] ?? Object.entries(error.fieldErrors).find(([k]) => k.startsWith(`${field}.`))?.[1];
  // The field-level words are fragments ("is in the past"); the problem's detail says it whole.
  return own ? error.detail || own : undefined;
}

/** The refusal when it names none of `fields` (shown above the form). */
export function formError(error: unknown, fields: readonly string[]): string | null {
  if (!error) return null;
  if (fields.some((f) => fieldError(error, f))) return null;
  return messageOf(error);
}
