/**
 * What a user may change in an asset's `specific_metadata` (updateAssetMetadata), and how it is merged.
 *
 * Decisions:
 * - Editable, per type (the descriptive fields a person may want to correct, for example a scanned print
 *   with no camera data or a wrong lens name):
 *     PHOTO  camera_make, camera_model, lens_model, description, exposure_time, f_number, focal_length,
 *            iso_speed, exposure_compensation
 *     VIDEO  camera_make, camera_model
 *     AUDIO  title, artist, album
 * - Read from the file and refused (422 naming the field): `is_raw` (what the file is; it decides RAW+JPEG
 *   pairing) and `content_identifier` (links a live photo's still and motion clip). Technical fields of
 *   videos and audio (codecs, frame rate, bitrate, …) are not accepted either (unknown fields are refused).
 * - A field that belongs to another type (e.g. `artist` on a photo) is refused with 422 naming it.
 * - The body is a patch: fields not sent keep their values; `null` clears a field. Strings are trimmed and
 *   must not be empty (send null to clear). At least one field must be sent.
 * - The names of the fields a person changed are kept in `specific_metadata.edited_fields`, so the UI can
 *   mark them and a later metadata re-read knows which values are the person's: reprocessing reads the
 *   file again but keeps those fields as the person left them (`keepPersonEdits`).
 * - `camera_model` and `lens_model` feed the camera/lens filters (generated columns), so a correction shows
 *   in the filters at once.
 */
import { z } from '@hono/zod-openapi';
import { Invalid, type FieldError } from '../../../platform/http/errors.ts';
import { multiLine, singleLine } from '../../../platform/http/text.ts';

const text = (max: number, lines: 'single' | 'multi' = 'single') =>
  (lines === 'single' ? singleLine : multiLine)(z.string().trim().min(1, 'must not be empty (send null to clear)').max(max))
    .nullable()
    .optional();

export const SpecificMetadataEditSchema = z
  .strictObject({
    camera_make: text(100).openapi({ description: 'Photo, video.' }),
    camera_model: text(100).openapi({ description: 'Photo, video.' }),
    lens_model: text(200).openapi({ description: 'Photo.' }),
    description: text(2000, 'multi').openapi({ description: 'Photo: the description embedded in the file (the caption shown in Hearth is the asset `description`).' }),
    exposure_time: z
      .string()
      .trim()
      .regex(/^(\d{1,6}\/\d{1,6}|\d{1,6}(\.\d{1,6})?)$/, 'must be seconds like "1/250", "0.5" or "30"')
      .nullable()
      .optional()
      .openapi({ description: 'Photo: seconds, "1/250" or "0.5".' }),
    f_number: z.number().min(0.5).max(128).nullable().optional().openapi({ description: 'Photo.' }),
    focal_length: z.number().positive().max(10_000).nullable().optional().openapi({ description: 'Photo: millimetres.' }),
    iso_speed: z.number().int().min(1).max(10_000_000).nullable().optional().openapi({ description: 'Photo.' }),
    exposure_compensation: z.number().min(-20).max(20).nullable().optional().openapi({ description: 'Photo: EV.' }),
    title: text(300).openapi({ description: 'Audio.' }),
    artist: text(300).openapi({ description: 'Audio.' }),
    album: text(300).openapi({ description: 'Audio.' }),
    is_raw: z.boolean().optional().openapi({ description: 'Read from the file: refused.' }),
    content_identifier: z.string().nullable().optional().openapi({ description: 'Read from the file: refused.' }),
  })
  .openapi('SpecificMetadataEdit', {
    description:
      'The photo, video or audio variant of specific metadata, as a patch. Editable: photo camera_make, camera_model, lens_model, description, exposure_time, f_number, focal_length, iso_speed, exposure_compensation; video camera_make, camera_model; audio title, artist, album. null clears a field.',
  });
export type SpecificMetadataEdit = z.infer<typeof SpecificMetadataEditSchema>;

export const EDITABLE_FIELDS: Record<'PHOTO' | 'VIDEO' | 'AUDIO', readonly string[]> = {
  PHOTO: ['camera_make', 'camera_model', 'lens_model', 'description', 'exposure_time', 'f_number', 'focal_length', 'iso_speed', 'exposure_compensation'],
  VIDEO: ['camera_make', 'camera_model'],
  AUDIO: ['title', 'artist', 'album'],
};
const READ_ONLY = new Set(['is_raw', 'content_identifier']);
const TYPE_WORD = { PHOTO: 'photos', VIDEO: 'videos', AUDIO: 'audio' } as const;

/**
 * The new specific_metadata JSON after applying `edit` to an asset of `type`, or a 422 naming every field
 * that may not be changed.
 */
export function mergeSpecificMetadata(type: 'PHOTO' | 'VIDEO' | 'AUDIO', current: string | null, edit: SpecificMetadataEdit): { json: string; changed: string[] } {
  const keys = Object.keys(edit).filter((k) => (edit as Record<string, unknown>)[k] !== undefined);
  if (keys.length === 0) {
    throw new Invalid('Send at least one field to change in specific_metadata.', [{ field: 'body.specific_metadata', message: 'names no field to change' }]);
  }
  const errors: FieldError[] = [];
  for (const k of keys) {
    const field = `body.specific_metadata.${k}`;
    if (READ_ONLY.has(k)) errors.push({ field, message: 'is read from the file and cannot be changed', code: 'read_only' });
    else if (!EDITABLE_FIELDS[type].includes(k)) {
      const owners = (Object.keys(EDITABLE_FIELDS) as (keyof typeof EDITABLE_FIELDS)[]).filter((t) => EDITABLE_FIELDS[t].includes(k)).map((t) => TYPE_WORD[t]);
      errors.push({ field, message: `applies to ${owners.join(' and ')}, not to ${TYPE_WORD[type]}`, code: 'not_for_this_type' });
    }
  }
  if (errors.length) {
    throw new Invalid(`Check ${errors.map((e) => `${e.field} (${e.message})`).join('; ')}.`, errors);
  }
  let meta: Record<string, unknown> = {};
  try {
    const parsed = current ? (JSON.parse(current) as unknown) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
  } catch {
    /* unreadable: start over from the edit */
  }
  for (const k of keys) meta[k] = (edit as Record<string, unknown>)[k];
  const before = Array.isArray(meta.edited_fields) ? (meta.edited_fields as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  meta.edited_fields = [...new Set([...before, ...keys])].sort();
  return { json: JSON.stringify(meta), changed: keys };
}

const parseObject = (json: string | null): Record<string, unknown> => {
  try {
    const v = json ? (JSON.parse(json) as unknown) : null;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * `fresh` (specific_metadata just read from the file) with the fields a person edited taken from
 * `current` (what the asset holds now), and the list of those fields kept: a reprocess never undoes
 * a correction.
 */
export function keepPersonEdits(current: string | null, fresh: string): string {
  const before = parseObject(current);
  const edited = Array.isArray(before.edited_fields) ? (before.edited_fields as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  if (edited.length === 0) return fresh;
  const next = parseObject(fresh);
  for (const k of edited) next[k] = before[k] ?? null;
  next.edited_fields = edited;
  return JSON.stringify(next);
}
