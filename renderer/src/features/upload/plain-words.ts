/**
 * Why an upload failed, in words a household member understands, from the server's problem code (and
 * HTTP status): "This file is damaged and cannot be shown" rather than a decoder's message. Unknown
 * codes keep the server's own sentence (its `detail`), which is written for people too.
 */

export interface FailureFacts {
  /** The problem's `code` ('processing_failed', 'unsupported_media_type'…), or 'network' when the connection was lost. */
  code: string | null;
  status: number | null;
  /** The server said trying again may help. */
  retryable: boolean;
  /** The server's own sentence. */
  detail: string;
}

export const NETWORK_LOST = 'network';

export function plainWords(f: FailureFacts): string {
  switch (f.code) {
    case NETWORK_LOST:
      return 'The connection to Hearth was lost. Will retry.';
    case 'processing_failed':
      // Not retryable: the file itself is damaged (cut short, unreadable); retryable: a tool failed.
      return f.retryable ? 'Hearth could not finish this file just now. Try again.' : 'This file is damaged and cannot be shown.';
    case 'unsupported_media_type':
    case 'unsupported_content_type':
      return 'This kind of file is not supported.';
    case 'insufficient_storage':
    case 'storage_full':
    case 'no_space':
      return 'Not enough space on Hearth for this file.';
    case 'payload_too_large':
    case 'file_too_large':
      return 'This file is too large for Hearth.';
    case 'upload_interrupted':
      return 'The upload was cut off. Try again.';
    case 'uploads_busy':
      return 'Hearth is busy with other uploads. Will retry.';
  }
  if (f.status === 507) return 'Not enough space on Hearth for this file.';
  if (f.status === 413) return 'This file is too large for Hearth.';
  if (f.status === 415) return 'This kind of file is not supported.';
  return f.detail;
}
