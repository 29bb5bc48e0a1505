/**
 * The matrix's rule for a member calling with someone else's ids (permission-matrix.test.ts uses it for
 * every answer; rules-are-needed.test.ts shows it failing when an access rule is taken away).
 */
import type { DocOperation } from './requests.ts';

/** The 404 code of an owner-scoped kind (the photo events' code predates the kind's name). */
export function notFoundCode(kind: string): string {
  return kind === 'photo_event' ? 'event_not_found' : `${kind}_not_found`;
}

/**
 * What is wrong with the answer a member who does not own the ids got: a marked path id of someone
 * else's must be 404 `<kind>_not_found` (as if it did not exist); with none in the path, a marked body
 * id must be refused naming its kind (404, or 422 where the operation documents body ids as input errors).
 */
export function foreignRefusal(o: Pick<DocOperation, 'owned' | 'ownedBody'>, status: number, code: string | undefined): string[] {
  if (o.owned.size > 0) {
    const codes = [...new Set(o.owned.values())].map(notFoundCode);
    return status === 404 && codes.includes(code!) ? [] : [`someone else must get 404 ${codes.join(' or ')}`];
  }
  if (o.ownedBody.size > 0) {
    const codes = [...new Set(o.ownedBody.values())].map(notFoundCode);
    return [404, 422].includes(status) && codes.includes(code!) ? [] : [`someone else must get 404 or 422 ${codes.join(' or ')}`];
  }
  return [];
}
