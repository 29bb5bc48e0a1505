/**
 * The electron-builder configuration of each desktop package, one per target, made from one place.
 *
 *   linux-x64, linux-arm64   AppImage + deb
 *   win-x64                  NSIS installer
 *   mac-arm64                dmg
 * No Intel macOS package: onnxruntime-node 1.30 ships no darwin/x64 binary (ONNXRUNTIME_FILES). No Windows
 * on Arm package: usearch 2.26 ships no win32-arm64 addon (USEARCH_PREBUILDS), and a build from source was
 * not tried.
 *
 * `npm run package:desktop -- <target>` (scripts/package-desktop.ts) writes the target's configuration as
 * JSON to release/<target>/electron-builder.json and runs electron-builder with it, on that platform.
 *
 * Decisions the builder's defaults do not make:
 *  - Native parts are unpacked from app.asar (ASAR_UNPACK): a `.node` addon, a shared library or an
 *    executable cannot be loaded from inside the archive. test/electron/packaging.test.ts finds every
 *    package of package-lock.json with native parts and fails if one is not listed here.
 *  - Other platforms' binaries are left out per target with EXPLICIT file lists (electron-builder does not
 *    expand ${platform} or ${arch} in `files` globs): onnxruntime-node carries every platform's runtime
 *    (288 MB) and better-sqlite3 every platform's prebuilt addon. The platform packages of sharp, @napi-rs
 *    and sqlite-vec need no pruning: npm installs only the building machine's, which is why each package is
 *    built on its own platform (README).
 *  - No rebuild for Electron (`npmRebuild: false`, `buildDependenciesFromSource: false`): every native
 *    module here is a Node-API addon (better-sqlite3 13 builds with NAPI_VERSION=10 and ships prebuilds for
 *    each platform; sharp, onnxruntime-node, usearch and the @napi-rs packages are Node-API too), and
 *    Node-API is the same ABI in Electron as in Node, so the installed binaries load in Electron's utility
 *    process as they are. A rebuild (@electron/rebuild) would download Electron's headers and need a
 *    compiler on every building machine, to produce the same thing. Should a future dependency use V8's
 *    ABI instead, set npmRebuild: true here (electron-builder then runs @electron/rebuild for the target).
 *  - The models the app ships (models/: the face detector and embedder) and the web UI go beside the
 *    archive as resources (process.resourcesPath), where electron/main.ts points the server.
 */

export type TargetId = 'linux-x64' | 'linux-arm64' | 'win-x64' | 'mac-arm64';

export interface Target {
  id: TargetId;
  platform: 'linux' | 'win32' | 'darwin';
  arch: 'x64' | 'arm64';
  /** electron-builder's CLI flags for the platform and the architecture. */
  cli: string[];
}

export const TARGETS: Record<TargetId, Target> = {
  'linux-x64': { id: 'linux-x64', platform: 'linux', arch: 'x64', cli: ['--linux', '--x64'] },
  'linux-arm64': { id: 'linux-arm64', platform: 'linux', arch: 'arm64', cli: ['--linux', '--arm64'] },
  'win-x64': { id: 'win-x64', platform: 'win32', arch: 'x64', cli: ['--win', '--x64'] },
  'mac-arm64': { id: 'mac-arm64', platform: 'darwin', arch: 'arm64', cli: ['--mac', '--arm64'] },
};

/** Unpacked from app.asar: every package with native parts (see the packaging test). */
export const ASAR_UNPACK = [
  'node_modules/better-sqlite3/**',
  'node_modules/sharp/**',
  'node_modules/@img/**',
  'node_modules/onnxruntime-node/**',
  'node_modules/usearch/**',
  'node_modules/@napi-rs/**',
  'node_modules/sqlite-vec/**',
  'node_modules/sqlite-vec-*/**',
  'node_modules/ffmpeg-static/**',
];

const ORT = 'node_modules/onnxruntime-node/bin/napi-v6';

/** onnxruntime-node 1.30's binaries, per platform/arch folder (ls node_modules/onnxruntime-node/bin/napi-v6). */
export const ONNXRUNTIME_FILES: Record<string, string[]> = {
  'darwin/arm64': ['libonnxruntime.1.30.0.dylib', 'libonnxruntime.1.dylib', 'onnxruntime_binding.node'],
  'linux/arm64': ['libonnxruntime.so.1', 'onnxruntime_binding.node'],
  'linux/x64': ['libonnxruntime.so.1', 'onnxruntime_binding.node'],
  'win32/arm64': ['DirectML.dll', 'dxcompiler.dll', 'dxil.dll', 'onnxruntime.dll', 'onnxruntime_binding.node'],
  'win32/x64': ['DirectML.dll', 'dxcompiler.dll', 'dxil.dll', 'onnxruntime.dll', 'onnxruntime_binding.node'],
};

const SQLITE = 'node_modules/better-sqlite3/prebuilds';
/** better-sqlite3 13's prebuilt addons (node_modules/better-sqlite3/prebuilds), by the platform-arch each serves. */
export const BETTER_SQLITE3_PREBUILDS: Record<string, string[]> = {
  'darwin/arm64': ['darwin-arm64.node'],
  'darwin/x64': ['darwin-x64.node'],
  'linux/arm64': ['linux-arm64.node', 'linuxmusl-arm64.node'],
  'linux/x64': ['linux-x64.node', 'linuxmusl-x64.node'],
  'win32/arm64': ['win32-arm64.node'],
  'win32/x64': ['win32-x64.node'],
};

const USEARCH = 'node_modules/usearch/prebuilds';
/** usearch 2.26's prebuilt addons (node_modules/usearch/prebuilds/<folder>/usearch.node); one macOS file serves both archs. */
export const USEARCH_PREBUILDS: Record<string, string[]> = {
  'darwin/arm64': ['darwin-arm64+x64/usearch.node'],
  'linux/arm64': ['linux-arm64/usearch.node'],
  'linux/x64': ['linux-x64/usearch.node'],
  'win32/x64': ['win32-x64/usearch.node'],
};

/** The files of other platforms and architectures that a target leaves out, one by one. */
export function prunedFiles(target: Target): string[] {
  const mine = `${target.platform}/${target.arch}`;
  const others = <T>(table: Record<string, T>) => Object.entries(table).filter(([key]) => key !== mine);
  return [
    ...others(ONNXRUNTIME_FILES).flatMap(([dir, files]) => files.map((f) => `${ORT}/${dir}/${f}`)),
    ...others(BETTER_SQLITE3_PREBUILDS).flatMap(([, files]) => files.map((f) => `${SQLITE}/${f}`)),
    ...others(USEARCH_PREBUILDS).flatMap(([, files]) => files.map((f) => `${USEARCH}/${f}`)),
  ];
}

/** The files a target keeps of the tables above (what its app needs at run time). */
export function keptFiles(target: Target): string[] {
  const mine = `${target.platform}/${target.arch}`;
  return [
    ...(ONNXRUNTIME_FILES[mine] ?? []).map((f) => `${ORT}/${mine}/${f}`),
    ...(BETTER_SQLITE3_PREBUILDS[mine] ?? []).map((f) => `${SQLITE}/${f}`),
    ...(USEARCH_PREBUILDS[mine] ?? []).map((f) => `${USEARCH}/${f}`),
  ];
}

export function builderConfig(target: Target): Record<string, unknown> {
  const platformConfig =
    target.platform === 'linux'
      ? { linux: { target: ['AppImage', 'deb'], category: 'Graphics', maintainer: 'Hearth <hearth@localhost>', synopsis: 'Household photo library' } }
      : target.platform === 'win32'
        ? { win: { target: 'nsis' }, nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true } }
        : { mac: { target: 'dmg', category: 'public.app-category.photography' } };
  return {
    appId: 'app.hearth.desktop',
    productName: 'Hearth',
    directories: { output: `release/${target.id}` },
    files: [
      'electron/dist/**',
      'package.json',
      'node_modules/**',
      '!node_modules/.cache/**',
      // The server's source maps stay (stack traces in the log lead back to server/src); the compile cache does not.
      '!electron/dist/server/.compile-cache/**',
      // Sources for a compile that never happens (npmRebuild: false, prebuilt addons): ~10 MB.
      '!node_modules/better-sqlite3/deps/**',
      '!node_modules/better-sqlite3/src/**',
      ...prunedFiles(target).map((f) => `!${f}`),
    ],
    extraResources: [
      { from: 'renderer/dist', to: 'renderer/dist' },
      { from: 'models', to: 'models' },
    ],
    asarUnpack: ASAR_UNPACK,
    npmRebuild: false,
    buildDependenciesFromSource: false,
    ...platformConfig,
  };
}
