/**
 * `npm run package:desktop -- <target>`: the desktop package of one target (electron/packaging/builder-config.ts:
 * linux-x64, linux-arm64, win-x64, win-arm64, mac-arm64), built on that platform. Builds the web UI and the
 * app bundle, writes the target's electron-builder configuration to release/<target>/electron-builder.json,
 * and runs electron-builder with it (fetched by npx: it is not a dependency of the project; it downloads
 * Electron and its packaging tools, so this needs the internet).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { builderConfig, TARGETS, type TargetId } from '../electron/packaging/builder-config.ts';

const ELECTRON_BUILDER = 'electron-builder@26.17.0';
const root = path.resolve(import.meta.dirname, '..');
const id = process.argv[2] as TargetId | undefined;
const target = id ? TARGETS[id] : undefined;
if (!target) {
  console.error(`usage: npm run package:desktop -- <${Object.keys(TARGETS).join(' | ')}>`);
  process.exit(2);
}
const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('npm', ['run', 'build:ui']);
run('npm', ['run', 'build:electron']);
const file = path.join(root, 'release', target.id, 'electron-builder.json');
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(builderConfig(target), null, 2)}\n`);
run('npx', ['--yes', ELECTRON_BUILDER, '--config', file, ...target.cli, '--publish', 'never']);
