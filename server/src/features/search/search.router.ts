import { routerUsing, zodIssuesToFieldErrors } from '../../platform/http/router.ts';
import { BadRequest, Invalid, type FieldError } from '../../platform/http/errors.ts';
import { AssetFilterSchema, type AssetFilter } from '../browse/index.ts';
import * as r from './search.routes.ts';
import { reduceQueryImage } from './query-image.ts';

export function searchRouter() {
  const { app, services } = routerUsing(['search']);
  app.openapi(r.searchAssets, async (c) => c.json(await services(c).search.search(c.get('actor')!, c.req.valid('json')), 200));
  app.openapi(r.previewClassifier, async (c) => c.json(await services(c).search.previewClassifier(c.get('actor')!, c.req.valid('json')), 200));
  app.openapi(r.searchAssetsByImage, async (c) => {
    let form: FormData;
    try {
      // In memory: the photo never touches the disk (query-image.ts).
      form = await c.req.raw.formData();
    } catch {
      throw new BadRequest('The body must be multipart/form-data with the photo in `image`.', 'bad_request', [{ field: 'body', message: 'not a multipart form' }]);
    }
    const fields = byImageFields(form);
    const image = Buffer.from(await fields.image.arrayBuffer());
    const reduced = await reduceQueryImage(image, fields.image instanceof File ? fields.image.name : undefined);
    return c.json(await services(c).search.searchByImage(c.get('actor')!, reduced, fields), 200);
  });
  return app;
}

/** The form's fields, checked: each problem names its field. */
function byImageFields(form: FormData) {
  const errors: FieldError[] = [];
  const image = form.get('image');
  if (!(image instanceof Blob)) errors.push({ field: 'body.image', message: 'is required (a file)' });
  let filter: AssetFilter | undefined;
  const rawFilter = form.get('filter');
  if (typeof rawFilter === 'string' && rawFilter.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawFilter);
    } catch {
      errors.push({ field: 'body.filter', message: 'is not valid JSON' });
    }
    if (parsed !== undefined) {
      const ok = AssetFilterSchema.safeParse(parsed);
      if (ok.success) filter = ok.data;
      else errors.push(...zodIssuesToFieldErrors('form', ok.error.issues).map((e) => ({ ...e, field: e.field.replace(/^body/, 'body.filter') })));
    }
  } else if (rawFilter instanceof Blob) errors.push({ field: 'body.filter', message: 'must be text (JSON), not a file' });
  const int = (name: string, min: number, max: number): number | undefined => {
    const v = form.get(name);
    if (v === null || v === '') return undefined;
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      errors.push({ field: `body.${name}`, message: `must be an integer ${min}..${max}` });
      return undefined;
    }
    return n;
  };
  const limit = int('limit', 1, 200);
  const offset = int('offset', 0, 10_000);
  const top = int('top_results_limit', 1, r.MAX_TOP_RESULTS);
  const tz = form.get('viewer_timezone');
  let viewer_timezone: string | undefined;
  if (typeof tz === 'string' && tz !== '') {
    if (tz.length > 64) errors.push({ field: 'body.viewer_timezone', message: 'at most 64 characters' });
    else viewer_timezone = tz;
  }
  if (errors.length) throw new Invalid(`Check ${errors.slice(0, 5).map((e) => `${e.field} (${e.message})`).join('; ')}.`, errors);
  return { image: image as Blob, filter, limit, offset, top_results_limit: top, viewer_timezone };
}
