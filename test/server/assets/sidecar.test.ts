/**
 * The Studio edit sidecar over HTTP: stored in the repository's hidden folder, versioned with optimistic
 * concurrency, strictly validated, `source` filled by the server, ownership, Trash, damaged files, and
 * read back after a restart of the server on the same data folder.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, login, problem } from '../helpers/api.ts';
import { NO_SUCH_ID, addFile, household, repoPath } from './fixture.ts';

const edit = {
  adjustments: {
    exposure: 0.7,
    contrast: 12,
    highlights: -30,
    shadows: 25,
    whites: 0,
    blacks: -5,
    temperature: 8,
    tint: -2,
    vibrance: 10,
    saturation: 0,
    clarity: 15,
    sharpness: 20,
    noiseReduction: 10,
    rotation: 90,
    flipHorizontal: false,
    flipVertical: true,
    crop: { x: 0.1, y: 0.05, width: 0.8, height: 0.9 },
  },
  canvas: {
    background: { kind: 'blur', color: '#101010', blur: 40, brightness: -20, overscan: 8 },
    innerRadius: 12,
    outerRadius: 0,
    vignette: 10,
    pad: { top: 40, right: 40, bottom: 120, left: 40 },
    scrim: { edge: 'bottom', from: 'rgba(0,0,0,0.6)', to: 'rgba(0,0,0,0)', height: 200 },
  },
  layers: [
    {
      type: 'text',
      id: 'caption-1',
      text: 'Stonehenge, summer',
      variant: 'caption',
      textCase: 'none',
      align: 'center',
      color: '#ffffff',
      fill: { kind: 'linear', from: '#ff0000', to: '#0000ff', angle: 45, opacity: 1, fromOpacity: 1, toOpacity: 0.5 },
      font: { family: 'Inter', size: 48, weight: 600, italic: false, lineHeight: 1.2, tracking: 0 },
      opacity: 0.9,
      rotation: 0,
      size: 48,
      x: 0.5,
      y: 0.9,
      underline: false,
      strikethrough: false,
      fromTemplate: 'exif-frame',
      stroke: { color: '#000000', width: 2 },
      shadow: { blur: 4, color: '#000000', offsetX: 1, offsetY: 1, opacity: 0.5 },
      background: { fill: { kind: 'solid', color: '#00000080' }, padding: { top: 4, right: 8, bottom: 4, left: 8 } },
    },
  ],
};

describe('asset edit sidecar', { timeout: 300_000 }, () => {
  let srv: TestServer;
  let owner: Client;
  let other: Client;
  const ids = {} as Record<'photo' | 'second' | 'bob', string>;
  const url = (id: string) => `${V1}/assets/${id}/sidecar`;
  const fileOf = (id: string) => repoPath(srv, path.join('.hearth', 'sidecars', `${id}.json`));

  before(async () => {
    const h = await household();
    ({ srv, owner, other } = h);
    ids.photo = await addFile(srv, 'heic/Stonehenge.heic', h.ownerId);
    ids.second = await addFile(srv, 'exif/Canon_40D.jpg', h.ownerId);
    ids.bob = await addFile(srv, 'bob/DSCN0010.jpg', h.otherId, 'gps/DSCN0010.jpg');
    await srv.container.jobRunner.whenIdle();
  });
  after(() => srv.stop({ removeData: true }));

  test('no sidecar yet; the first save is version 1 with the source filled by the server, stored in .hearth/sidecars', async () => {
    assert.deepEqual(data(owner, await owner.get(url(ids.photo))), { asset_id: ids.photo, exists: false, sidecar: null });
    const before = Date.now();
    const r = await owner.put(url(ids.photo), { ...edit, version: 0, asset_id: ids.photo, updated_at: '1999-01-01T00:00:00Z', source: { file_size: 1, storage_path: '/etc/passwd' } });
    assert.equal(r.status, 200, r.text);
    const saved = data(owner, r);
    assert.equal(saved.asset_id, ids.photo);
    assert.equal(saved.exists, true);
    const s = saved.sidecar;
    assert.equal(s.version, 1);
    assert.equal(s.asset_id, ids.photo);
    assert.ok(Date.parse(s.updated_at) >= before - 1000, 'updated_at is set by the server');
    assert.deepEqual(s.adjustments, edit.adjustments);
    assert.deepEqual(s.canvas, edit.canvas);
    assert.deepEqual(s.layers, edit.layers);
    const asset = data(owner, await owner.get(`${V1}/assets/${ids.photo}`));
    assert.deepEqual(s.source, {
      file_size: asset.file_size,
      hash: asset.hash,
      width: 300,
      height: 200,
      mime_type: 'image/heic',
      original_filename: 'Stonehenge.heic',
      storage_path: 'heic/Stonehenge.heic',
    });
    assert.deepEqual(JSON.parse(fs.readFileSync(fileOf(ids.photo), 'utf8')), s, 'the file holds exactly the sidecar');
    assert.deepEqual(fs.readdirSync(path.dirname(fileOf(ids.photo))), [`${ids.photo}.json`], 'no temporary file left');
    assert.deepEqual(data(owner, await owner.get(url(ids.photo))), saved);
  });

  test('version: every save increments it; a stale version is refused with 409 and nothing is written', async () => {
    const v2 = data(owner, await owner.put(url(ids.photo), { version: 1, adjustments: { exposure: 1 } })).sidecar;
    assert.equal(v2.version, 2);
    assert.deepEqual(v2.adjustments, { exposure: 1 });
    assert.equal(v2.canvas, null, 'a save replaces the whole sidecar');
    assert.deepEqual(v2.layers, []);
    const stale = await owner.put(url(ids.photo), { version: 1, adjustments: { exposure: -1 } });
    assert.equal(stale.status, 409);
    const p = problem(owner, stale);
    assert.equal(p.code, 'sidecar_version_conflict');
    assert.match(p.detail, /version 2/);
    assert.equal(JSON.parse(fs.readFileSync(fileOf(ids.photo), 'utf8')).version, 2);
    assert.equal((await owner.put(url(ids.photo), { version: 5, adjustments: {} })).status, 409, 'a version from the future too');
    const overwrite = data(owner, await owner.put(url(ids.photo), { adjustments: { exposure: -0.5 } })).sidecar;
    assert.equal(overwrite.version, 3, 'without version the save wins');
    const fresh = await owner.put(url(ids.second), { version: 3, adjustments: {} });
    assert.equal(problem(owner, fresh).code, 'sidecar_version_conflict', 'no sidecar is version 0');
  });

  test('strict validation names the field; the stored sidecar is untouched', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body.adjustments'],
      [{ adjustments: { exposure: 9 } }, 'body.adjustments.exposure'],
      [{ adjustments: { contrast: -101 } }, 'body.adjustments.contrast'],
      [{ adjustments: { sharpness: -1 } }, 'body.adjustments.sharpness'],
      [{ adjustments: { exposure: '1' } }, 'body.adjustments.exposure'],
      [{ adjustments: { flipVertical: 'yes' } }, 'body.adjustments.flipVertical'],
      [{ adjustments: { crop: { x: 0, y: 0, width: 0, height: 1 } } }, 'body.adjustments.crop.width'],
      [{ adjustments: { dehaze: 10 } }, 'body.adjustments'],
      [{ adjustments: {}, canvas: { scrim: { edge: 'middle' } } }, 'body.canvas.scrim.edge'],
      [{ adjustments: {}, canvas: { pad: { top: -1 } } }, 'body.canvas.pad.top'],
      [{ adjustments: {}, layers: [{ type: 'video', id: 'x' }] }, 'body.layers.0.type'],
      [{ adjustments: {}, layers: [{ type: 'text' }] }, 'body.layers.0.id'],
      [{ adjustments: {}, layers: [{ type: 'text', id: 'a', opacity: 2 }] }, 'body.layers.0.opacity'],
      [{ adjustments: {}, layers: [{ type: 'text', id: 'a', color: 'red\u0000' }] }, 'body.layers.0.color'],
      [{ adjustments: {}, layers: [{ type: 'text', id: 'a', text: 'x'.repeat(5001) }] }, 'body.layers.0.text'],
      [{ adjustments: {}, layers: [{ type: 'text', id: 'a', font: { size: 'big' } }] }, 'body.layers.0.font.size'],
      [{ adjustments: {}, layers: Array.from({ length: 101 }, (_, i) => ({ type: 'text', id: `l${i}` })) }, 'body.layers'],
      [{ adjustments: {}, version: -1 }, 'body.version'],
      [{ adjustments: {}, version: 1.5 }, 'body.version'],
      [{ adjustments: {}, colour: 'x' }, 'body'],
      [{ adjustments: {}, asset_id: ids.second }, 'body.asset_id'],
    ];
    for (const [body, field] of cases) {
      const r = await owner.put(url(ids.photo), body);
      assert.equal(r.status, 422, `${JSON.stringify(body).slice(0, 100)}: ${r.text}`);
      assert.ok(problem(owner, r).errors?.some((e) => e.field === field), `${JSON.stringify(body).slice(0, 100)} names ${field}: ${r.text}`);
    }
    assert.equal(JSON.parse(fs.readFileSync(fileOf(ids.photo), 'utf8')).version, 3);
  });

  test('ownership, unknown ids and the Trash', async () => {
    assert.equal(problem(other, await other.get(url(ids.photo))).code, 'asset_not_found');
    assert.equal(problem(other, await other.put(url(ids.photo), { adjustments: {} })).code, 'asset_not_found');
    assert.equal(JSON.parse(fs.readFileSync(fileOf(ids.photo), 'utf8')).version, 3, 'another user changed nothing');
    assert.equal((await owner.get(url(NO_SUCH_ID))).status, 404);
    assert.equal(data(other, await other.put(url(ids.bob), { adjustments: { tint: 5 } })).sidecar.version, 1, 'bob edits his own');

    assert.equal((await owner.req('DELETE', `${V1}/assets/${ids.second}`)).status, 200);
    const trashed = await owner.put(url(ids.second), { adjustments: {} });
    assert.equal(problem(owner, trashed).code, 'asset_in_trash');
    assert.equal(data(owner, await owner.get(url(ids.second))).exists, false, 'reading is allowed');
    assert.ok(!fs.existsSync(fileOf(ids.second)));
    assert.equal((await owner.post(`${V1}/assets/${ids.second}/restore`)).status, 200);
  });

  test('a damaged sidecar file is reported, not silently replaced; saving without version replaces it', async () => {
    fs.mkdirSync(path.dirname(fileOf(ids.second)), { recursive: true });
    fs.writeFileSync(fileOf(ids.second), '{"version": 1, "asset_id": ');
    assert.equal(problem(owner, await owner.get(url(ids.second))).code, 'sidecar_unreadable');
    assert.equal(problem(owner, await owner.put(url(ids.second), { version: 1, adjustments: {} })).code, 'sidecar_unreadable');
    const replaced = await owner.put(url(ids.second), { adjustments: { exposure: 0.3 } });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(data(owner, replaced).sidecar.version, 1);
    assert.equal(data(owner, await owner.get(url(ids.second))).sidecar.adjustments.exposure, 0.3);
  });

  test('the sidecar survives a restart of the server on the same data folder', async () => {
    const before = data(owner, await owner.get(url(ids.photo)));
    const dataDir = srv.dataDir;
    await srv.stop();
    srv = await startServer({ dataDir });
    owner = new Client(srv.url);
    await login(owner, 'alice');
    assert.equal((await new Client(srv.url).get(url(ids.photo))).status, 401);
    const afterRestart = data(owner, await owner.get(url(ids.photo)));
    assert.deepEqual(afterRestart, before);
    assert.equal(afterRestart.sidecar.version, 3);
    const next = data(owner, await owner.put(url(ids.photo), { version: 3, adjustments: { exposure: 0 } }));
    assert.equal(next.sidecar.version, 4);
  });
});
