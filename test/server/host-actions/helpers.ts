/**
 * Host action test helpers: a server with an administrator (alice) and two members (bob, carol); the host
 * channel's real client over the real socket (as the desktop app and `npm run host` use it); folders of
 * corpus photos in temporary folders; a watch on every member answer, so a test can check that none of them
 * ever named a folder path.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before } from 'node:test';
import { data, V1 } from '../helpers/api.ts';
import { signedInHousehold } from '../helpers/api.ts';
import { Client, startServer, type HttpResult, type TestServer } from '../helpers/server.ts';
import { cleanupTemps, copyIn, tempDir } from '../repositories/helpers.ts';
import { createHostChannelClient, type HostChannelClient } from '../../../server/src/features/host-actions/host-channel.client.ts';

export { waitFor } from '../repositories/helpers.ts';

export interface HostEnv {
  srv: TestServer;
  admin: Client;
  bob: Client;
  carol: Client;
  host: HostChannelClient;
  /** Every answer a member (or the administrator) got, as text: no folder path may be in any. */
  answers: string[];
}

/** Answers of `client` are kept in `answers` (for the no-path check). */
function recording(client: Client, answers: string[]): Client {
  const req = client.req.bind(client);
  client.req = (async (...args: Parameters<Client['req']>) => {
    const r = await req(...args);
    answers.push(r.text);
    return r;
  }) as Client['req'];
  return client;
}

/** `client`'s session speaking response variant `variant`, its answers kept with the others. */
export function speaking(env: HostEnv, client: Client, variant: 'A' | 'B'): Client {
  const twin = new Client(client.base, variant);
  twin.token = client.token;
  return recording(twin, env.answers);
}

/** A server (its host channel listening) and its household, started before the suite's tests and stopped after. */
export function useHostEnv(set: (env: HostEnv) => void, variant: 'A' | 'B' = 'A'): void {
  let env: HostEnv | undefined;
  before(async () => {
    const srv = await startServer();
    await srv.container.hostChannel.listening;
    const { admin, members } = await signedInHousehold(srv.url, variant, ['bob', 'carol'] as const);
    const answers: string[] = [];
    env = { srv, admin: recording(admin, answers), bob: recording(members.bob.client, answers), carol: recording(members.carol.client, answers), host: createHostChannelClient({ dataDir: srv.dataDir }), answers };
    set(env);
  });
  after(async () => {
    await env?.srv.stop({ removeData: true });
    cleanupTemps();
  });
}

/** A temporary folder holding two corpus photos (no marker: a folder as a person has it). */
export function photoFolder(): string {
  const dir = tempDir('hearth-host-');
  copyIn(dir, 'beach.jpg', 'exif/Canon_40D.jpg');
  copyIn(dir, 'trip/bee.jpg', 'duplicates/bee.jpg');
  return dir;
}

/** Creates a host action as `client`; answers the HTTP result (a fresh key unless given). */
export function ask(client: Client, body: Record<string, unknown> = {}, key: string | null = crypto.randomUUID()): Promise<HttpResult> {
  return client.post(`${V1}/host-actions`, { kind: 'open_repository', name: 'Holiday', purpose: 'regular', ...body }, key === null ? {} : { headers: { 'idempotency-key': key } });
}

/** Creates a host action as `client` and answers it (asserting 201). */
export async function asked(client: Client, body: Record<string, unknown> = {}): Promise<any> {
  const r = await ask(client, body);
  assert.equal(r.status, 201, r.text);
  return data(client, r);
}

/** Fails when any answer kept names one of `dirs` (a folder path, or the data folder). */
export function assertNoPathIn(answers: readonly string[], dirs: readonly string[]): void {
  assert.ok(answers.length > 0);
  for (const text of answers) {
    for (const d of dirs) assert.ok(!text.includes(d), `an answer names a path (${d}): ${text.slice(0, 300)}`);
  }
}
