/**
 * Domain errors. Services throw these (never HTTP responses); one handler in app.ts turns them into
 * RFC 9457 problem documents. `code` is stable and machine-readable: clients branch on it, not on text.
 */
import type { ProblemMembers } from './problem.ts';

export interface FieldError {
  /** Where the bad value sits: `body.password`, `query.limit`, `path.id`, `header.x-csrf-token`. */
  field: string;
  message: string;
  code?: string;
}

export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: {
      errors?: FieldError[];
      retryAfterSeconds?: number;
      retryable?: boolean;
      /** The answer holds this long (`Cache-Control: private, max-age`): asking again sooner gets the same. */
      cacheSeconds?: number;
      /** Extension members of the problem document (problem.ts names and documents each). */
      members?: ProblemMembers;
    } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends DomainError {
  constructor(message: string, code = 'bad_request', errors?: FieldError[]) {
    super(400, code, message, errors ? { errors } : {});
  }
}
export class Unauthorized extends DomainError {
  constructor(message = 'Sign in first.', code = 'unauthorized') {
    super(401, code, message);
  }
}
export class Forbidden extends DomainError {
  constructor(message = 'You are not allowed to do this.', code = 'forbidden') {
    super(403, code, message);
  }
}
export class NotFound extends DomainError {
  constructor(message = 'Not found.', code = 'not_found') {
    super(404, code, message);
  }
}
export class Conflict extends DomainError {
  constructor(message: string, code = 'conflict', members?: ProblemMembers) {
    super(409, code, message, members ? { members } : {});
  }
}
export class PayloadTooLarge extends DomainError {
  constructor(message: string) {
    super(413, 'payload_too_large', message);
  }
}
export class Invalid extends DomainError {
  constructor(message: string, errors: FieldError[] = [], code = 'validation_failed') {
    super(422, code, message, { errors });
  }
}
export class TooManyRequests extends DomainError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'rate_limited', message, { retryAfterSeconds, retryable: true });
  }
}
export class Unavailable extends DomainError {
  constructor(message: string, code = 'unavailable') {
    super(503, code, message, { retryable: true });
  }
}
