/**
 * Editing an album from inside it, as the album page does, in both response variants (A plain,
 * B enveloped): renaming and describing it (a blank description clears it), adding photos at the end
 * in the order chosen, and moving them (the order the page shows after a reload). Bad input is a 4xx
 * problem naming the field: names and descriptions too long, blank or with control characters, and
 * positions that are negative, fractional, not numbers, missing or past the last member; an unknown
 * member is 404 naming `path.assetId`. Nothing changes on a refused request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { V1, data } from '../helpers/api.ts';
import { Client } from '../helpers/server.ts';
import { fails, ok, setup, storedOrder, type Album, type AlbumAsset, type World } from './helpers.ts';

const UNKNOWN_UUID = '0190a0a0-0000-7000-8000-000000000000';

describe('albums: editing from inside (rename, description, add, reorder), both variants', { timeout: 300_000 }, () => {
  let w: World;
  let photos: string[];

  before(async () => {
    w = await setup({ p0: 'exif/Canon_40D.jpg', p1: 'duplicates/bee.jpg', p2: 'exif/Nikon_D70.jpg', p3: 'exif/Pentax_K10D.jpg' }, {});
    photos = ['p0', 'p1', 'p2', 'p3'].map((k) => w.ids[k]!);
  });
  after(() => w.srv.stop({ removeData: true }));

  for (const variant of ['A', 'B'] as const) {
    const as = () => {
      const c = new Client(w.srv.url, variant);
      c.token = w.alice.token;
      return c;
    };
    const create = async (c: Client, name: string) => ok<Album>(c, await c.post(`${V1}/albums`, { album_name: name }), 201);
    const order = async (c: Client, id: number) => ok<{ assets: AlbumAsset[] }>(c, await c.get(`${V1}/albums/${id}/assets`)).assets.map((a) => [a.asset_id, a.position]);

    test(`${variant}: rename and describe; a blank description clears it, and a refused change changes nothing`, async () => {
      const c = as();
      const a = await create(c, 'Holiday');
      const renamed = ok<Album>(c, await c.put(`${V1}/albums/${a.album_id}`, { album_name: '  Summer by the lake  ' }));
      assert.equal(renamed.album_name, 'Summer by the lake');
      const described = ok<Album>(c, await c.put(`${V1}/albums/${a.album_id}`, { description: 'Two weeks in July.\nRain on the last day.' }));
      assert.equal(described.description, 'Two weeks in July.\nRain on the last day.', 'line breaks are kept');
      assert.equal(described.album_name, 'Summer by the lake');

      // An emptied description field is "no description", the same as null (not an empty string).
      for (const blank of ['', '   ', '\n\t ']) {
        ok(c, await c.put(`${V1}/albums/${a.album_id}`, { description: 'something' }));
        const cleared = ok<Album>(c, await c.put(`${V1}/albums/${a.album_id}`, { description: blank }));
        assert.equal(cleared.description, null, `${JSON.stringify(blank)} clears the description`);
      }
      const blankNew = ok<Album>(c, await c.post(`${V1}/albums`, { album_name: 'Blank description', description: '  ' }), 201);
      assert.equal(blankNew.description, null);

      ok(c, await c.put(`${V1}/albums/${a.album_id}`, { description: 'Kept' }));
      const refused: [unknown, string][] = [
        [{ album_name: '' }, 'body.album_name'],
        [{ album_name: '   ' }, 'body.album_name'],
        [{ album_name: null }, 'body.album_name'],
        [{ album_name: 'x'.repeat(201) }, 'body.album_name'],
        [{ album_name: 'Two\nlines' }, 'body.album_name'],
        [{ album_name: 7 }, 'body.album_name'],
        [{ description: 'd'.repeat(2001) }, 'body.description'],
        [{ description: 'bell\u0007' }, 'body.description'],
        [{ description: 42 }, 'body.description'],
        [{ album_name: 'Fine', description: 'd'.repeat(2001) }, 'body.description'],
      ];
      for (const [body, field] of refused) {
        const p = fails(c, await c.put(`${V1}/albums/${a.album_id}`, body), 422, { field });
        assert.ok(p.code, 'a stable code');
      }
      const after = ok<Album>(c, await c.get(`${V1}/albums/${a.album_id}`));
      assert.equal(after.album_name, 'Summer by the lake', 'a refused rename changed nothing');
      assert.equal(after.description, 'Kept');
      // Exactly at the limits is fine.
      const longest = ok<Album>(c, await c.put(`${V1}/albums/${a.album_id}`, { album_name: 'n'.repeat(200), description: 'd'.repeat(2000) }));
      assert.equal(longest.album_name.length, 200);
      assert.equal(longest.description?.length, 2000);
    });

    test(`${variant}: photos added from inside come in the order chosen; moves persist; bad positions name body.position`, async () => {
      const c = as();
      const a = await create(c, 'Reorder me');
      for (const id of [photos[2]!, photos[0]!, photos[3]!, photos[1]!]) {
        const r = ok<{ message: string }>(c, await c.post(`${V1}/albums/${a.album_id}/assets/${id}`, {}));
        assert.match(r.message, /Added/);
      }
      const added = [photos[2]!, photos[0]!, photos[3]!, photos[1]!];
      assert.deepEqual(await order(c, a.album_id), added.map((id, i) => [id, i]));

      // Dragging the last photo to the front, then the first to the end (as the page does).
      ok(c, await c.put(`${V1}/albums/${a.album_id}/assets/${photos[1]}/position`, { position: 0 }));
      ok(c, await c.put(`${V1}/albums/${a.album_id}/assets/${photos[1]}/position`, { position: 3 }));
      ok(c, await c.put(`${V1}/albums/${a.album_id}/assets/${photos[3]}/position`, { position: 1 }));
      const expected = [photos[2]!, photos[3]!, photos[0]!, photos[1]!];
      assert.deepEqual(await order(c, a.album_id), expected.map((id, i) => [id, i]));
      assert.deepEqual(storedOrder(w.srv, a.album_id).map((s) => s.asset_id), expected, 'kept in the catalog');

      const badMoves: unknown[] = [{ position: -1 }, { position: 1.5 }, { position: '2' }, { position: null }, {}, { position: 4 }, { position: 1_000_001 }, { position: 1, after: 2 }];
      for (const body of badMoves) {
        const r = await c.put(`${V1}/albums/${a.album_id}/assets/${photos[0]}/position`, body);
        const field = body && typeof body === 'object' && 'after' in body ? 'body' : 'body.position';
        const p = fails(c, r, 422);
        assert.ok(p.errors?.some((e) => e.field === field || e.field.startsWith(`${field}.`)), `${JSON.stringify(body)} names ${field}: ${JSON.stringify(p)}`);
        if (JSON.stringify(body) === '{"position":4}') assert.equal(p.code, 'position_out_of_range');
      }
      const badAdds: unknown[] = [{ position: -1 }, { position: 0.5 }, { position: 'end' }, { position: 9 }];
      const extra = await create(c, 'Insert checks');
      for (const body of badAdds) fails(c, await c.post(`${V1}/albums/${extra.album_id}/assets/${photos[0]}`, body), 422, { field: 'body.position' });
      fails(c, await c.put(`${V1}/albums/${a.album_id}/assets/${UNKNOWN_UUID}/position`, { position: 0 }), 404, { field: 'path.assetId' });
      fails(c, await c.put(`${V1}/albums/${extra.album_id}/assets/${photos[0]}/position`, { position: 0 }), 404, { code: 'asset_not_in_album', field: 'path.assetId' });
      const notJson = await c.req('PUT', `${V1}/albums/${a.album_id}/assets/${photos[0]}/position`, { body: '{"position":', headers: { 'content-type': 'application/json' } });
      assert.ok(notJson.status >= 400 && notJson.status < 500, notJson.text);
      assert.ok(data(c, notJson).code, 'a broken body is a problem with a code');

      assert.deepEqual(await order(c, a.album_id), expected.map((id, i) => [id, i]), 'refused moves changed nothing');
      assert.deepEqual(await order(c, extra.album_id), [], 'refused adds added nothing');
    });
  }
});
