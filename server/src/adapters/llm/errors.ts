/**
 * Why a call to a language model failed. Each failure is its own class with a stable `code`, so the assistant and
 * the settings check branch on the class or the code, never on message text; `message` is written for the
 * household's administrator ("The server refused the API key"), and never holds the API key (client.ts redacts the
 * server's own words before they reach a message).
 *
 * `retryable` says whether asking again later may help; the client has already retried what it safely could
 * (client.ts: 429, 5xx and network failures before the first byte of an answer).
 */

export type LlmErrorCode =
  /** 401/403: the API key is missing, wrong or not allowed this model. */
  | 'auth'
  /** The server answered that the model does not exist (not pulled into Ollama, not loaded in LM Studio, misspelled). */
  | 'model_missing'
  /** Nothing answers at the chat-completions path: the base URL is wrong (it usually ends in `/v1`). */
  | 'not_found'
  /** 429 after the retries. */
  | 'rate_limited'
  /** No connection within the connect timeout, or no byte for the idle timeout (before or between chunks). */
  | 'timeout'
  /** The address does not resolve, refuses, or the connection dropped before an answer began. */
  | 'unreachable'
  /** 5xx after the retries: the model server itself failed. */
  | 'server_error'
  /** The server refused the request (another 4xx), for example because the model cannot take tools. */
  | 'rejected'
  /** The answer is not the OpenAI wire format (not JSON, not SSE, wrong shape, too large). */
  | 'bad_response'
  /** The answer began and then stopped before its end (the connection dropped mid-stream). Never retried. */
  | 'interrupted';

export class LlmError extends Error {
  override readonly name: string = 'LlmError';
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly details: {
      /** The HTTP status the server answered, when it answered one. */
      status?: number;
      retryable?: boolean;
      /** What the administrator can do about it, in words. */
      hint?: string;
    } = {},
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.details.retryable ?? false;
  }
}

export class LlmAuthError extends LlmError {
  override readonly name = 'LlmAuthError';
  constructor(message: string, status: number, hint?: string) {
    super('auth', message, { status, hint });
  }
}

export class LlmModelMissingError extends LlmError {
  override readonly name = 'LlmModelMissingError';
  constructor(
    readonly model: string,
    message: string,
    status?: number,
    hint?: string,
  ) {
    super('model_missing', message, { status, hint });
  }
}

export class LlmNotFoundError extends LlmError {
  override readonly name = 'LlmNotFoundError';
  constructor(message: string, status: number, hint?: string) {
    super('not_found', message, { status, hint });
  }
}

export class LlmRateLimitedError extends LlmError {
  override readonly name = 'LlmRateLimitedError';
  constructor(
    message: string,
    /** The server's Retry-After, in seconds, when it sent one. */
    readonly retryAfterSeconds: number | null,
  ) {
    super('rate_limited', message, { status: 429, retryable: true });
  }
}

export class LlmTimeoutError extends LlmError {
  override readonly name = 'LlmTimeoutError';
  constructor(
    /** `connect`: no connection in time; `idle`: connected, but no byte came for the idle timeout. */
    readonly phase: 'connect' | 'idle',
    message: string,
    /** The assistant's words that had arrived before the silence (empty when none had). */
    readonly partialText = '',
  ) {
    super('timeout', message, { retryable: true, hint: phase === 'idle' ? 'A slow local model may need a longer idle timeout.' : undefined });
  }
}

export class LlmUnreachableError extends LlmError {
  override readonly name = 'LlmUnreachableError';
  constructor(message: string, hint?: string) {
    super('unreachable', message, { retryable: true, hint });
  }
}

export class LlmServerError extends LlmError {
  override readonly name = 'LlmServerError';
  constructor(message: string, status: number) {
    super('server_error', message, { status, retryable: true });
  }
}

export class LlmRejectedError extends LlmError {
  override readonly name = 'LlmRejectedError';
  constructor(message: string, status: number, hint?: string) {
    super('rejected', message, { status, hint });
  }
}

export class LlmBadResponseError extends LlmError {
  override readonly name = 'LlmBadResponseError';
  constructor(message: string) {
    super('bad_response', message, { hint: 'Check that the base URL points at an OpenAI-compatible server (its address usually ends in /v1).' });
  }
}

export class LlmInterruptedError extends LlmError {
  override readonly name = 'LlmInterruptedError';
  constructor(
    message: string,
    /** The assistant's words that had arrived before the cut. */
    readonly partialText: string,
  ) {
    super('interrupted', message, { retryable: true });
  }
}
