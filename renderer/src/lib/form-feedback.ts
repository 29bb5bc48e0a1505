/**
 * What a form shows after a failed submit: a summary above the form and messages next to fields.
 * Server field errors arrive as `body.password`; the form says which of its fields exist, and what
 * the server calls them (`new_password` may be the field a form calls `password`).
 */
import { ApiError, messageOf } from '../api/problem';

export interface FormFeedback {
  summary: string | null;
  fields: Record<string, string>;
}

export const NO_FEEDBACK: FormFeedback = { summary: null, fields: {} };

export const CHECK_FIELDS = 'Check the highlighted fields.';

export function feedbackFrom(error: unknown, fieldNames: Record<string, string>): FormFeedback {
  if (!(error instanceof ApiError)) return { summary: messageOf(error), fields: {} };
  const fields: Record<string, string> = {};
  let unplaced = false;
  for (const [serverName, message] of Object.entries(error.fieldErrors)) {
    const local = fieldNames[serverName];
    if (local) fields[local] ??= message;
    else unplaced = true;
  }
  // A validation problem whose every error sits next to its field only needs a pointer; the server's
  // own summary ("Invalid request: body.password") is written for developers.
  const summary = Object.keys(fields).length > 0 && !unplaced ? CHECK_FIELDS : error.detail;
  return { summary, fields };
}

export function feedbackFromChecks(fields: Record<string, string>): FormFeedback {
  return { summary: Object.keys(fields).length ? CHECK_FIELDS : null, fields };
}
