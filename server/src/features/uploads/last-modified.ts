/**
 * When the uploaded file was last modified, as the client says (issue 24): the capture time of last resort
 * for a photo or video with no date inside (features/assets/fact-precedence.ts). Browsers know it
 * (`File.lastModified`) and nothing else would: the stored copy's own time is only when it arrived.
 *
 * Decisions (the contract is silent):
 * - Where: the text field `last_modified` before the file (uploadAsset), `last_modified_{session_id}` before
 *   `single_{session_id}` (batchUploadAssets), `last_modified` in createUploadSession's body (chunked; kept with
 *   the session until it is committed). Optional everywhere: without it the file has no date of last resort.
 * - Form: epoch milliseconds ("1714566600000", or a JSON number), or ISO 8601 with its zone
 *   ("2024-05-01T14:30:00+02:00"). A numeric offset is taken as the zone the device was in (the web client sends
 *   its own); "Z" and epoch milliseconds say nothing about the zone (offset unknown, as for a video's UTC
 *   container date). A time without a zone is ambiguous and refused.
 * - Range: 1826 (the first photograph) to a day after the server's now (clocks drift; later is a broken clock).
 * - Anything else: 422 `invalid_last_modified` naming the field.
 */
import { Invalid } from '../../platform/http/errors.ts';
import type { FileModified } from '../assets/index.ts';

const EARLIEST = Date.UTC(1826, 0, 1);
const DAY_MS = 86_400_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

export function parseLastModified(value: string | number, field: string, now: number): FileModified {
  const text = typeof value === 'number' ? String(value) : value.trim();
  let time = NaN;
  let offsetMinutes: number | null = null;
  if (/^\d{1,15}$/.test(text)) time = Number(text);
  else {
    const m = ISO.exec(text);
    if (m) {
      time = Date.parse(text);
      const zone = m[1]!;
      if (zone.toUpperCase() !== 'Z') {
        const minutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6));
        offsetMinutes = minutes > 14 * 60 ? NaN : zone.startsWith('-') ? -minutes : minutes;
      }
    }
  }
  if (!Number.isFinite(time) || (offsetMinutes !== null && !Number.isFinite(offsetMinutes))) {
    throw new Invalid(
      `${field} must be epoch milliseconds or an ISO 8601 time with its zone, like 2024-05-01T14:30:00+02:00.`,
      [{ field, message: 'must be epoch milliseconds or ISO 8601 with a zone' }],
      'invalid_last_modified',
    );
  }
  if (time < EARLIEST || time > now + DAY_MS) {
    throw new Invalid(`${field} is out of range (1826 to today).`, [{ field, message: 'must be between 1826 and today' }], 'invalid_last_modified');
  }
  return { time: Math.floor(time), offsetMinutes: offsetMinutes === 0 ? 0 : offsetMinutes };
}
