/**
 * A real WebDAV server for the provider tests: Debian's rclone (`rclone serve webdav`) over a folder, on a free
 * loopback port, optionally over HTTPS with a certificate the test made. Started per test file, killed on close.
 * rclone is required, never skipped for: CI installs it (.ci/run) the way it installs ffmpeg.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const RCLONE = process.env.RCLONE_PATH ?? '/usr/bin/rclone';

export interface RcloneWebdav {
  /** The WebDAV address of the served folder ('/' at the end). */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface RcloneWebdavOptions {
  dir: string;
  user: string;
  pass: string;
  /** PEM files: serve HTTPS with this certificate. */
  tls?: { cert: string; key: string };
  /** Default: a free port. */
  port?: number;
  /**
   * rclone's directory cache. Default '0s': a changed or deleted file shows in the very next listing. rclone
   * then reads a folder again for every entry it describes (about 1 s per 100 files), so a test of many
   * unchanging files passes a longer time.
   */
  dirCacheTime?: string;
}

function requireRclone(): void {
  if (spawnSync(RCLONE, ['version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(`rclone is missing (${RCLONE}): the WebDAV tests run against it. Install it with "apt-get install rclone" (CI's .ci/run does).`);
  }
}

/** A port nothing listens on right now (the kernel picks it; closed again before it is used). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startRcloneWebdav(opts: RcloneWebdavOptions): Promise<RcloneWebdav> {
  requireRclone();
  const port = opts.port ?? (await freePort());
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-rclone-'));
  const config = path.join(configDir, 'rclone.conf');
  fs.writeFileSync(config, '');
  const args = ['serve', 'webdav', opts.dir, '--config', config, '--addr', `127.0.0.1:${port}`, '--user', opts.user, '--pass', opts.pass];
  args.push('--dir-cache-time', opts.dirCacheTime ?? '0s', '--poll-interval', '0');
  if (opts.tls) args.push('--cert', opts.tls.cert, '--key', opts.tls.key);
  const child: ChildProcess = spawn(RCLONE, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const close = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(configDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`rclone serve webdav exited (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) {
      await close();
      throw new Error(`rclone serve webdav did not listen on ${port} within 15 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}/`, port, close };
}

export interface SelfSignedCert {
  cert: string;
  key: string;
  /** SHA-256, colon hex (as Node spells fingerprint256). */
  fingerprint: string;
}

/** A fresh self-signed certificate for 127.0.0.1 and localhost, as a NAS box ships one (openssl req -x509). */
export function makeSelfSignedCert(dir: string, name: string): SelfSignedCert {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${name}`,
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', key, '-out', cert],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl req -x509 failed: ${made.stderr}`);
  return { cert, key, fingerprint: new crypto.X509Certificate(fs.readFileSync(cert)).fingerprint256 };
}
