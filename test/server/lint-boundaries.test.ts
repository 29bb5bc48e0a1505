/**
 * The layer rules of eslint.config.js, tried on probe sources: the real config, the real plugin, each
 * probe linted as if it were a file of the layer it claims to be (its path is an existing file there,
 * so the renderer's type-aware rules find it in their project). A probe that crosses a boundary must
 * fail with the layer rule; the same import made the allowed way must pass. Also the rules for
 * `eslint-disable` comments: each gives its reason, and none outlives the finding it silenced.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The rule ids the probe breaks, as the real lint would report them for a file at `file`. */
async function ruleIdsFor(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  assert.ok(result, `ESLint returned no result for ${file}`);
  const fatal = result.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal, [], `the probe for ${file} must parse`);
  return result.messages.map((m) => m.ruleId ?? '');
}

const LAYER = 'boundaries/dependencies';

describe('layer rules (eslint.config.js)', () => {
  test("a feature importing another feature's internals fails; through its index.ts it passes", async () => {
    const file = 'server/src/features/albums/albums.view.ts';
    const internal = await ruleIdsFor(file, "import { AssetsStore } from '../assets/assets.store.ts';\nexport const s = AssetsStore;\n");
    assert.deepEqual(internal, [LAYER]);
    const typeOnly = await ruleIdsFor(file, "import type { AssetRow } from '../assets/assets.store.ts';\nexport type R = AssetRow;\n");
    assert.deepEqual(typeOnly, [LAYER], 'a type-only import of internals is still an internal dependency');
    const publicSurface = await ruleIdsFor(file, "import { AssetsStore } from '../assets/index.ts';\nexport const s = AssetsStore;\n");
    assert.deepEqual(publicSurface, []);
  });

  test('inside one feature, any file may import any other', async () => {
    const ids = await ruleIdsFor('server/src/features/assets/assets.view.ts', "import { AssetsStore } from './assets.store.ts';\nexport const s = AssetsStore;\n");
    assert.deepEqual(ids, []);
  });

  test('the platform imports neither adapters, nor features, nor the composition root', async () => {
    const file = 'server/src/platform/ids.ts';
    for (const target of ['../adapters/media/hash.ts', '../features/assets/index.ts', '../container.ts', '../config/env.ts']) {
      const ids = await ruleIdsFor(file, `import * as m from '${target}';\nexport const x = m;\n`);
      assert.deepEqual(ids, [LAYER], `platform → ${target}`);
    }
    assert.deepEqual(await ruleIdsFor(file, "import * as m from './http/errors.ts';\nexport const x = m;\n"), []);
  });

  test('adapters import the platform only; features and the root are out of reach', async () => {
    const file = 'server/src/adapters/media/hash.ts';
    for (const target of ['../../features/assets/index.ts', '../../container.ts', '../../config/env.ts']) {
      const ids = await ruleIdsFor(file, `import * as m from '${target}';\nexport const x = m;\n`);
      assert.deepEqual(ids, [LAYER], `adapter → ${target}`);
    }
    assert.deepEqual(await ruleIdsFor(file, "import * as m from '../../platform/ids.ts';\nexport const x = m;\n"), []);
  });

  test('a feature may not import the composition root', async () => {
    const ids = await ruleIdsFor('server/src/features/browse/browse.router.ts', "import type { Container } from '../../container.ts';\nexport type C = Container;\n");
    assert.deepEqual(ids, [LAYER]);
  });

  test('the composition root may import any file of any feature', async () => {
    const ids = await ruleIdsFor('server/src/container.ts', "import { AssetsStore } from './features/assets/assets.store.ts';\nexport const s = AssetsStore;\n");
    assert.deepEqual(ids, []);
  });

  test('the renderer reaches the server only through its generated client', async () => {
    const file = 'renderer/src/lib/clipboard.ts';
    const server = await ruleIdsFor(file, "import { uuidv7 } from '../../../server/src/platform/ids.ts';\nexport const x = uuidv7;\n");
    assert.deepEqual(server, [LAYER]);
    const client = await ruleIdsFor(file, "import type { paths } from '../api/schema';\nexport type P = paths;\n");
    assert.deepEqual(client, []);
  });

  test("a renderer feature importing another feature's internals fails; through its index.ts it passes (stylesheets too)", async () => {
    const file = 'renderer/src/features/people/PersonCard.tsx';
    const internal = await ruleIdsFor(file, "import { EditableText } from '../albums/EditableText';\nexport const e = EditableText;\n");
    assert.deepEqual(internal, [LAYER]);
    const css = await ruleIdsFor(file, "import '../albums/albums.css';\nexport const x = 1;\n");
    assert.deepEqual(css, [LAYER], "another feature's stylesheet is one of its internals");
    const publicSurface = await ruleIdsFor(file, "import { EditableText } from '../albums/index.ts';\nexport const e = EditableText;\n");
    assert.deepEqual(publicSurface, []);
    const sameFeature = await ruleIdsFor(file, "import { PersonCover } from './PersonCover';\nexport const c = PersonCover;\n");
    assert.deepEqual(sameFeature, [], 'inside one feature any file may import any other');
  });

  test('renderer shared code (photos, components, lib, api, styles) imports no feature, not even its index.ts', async () => {
    for (const file of ['renderer/src/photos/Viewer.tsx', 'renderer/src/components/Button.tsx', 'renderer/src/lib/format.ts']) {
      for (const target of ['../features/people/FaceBoxes', '../features/people/index.ts', '../features/search/search.css', '../app/photo-slots']) {
        const ids = await ruleIdsFor(file, `import * as m from '${target}';\nexport const x = m;\n`);
        assert.deepEqual(ids, [LAYER], `${file} → ${target}`);
      }
    }
    const shared = await ruleIdsFor('renderer/src/photos/Viewer.tsx', "import { Button } from '../components/Button';\nexport const b = Button;\n");
    assert.deepEqual(shared, []);
  });

  test('the renderer app may import any file of any feature (it fills the slots and routes the pages)', async () => {
    const ids = await ruleIdsFor('renderer/src/app/photo-slots.ts', "import { FaceBoxes } from '../features/people/FaceBoxes';\nexport const f = FaceBoxes;\n");
    assert.deepEqual(ids, []);
  });

  test('tests may reach into any layer (no layer rules there)', async () => {
    const ids = await ruleIdsFor('test/server/platform.test.ts', "import { AssetsStore } from '../../server/src/features/assets/assets.store.ts';\nexport const s = AssetsStore;\n");
    assert.deepEqual(ids, []);
  });
});

describe('disable comments (eslint.config.js)', () => {
  test('a disable comment must give its reason; with one it stands', async () => {
    const file = 'server/src/platform/http/text.ts';
    const bare = await ruleIdsFor(file, '// eslint-disable-next-line no-control-regex\nexport const x = /[\\u0000-\\u001f]/;\n');
    assert.deepEqual(bare, ['local/disable-needs-reason']);
    const reasoned = await ruleIdsFor(file, '// eslint-disable-next-line no-control-regex -- control characters are what it finds\nexport const x = /[\\u0000-\\u001f]/;\n');
    assert.deepEqual(reasoned, []);
  });

  test('a disable comment for a rule that does not fire there is itself an error', async () => {
    const ids = await ruleIdsFor('server/src/platform/http/text.ts', "// eslint-disable-next-line no-control-regex -- stale\nexport const x = 'plain';\n");
    assert.deepEqual(ids, ['']);
  });
});
