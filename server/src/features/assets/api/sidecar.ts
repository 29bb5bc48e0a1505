/**
 * Studio edit sidecars: the non-destructive edit record of one asset (contract 1-resources-states-auth.md,
 * "Studio edit sidecar"), kept as JSON beside the household's files in the repository's hidden folder:
 * `<repository>/.hearth/sidecars/<asset_id>.json`. The media file itself is never touched.
 *
 * Decisions:
 * - The sidecar lives in the repository, not in the catalog, so it travels with the folder (a repository
 *   moved to another disk, or a catalog rebuilt from the folders, keeps its edits) and survives restarts.
 * - Writes are atomic: a temporary file in the same folder, fsync, rename, then fsync of the folder. A
 *   reader sees the old sidecar or the new one, never half of one; a crash leaves at most a `.tmp` file.
 * - `version` is the edit counter: 1 for the first save, +1 on every save. A client that sends `version`
 *   gets optimistic concurrency: it must be the version it read (0 when there was no sidecar), otherwise the
 *   save is refused with 409 `sidecar_version_conflict` and nothing is written. Without `version` the save
 *   wins ("last writer wins"), for simple clients. (The original system kept `version` at 1 as a format
 *   number; the first save here is 1 as well, so such readers still see a version they know.)
 * - A save (read, version check, write) runs synchronously from start to end, so two concurrent saves with
 *   the same `version` cannot both succeed: the second sees the first's version. The file is small and a
 *   save is a rare, deliberate action, so the short synchronous fsync is acceptable.
 * - `source` describes the file the edit was made on and is always filled by the server from the asset
 *   (file_size, hash, width, height, mime_type, original_filename, storage_path); a `source` in the body is
 *   accepted for round-trips and ignored. `updated_at` is set by the server. `asset_id` in the body, when
 *   present, must be the asset of the path.
 * - Validation is strict: unknown fields are refused (422 naming them), numbers must be finite and within
 *   the ranges below (the Studio's slider ranges: tone and colour -100..100, exposure -5..+5 EV, detail
 *   0..100), colours are short strings, at most 100 layers, text up to 5000 characters. A sidecar file that
 *   cannot be read back (edited by hand, damaged) answers 409 `sidecar_unreadable` rather than being
 *   silently replaced; saving over it with `version` omitted replaces it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from '@hono/zod-openapi';
import { SYSTEM_DIR } from '../../../adapters/fs/paths.ts';

// ---------------------------------------------------------------------------------------------------------
// Shape

const num = (min: number, max: number) => z.number().min(min).max(max);
/** A CSS colour or similar short token ("#ff8800", "rgba(0,0,0,0.5)", "white"). */
const color = z
  .string()
  .max(64)
  // eslint-disable-next-line no-control-regex -- a value with control characters is refused
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');
const token = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be a short identifier (letters, digits, - _ .)');
const offset = num(-100_000, 100_000);
const length = num(0, 100_000);
const box = z.strictObject({ top: length.optional(), right: length.optional(), bottom: length.optional(), left: length.optional() });

export const AdjustmentsSchema = z
  .strictObject({
    exposure: num(-5, 5).optional(),
    contrast: num(-100, 100).optional(),
    highlights: num(-100, 100).optional(),
    shadows: num(-100, 100).optional(),
    whites: num(-100, 100).optional(),
    blacks: num(-100, 100).optional(),
    temperature: num(-100, 100).optional(),
    tint: num(-100, 100).optional(),
    vibrance: num(-100, 100).optional(),
    saturation: num(-100, 100).optional(),
    clarity: num(-100, 100).optional(),
    sharpness: num(0, 100).optional(),
    noiseReduction: num(0, 100).optional(),
    rotation: num(-360, 360).optional().openapi({ description: 'Degrees, clockwise.' }),
    flipHorizontal: z.boolean().optional(),
    flipVertical: z.boolean().optional(),
    crop: z
      .strictObject({ x: length, y: length, width: num(0, 100_000).positive(), height: num(0, 100_000).positive() })
      .nullable()
      .optional(),
  })
  .openapi('SidecarAdjustments');

const GradientFill = z.strictObject({
  kind: token.optional().openapi({ example: 'solid' }),
  color: color.optional(),
  from: color.optional(),
  to: color.optional(),
  angle: num(-360, 360).optional(),
  opacity: num(0, 1).optional(),
  fromOpacity: num(0, 1).optional(),
  toOpacity: num(0, 1).optional(),
});

export const CanvasSchema = z
  .strictObject({
    background: z
      .strictObject({
        kind: token.optional().openapi({ example: 'blur' }),
        color: color.optional(),
        from: color.optional(),
        to: color.optional(),
        angle: num(-360, 360).optional(),
        blur: num(0, 1000).optional(),
        brightness: num(-100, 100).optional(),
        overscan: num(0, 1000).optional(),
      })
      .optional(),
    innerRadius: length.optional(),
    outerRadius: length.optional(),
    vignette: num(-100, 100).optional(),
    pad: box.optional(),
    scrim: z
      .strictObject({
        edge: z.enum(['top', 'bottom', 'left', 'right']).optional(),
        from: z.union([color, num(0, 1)]).optional(),
        to: z.union([color, num(0, 1)]).optional(),
        height: length.optional(),
      })
      .optional(),
  })
  .openapi('SidecarCanvas');

export const LayerSchema = z
  .strictObject({
    type: z.enum(['text', 'logo']).openapi({ description: '`text` (a caption) or `logo` (a camera-brand mark).' }),
    id: z.string().min(1).max(64),
    text: z.string().max(5000).optional(),
    variant: token.optional(),
    brand: z.string().max(64).optional(),
    textCase: z.enum(['none', 'upper', 'lower', 'title']).optional(),
    align: z.enum(['left', 'center', 'right']).optional(),
    color: color.optional(),
    fill: GradientFill.optional(),
    font: z
      .strictObject({
        family: z.string().max(100).optional(),
        size: num(0, 10_000).optional(),
        weight: num(1, 1000).optional(),
        italic: z.boolean().optional(),
        lineHeight: num(0, 10).optional(),
        tracking: num(-1000, 1000).optional(),
      })
      .optional(),
    opacity: num(0, 1).optional(),
    rotation: num(-360, 360).optional(),
    size: length.optional(),
    x: offset.optional(),
    y: offset.optional(),
    underline: z.boolean().optional(),
    strikethrough: z.boolean().optional(),
    fromTemplate: z.union([z.boolean(), z.string().max(64)]).optional(),
    stroke: z.strictObject({ color: color.optional(), width: num(0, 1000).optional() }).optional(),
    shadow: z
      .strictObject({ blur: num(0, 1000).optional(), color: color.optional(), offsetX: offset.optional(), offsetY: offset.optional(), opacity: num(0, 1).optional() })
      .optional(),
    background: z.strictObject({ fill: GradientFill.optional(), padding: box.optional() }).optional(),
  })
  .openapi('SidecarLayer');

export const SidecarSourceSchema = z
  .object({
    file_size: z.number().int(),
    hash: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    mime_type: z.string(),
    original_filename: z.string(),
    storage_path: z.string().openapi({ description: 'Repository-relative path of the file.' }),
  })
  .openapi('SidecarSource');

/** The body of updateAssetSidecar. */
export const SidecarInputSchema = z
  .strictObject({
    asset_id: z.uuid().optional().openapi({ description: 'When present, must be the asset of the path.' }),
    version: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({ description: 'The version the edit is based on (0 when there was no sidecar). A different current version answers 409 `sidecar_version_conflict`. Omit to overwrite.' }),
    updated_at: z.string().max(64).optional().openapi({ description: 'Ignored: the server sets it.' }),
    source: z.unknown().optional().openapi({ description: 'Ignored: the server fills it from the asset.' }),
    adjustments: AdjustmentsSchema,
    canvas: CanvasSchema.nullable().optional(),
    layers: z.array(LayerSchema).max(100).optional(),
  })
  .openapi('SidecarInput');
export type SidecarInput = z.infer<typeof SidecarInputSchema>;

export const SidecarSchema = z
  .object({
    asset_id: z.string(),
    version: z.number().int().openapi({ description: 'Edit counter: 1 after the first save, +1 per save.' }),
    updated_at: z.string(),
    source: SidecarSourceSchema,
    adjustments: AdjustmentsSchema,
    canvas: CanvasSchema.nullable(),
    layers: z.array(LayerSchema),
  })
  .openapi('Sidecar');
export type Sidecar = z.infer<typeof SidecarSchema>;
export type SidecarSource = z.infer<typeof SidecarSourceSchema>;

export const SidecarResponseSchema = z
  .object({ asset_id: z.string(), exists: z.boolean(), sidecar: SidecarSchema.nullable() })
  .openapi('AssetSidecarResponse');

// ---------------------------------------------------------------------------------------------------------
// Files

export const SIDECAR_DIR = 'sidecars';

export function sidecarPath(repositoryRoot: string, assetId: string): string {
  if (!/^[0-9a-f-]{36}$/i.test(assetId)) throw new Error(`not an asset id: ${assetId}`);
  return path.join(repositoryRoot, SYSTEM_DIR, SIDECAR_DIR, `${assetId.toLowerCase()}.json`);
}

export class SidecarUnreadable extends Error {}

/** The stored sidecar, or null when there is none. Throws SidecarUnreadable for a damaged file. */
export function readSidecar(file: string): Sidecar | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return null;
    throw e;
  }
  try {
    return SidecarSchema.parse(JSON.parse(text));
  } catch (e) {
    throw new SidecarUnreadable(e instanceof Error ? e.message.split('\n')[0] : String(e));
  }
}

/** Write atomically and durably: temp file + fsync + rename + fsync of the folder. */
export function writeSidecar(file: string, sidecar: Sidecar): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = fs.openSync(tmp, 'wx', 0o644);
    try {
      fs.writeSync(fd, `${JSON.stringify(sidecar, null, 2)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    /* folders cannot be fsynced on every platform (Windows): the rename is still atomic */
  }
}
