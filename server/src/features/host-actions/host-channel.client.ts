/**
 * The client of the host channel (host-channel.server.ts), for the `npm run host` command and the desktop
 * app: `createHostChannelClient({ dataDir })`. It finds the socket (or pipe) and reads the token file itself
 * at every request (the server writes a new token at each start), so a long-lived client survives a restart.
 * Imports nothing of the server but the path rule.
 */
import fs from 'node:fs';
import http from 'node:http';
import { HOST_CHANNEL_BASE, HOST_TOKEN_HEADER, hostChannelPaths } from './host-channel.paths.ts';

/** A host action as the home machine sees it: the API's fields, who asked, and the code. */
export interface HostActionForHost {
  id: string;
  kind: 'open_repository';
  status: 'pending' | 'presented' | 'running' | 'needs_decision' | 'completed' | 'failed' | 'cancelled' | 'expired';
  actor: { user_id: number; username: string };
  requester: { user_id: number; username: string; display_name: string };
  name: string;
  purpose: string;
  code: string;
  version: number;
  repository_id: string | null;
  root_id: string | null;
  request_id: string | null;
  expected_version: number | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  cancel_reason: 'member_cancelled' | 'host_denied' | null;
  problem: { code: string; detail: string; retryable: boolean } | null;
  result: {
    name: string | null;
    repository_id: string | null;
    root_id: string | null;
    conflict: { type: string; repository_id: string | null; root_id: string | null; allowed_resolutions: string[]; risk_warnings: string[] } | null;
  } | null;
}

export interface HostChannelClient {
  /** `status` (e.g. `pending`); without it, the actions waiting for someone. Listing moves pending ones to presented. */
  list(status?: HostActionForHost['status']): Promise<HostActionForHost[]>;
  get(id: string): Promise<HostActionForHost>;
  approve(id: string, path: string): Promise<HostActionForHost>;
  deny(id: string): Promise<HostActionForHost>;
  /** Calls `onAction` for every action created or changed, reconnecting after a restart; the answer stops. */
  subscribe(onAction: (a: HostActionForHost) => void): () => void;
  /** Whether indexing is paused on this machine (features/jobs/indexing-pause.ts). */
  indexing(): Promise<IndexingState>;
  /** Pauses or resumes indexing; answers the new state. */
  setIndexingPaused(paused: boolean): Promise<IndexingState>;
}

export interface IndexingState {
  paused: boolean;
  paused_at: string | null;
}

/** A refusal of the server (a problem document), or the channel not reachable (`status` 0, `code` `host_channel_unreachable`). */
export class HostChannelError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HostChannelError';
  }
}

export function createHostChannelClient(o: { dataDir: string; platform?: NodeJS.Platform }): HostChannelClient {
  const paths = hostChannelPaths(o.dataDir, o.platform);

  const token = (): string => {
    try {
      return fs.readFileSync(paths.token, 'utf8').trim();
    } catch (e) {
      throw new HostChannelError(0, 'host_channel_unreachable', `Cannot read the host token (${(e as NodeJS.ErrnoException).code ?? 'error'}): is Hearth running on this machine with this data folder, as this user?`);
    }
  };

  const request = (method: string, p: string, body?: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = { [HOST_TOKEN_HEADER]: token(), accept: 'application/json' };
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const req = http.request({ socketPath: paths.socket, path: `${HOST_CHANNEL_BASE}${p}`, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = null;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON: reported below */
          }
          if ((res.statusCode ?? 500) >= 400) {
            const problem = (json ?? {}) as { code?: string; detail?: string };
            reject(new HostChannelError(res.statusCode ?? 500, problem.code ?? 'error', problem.detail ?? text));
          } else resolve(json);
        });
      });
      req.on('error', (e: NodeJS.ErrnoException) =>
        reject(new HostChannelError(0, 'host_channel_unreachable', `The host channel does not answer (${e.code ?? e.message}): is Hearth running on this machine with this data folder?`)),
      );
      req.end(payload);
    });

  const id = (s: string) => encodeURIComponent(s);
  return {
    list: async (status) => ((await request('GET', `/actions${status ? `?status=${encodeURIComponent(status)}` : ''}`)) as { items: HostActionForHost[] }).items,
    get: async (a) => (await request('GET', `/actions/${id(a)}`)) as HostActionForHost,
    approve: async (a, dir) => (await request('POST', `/actions/${id(a)}/approve`, { path: dir })) as HostActionForHost,
    deny: async (a) => (await request('POST', `/actions/${id(a)}/deny`, {})) as HostActionForHost,
    indexing: async () => (await request('GET', '/indexing')) as IndexingState,
    setIndexingPaused: async (paused) => (await request('PUT', '/indexing', { paused })) as IndexingState,
    subscribe(onAction) {
      let stopped = false;
      let current: http.ClientRequest | null = null;
      let retry: NodeJS.Timeout | null = null;
      const connect = () => {
        if (stopped) return;
        let headers: Record<string, string>;
        try {
          headers = { [HOST_TOKEN_HEADER]: token(), accept: 'text/event-stream' };
        } catch {
          retry = setTimeout(connect, 1000);
          return;
        }
        current = http.request({ socketPath: paths.socket, path: `${HOST_CHANNEL_BASE}/events`, method: 'GET', headers }, (res) => {
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const lines = block.split('\n');
              const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
              const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
              if (event === 'host_action' && data) onAction(JSON.parse(data) as HostActionForHost);
            }
          });
          res.on('end', () => {
            if (!stopped) retry = setTimeout(connect, 1000);
          });
        });
        current.on('error', () => {
          if (!stopped) retry = setTimeout(connect, 1000);
        });
        current.end();
      };
      connect();
      return () => {
        stopped = true;
        if (retry) clearTimeout(retry);
        current?.destroy();
      };
    },
  };
}
