/**
 * The host channel: a second HTTP listener, local to this machine, through which the person at the home
 * machine (the desktop app, or `npm run host`) sees and approves host actions. Approvals never travel over
 * the network: the listener is a Unix socket (a named pipe on Windows) only the data folder's owner can open
 * (host-channel.paths.ts), and every request must also carry the token written beside it at each start
 * (a wrong or missing one is 401), which covers Windows pipes and a container sharing the uid. It is never
 * the LAN port: `/host/...` on the HTTP server answers 404 (app.ts).
 *
 * Routes under /host/v1 (JSON; errors problem+json): GET /actions?status=, GET /actions/:id,
 * POST /actions/:id/approve {path}, POST /actions/:id/deny, GET /events (server-sent `host_action` events
 * and a `: ping` comment every 15 s); GET /indexing and PUT /indexing {paused} (the tray's "Pause indexing":
 * the machine's owner decides when its CPU is the household's, so it is a home-machine control, not an API one). The answers here are for the person at the machine: they may name
 * the folder they chose in a problem's detail; nothing of it reaches a member (approval.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { DomainError } from '../../platform/http/errors.ts';
import { makeProblem, problemResponse } from '../../platform/http/problem.ts';
import type { Logger } from '../../platform/logger.ts';
import type { HostApproval } from './approval.ts';
import type { HostActionEvents } from './host-action-events.ts';
import { HOST_ACTION_STATUSES, toHostView } from './host-actions.view.ts';
import { HOST_CHANNEL_BASE, HOST_TOKEN_HEADER, hostChannelPaths, type HostChannelPaths } from './host-channel.paths.ts';

const PING_MS = 15_000;

/** Pausing and resuming indexing (features/jobs/indexing-pause.ts), which only the home machine may do. */
export interface IndexingControl {
  state(): { paused: boolean; paused_at: string | null };
  set(paused: boolean): { paused: boolean; paused_at: string | null };
}

export interface HostChannelDeps {
  dataDir: string;
  approval: HostApproval;
  events: HostActionEvents;
  indexing: IndexingControl;
  log: Logger;
  platform?: NodeJS.Platform;
}

export class HostChannelServer {
  readonly paths: HostChannelPaths;
  private server: http.Server | null = null;
  private token: Buffer | null = null;
  private readonly streams = new Set<() => void>();

  constructor(private readonly d: HostChannelDeps) {
    this.paths = hostChannelPaths(d.dataDir, d.platform);
  }

  /** Writes a new token, then listens (a socket file left by a crash is removed first). */
  async start(): Promise<void> {
    if (this.server) return;
    const { dir, socket, token } = this.paths;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    const secret = crypto.randomBytes(32).toString('hex');
    fs.rmSync(token, { force: true });
    fs.writeFileSync(token, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    this.token = crypto.createHash('sha256').update(secret).digest();
    if (!socket.startsWith('\\\\')) fs.rmSync(socket, { force: true });
    const server = http.createServer(getRequestListener(this.app().fetch));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => {
        server.off('error', reject);
        resolve();
      });
    });
    if (!socket.startsWith('\\\\')) fs.chmodSync(socket, 0o600);
    this.server = server;
    this.d.log.info('host channel open (approvals from this machine only)');
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const end of [...this.streams]) end();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // The socket file goes with it, unless another start on this data folder took the channel over meanwhile
    // (its token is in the file then): that server's socket is not ours to remove.
    if (!this.paths.socket.startsWith('\\\\') && this.ownsToken()) fs.rmSync(this.paths.socket, { force: true });
  }

  private ownsToken(): boolean {
    try {
      const onDisk = crypto.createHash('sha256').update(fs.readFileSync(this.paths.token, 'utf8').trim()).digest();
      return this.token !== null && crypto.timingSafeEqual(onDisk, this.token);
    } catch {
      return true;
    }
  }

  private app(): Hono {
    const app = new Hono();
    const { approval, events } = this.d;
    app.use('*', async (c, next) => {
      const sent = c.req.header(HOST_TOKEN_HEADER) ?? '';
      const ok = this.token !== null && crypto.timingSafeEqual(crypto.createHash('sha256').update(sent).digest(), this.token);
      if (!ok) return problemResponse(makeProblem(401, 'host_token_invalid', `Send the token of the data folder's host/token file as ${HOST_TOKEN_HEADER}.`));
      return next();
    });
    const base = HOST_CHANNEL_BASE;
    app.get(`${base}/actions`, (c) => {
      const status = c.req.query('status');
      if (status !== undefined && !(HOST_ACTION_STATUSES as readonly string[]).includes(status)) {
        throw new DomainError(422, 'validation_failed', `status must be one of ${HOST_ACTION_STATUSES.join(', ')}.`);
      }
      return c.json({ items: approval.list(status as (typeof HOST_ACTION_STATUSES)[number] | undefined) });
    });
    app.get(`${base}/actions/:id`, (c) => c.json(approval.get(c.req.param('id'))));
    app.post(`${base}/actions/:id/approve`, async (c) => {
      const body = (await c.req.json().catch(() => null)) as { path?: unknown } | null;
      return c.json(approval.approve(c.req.param('id'), body?.path));
    });
    app.post(`${base}/actions/:id/deny`, (c) => c.json(approval.deny(c.req.param('id'))));
    app.get(`${base}/indexing`, (c) => c.json(this.d.indexing.state()));
    app.put(`${base}/indexing`, async (c) => {
      const body = (await c.req.json().catch(() => null)) as { paused?: unknown } | null;
      if (typeof body?.paused !== 'boolean') throw new DomainError(422, 'validation_failed', 'Send {"paused": true} or {"paused": false}.');
      return c.json(this.d.indexing.set(body.paused));
    });
    app.get(`${base}/events`, (c) =>
      streamSSE(c, async (stream) => {
        let end!: () => void;
        const done = new Promise<void>((resolve) => (end = resolve));
        this.streams.add(end);
        stream.onAbort(end);
        const off = events.on((row) => void stream.writeSSE({ event: 'host_action', data: JSON.stringify(toHostView(row)) }));
        const ping = setInterval(() => void stream.write(': ping\n\n'), PING_MS);
        try {
          await stream.write(': ping\n\n');
          await done;
        } finally {
          clearInterval(ping);
          off();
          this.streams.delete(end);
        }
      }),
    );
    app.notFound(() => problemResponse(makeProblem(404, 'route_not_found', 'No such host channel route.')));
    app.onError((err) => {
      if (err instanceof DomainError) return problemResponse(makeProblem(err.status, err.code, err.message, { errors: err.extra.errors }));
      this.d.log.error({ err }, 'host channel request failed');
      return problemResponse(makeProblem(500, 'internal_error', 'Something went wrong on the server. It has been logged.'));
    });
    return app;
  }
}
