/**
 * Where the host channel lives for a data folder (HOST-CHANNEL.md), shared by the server, the `npm run host`
 * command and the desktop app, so all three find it the same way:
 * - POSIX: the Unix socket `<dataDir>/host/hearth-host.sock` (the `host/` folder mode 0700, the socket 0600);
 * - Windows: the named pipe `\\.\pipe\hearth-host-<first 16 hex of sha256(dataDir)>`;
 * - both: the token (32 random bytes, hex) in `<dataDir>/host/token` (mode 0600, rewritten at every start),
 *   sent as `X-Hearth-Host-Token` with every request.
 * Imports nothing of the server, so a client can use it without loading the server.
 */
import crypto from 'node:crypto';
import path from 'node:path';

export const HOST_TOKEN_HEADER = 'x-hearth-host-token';
export const HOST_CHANNEL_BASE = '/host/v1';

export interface HostChannelPaths {
  /** `<dataDir>/host` */
  dir: string;
  /** The socket file, or the named pipe on Windows. */
  socket: string;
  token: string;
}

export function hostChannelPaths(dataDir: string, platform: NodeJS.Platform = process.platform): HostChannelPaths {
  const data = path.resolve(dataDir);
  const dir = path.join(data, 'host');
  const socket = platform === 'win32' ? `\\\\.\\pipe\\hearth-host-${crypto.createHash('sha256').update(data).digest('hex').slice(0, 16)}` : path.join(dir, 'hearth-host.sock');
  return { dir, socket, token: path.join(dir, 'token') };
}
