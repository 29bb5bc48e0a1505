/**
 * The desktop packages' configuration (electron/packaging/builder-config.ts) against what npm installs:
 * every package of package-lock.json that the app ships and that has native parts must be unpacked from
 * app.asar, and each target must keep its own platform's binaries and leave out the others', file by file.
 * electron-builder itself cannot run here (it downloads Electron); this checks its input.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ASAR_UNPACK, builderConfig, keptFiles, prunedFiles, TARGETS, BETTER_SQLITE3_PREBUILDS, ONNXRUNTIME_FILES, USEARCH_PREBUILDS } from '../../electron/packaging/builder-config.ts';
import { ROOT } from './fork.ts';

interface LockEntry {
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  hasInstallScript?: boolean;
}

const NATIVE_FILE = /\.(node|so(\.\d+)*|dylib|dll|exe)$/;

/** Whether an installed package carries native code: a build file, an addon, a shared library. */
function hasNativeFiles(dir: string): boolean {
  if (fs.existsSync(path.join(dir, 'binding.gyp'))) return true;
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { gypfile?: boolean };
  if (pkg.gypfile) return true;
  const walk = (d: string): boolean =>
    fs.readdirSync(d, { withFileTypes: true }).some((e) => e.name !== 'node_modules' && (e.isDirectory() ? walk(path.join(d, e.name)) : NATIVE_FILE.test(e.name)));
  return walk(dir);
}

/**
 * The shipped (non-dev) packages with native parts, from package-lock.json: installed ones by their files;
 * platform packages (`os`/`cpu` in the lock: @img/sharp-*, @napi-rs/*-<platform>, sqlite-vec-*) whether
 * installed here or not; packages with an install script (which downloads or builds a binary: ffmpeg-static).
 */
function nativePackages(): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  return Object.entries(lock.packages)
    .filter(([key, entry]) => key.startsWith('node_modules/') && !entry.dev)
    .filter(([key, entry]) => {
      if (entry.os || entry.cpu || entry.hasInstallScript) return true;
      const dir = path.join(ROOT, key);
      return fs.existsSync(path.join(dir, 'package.json')) && hasNativeFiles(dir);
    })
    .map(([key]) => key);
}

function globToRegExp(glob: string): RegExp {
  const escape = (s: string) => s.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  // `**` any path, `*` any name within one folder.
  const re = glob.split('**').map((part) => part.split('*').map(escape).join('[^/]*')).join('.*');
  return new RegExp(`^${re}$`);
}

const unpacked = (file: string) => ASAR_UNPACK.some((g) => globToRegExp(g).test(file));

describe('desktop packages', () => {
  test('every shipped package of package-lock.json with native parts is unpacked from the archive', () => {
    const native = nativePackages();
    // The ones known today, so that a broken detection cannot pass by finding nothing.
    for (const known of ['node_modules/better-sqlite3', 'node_modules/onnxruntime-node', 'node_modules/usearch', 'node_modules/@img/sharp-linux-x64', 'node_modules/@napi-rs/blake-hash-win32-x64-msvc', 'node_modules/sqlite-vec-linux-x64', 'node_modules/ffmpeg-static']) {
      assert.ok(native.includes(known), `${known} is found as native`);
    }
    const missing = native.filter((pkg) => !unpacked(`${pkg}/package.json`));
    assert.deepEqual(missing, [], `native packages missing from ASAR_UNPACK (electron/packaging/builder-config.ts): ${missing.join(', ')}`);
  });

  test('the check catches a native package left out of the unpack list', () => {
    const without = ASAR_UNPACK.filter((g) => g !== 'node_modules/@napi-rs/**');
    const missing = nativePackages().filter((pkg) => !without.some((g) => globToRegExp(g).test(`${pkg}/package.json`)));
    assert.ok(missing.includes('node_modules/@napi-rs/blake-hash-linux-x64-gnu'));
  });

  test("the per-target file lists name every binary onnxruntime-node and better-sqlite3 install, and no file that is not there", () => {
    const ortDir = path.join(ROOT, 'node_modules/onnxruntime-node/bin/napi-v6');
    const installed = fs
      .readdirSync(ortDir, { recursive: true })
      .map(String)
      .filter((f) => fs.statSync(path.join(ortDir, f)).isFile())
      .map((f) => f.split(path.sep).join('/'))
      .sort();
    const listed = Object.entries(ONNXRUNTIME_FILES)
      .flatMap(([dir, files]) => files.map((f) => `${dir}/${f}`))
      .sort();
    assert.deepEqual(listed, installed, 'ONNXRUNTIME_FILES is the installed onnxruntime-node bin/ exactly');
    const prebuilds = fs.readdirSync(path.join(ROOT, 'node_modules/better-sqlite3/prebuilds')).sort();
    assert.deepEqual(Object.values(BETTER_SQLITE3_PREBUILDS).flat().sort(), prebuilds);
    const usearchDir = path.join(ROOT, 'node_modules/usearch/prebuilds');
    const usearch = fs.readdirSync(usearchDir).map((d) => `${d}/usearch.node`).filter((f) => fs.existsSync(path.join(usearchDir, f))).sort();
    assert.deepEqual(Object.values(USEARCH_PREBUILDS).flat().sort(), usearch);
  });

  test("each target keeps its own platform's binaries and leaves out every other's, explicitly (no ${platform} globs)", () => {
    for (const target of Object.values(TARGETS)) {
      const config = builderConfig(target) as { files: string[]; asarUnpack: string[]; npmRebuild: boolean };
      const excluded = config.files.filter((f) => f.startsWith('!')).map((f) => f.slice(1));
      for (const f of prunedFiles(target)) assert.ok(excluded.includes(f), `${target.id} leaves out ${f}`);
      const kept = keptFiles(target);
      assert.ok(kept.some((f) => f.endsWith('onnxruntime_binding.node')), `${target.id} keeps an onnxruntime binding`);
      assert.ok(kept.some((f) => f.includes('better-sqlite3/prebuilds/')), `${target.id} keeps a better-sqlite3 addon`);
      assert.ok(kept.some((f) => f.includes('usearch/prebuilds/')), `${target.id} keeps a usearch addon`);
      for (const f of kept) {
        assert.ok(!excluded.includes(f), `${target.id} keeps ${f}`);
        assert.ok(fs.existsSync(path.join(ROOT, f)), `${f} exists`);
        assert.ok(unpacked(f), `${f} is unpacked`);
      }
      assert.ok(config.files.every((f) => !f.includes('${')), 'no macros in file patterns');
      assert.deepEqual(config.asarUnpack, ASAR_UNPACK);
      assert.equal(config.npmRebuild, false, 'Node-API modules: no rebuild for Electron');
    }
    assert.deepEqual(prunedFiles(TARGETS['linux-x64']).filter((f) => f.includes('onnxruntime')).length, 15, 'linux-x64 drops the 15 files of the 4 other onnxruntime folders');
  });

  test('better-sqlite3 is a Node-API addon (so it loads in Electron without a rebuild)', () => {
    const gyp = fs.readFileSync(path.join(ROOT, 'node_modules/better-sqlite3/binding.gyp'), 'utf8');
    assert.match(gyp, /NAPI_VERSION=\d+/);
  });

  test('the package targets and their resources: AppImage and deb, NSIS, dmg; the shipped models and the web UI beside the archive', () => {
    const linux = builderConfig(TARGETS['linux-x64']) as any;
    assert.deepEqual(linux.linux.target, ['AppImage', 'deb']);
    assert.equal((builderConfig(TARGETS['win-x64']) as any).win.target, 'nsis');
    assert.equal((builderConfig(TARGETS['mac-arm64']) as any).mac.target, 'dmg');
    assert.deepEqual(linux.extraResources, [
      { from: 'renderer/dist', to: 'renderer/dist' },
      { from: 'models', to: 'models' },
    ]);
    assert.ok(fs.readdirSync(path.join(ROOT, 'models/face-detection-yunet')).some((f) => f.endsWith('.onnx')), 'the shipped models are in models/');
    assert.ok(linux.files.includes('electron/dist/**'));
  });
});
