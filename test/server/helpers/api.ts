/**
 * Variant-aware helpers over Client: `data()` unwraps the variant B envelope (asserting its shape),
 * and the sign-in helpers keep the client's token (and, in variant B, its refresh token) current.
 */
import assert from 'node:assert/strict';
import { Client, type HttpResult } from './server.ts';

export const V1 = '/api/v1';
export const PASSWORD = 'correct horse battery';

/** The payload of a response in either variant. In B, also checks the envelope. */
export function data<T = any>(client: Client, r: HttpResult): T {
  if (client.variant === 'A') return r.body as T;
  assert.equal(typeof r.body, 'object', `variant B answer must be a JSON envelope: ${r.text}`);
  assert.deepEqual(Object.keys(r.body).sort(), ['code', 'data', 'error', 'message']);
  if (r.status < 400) {
    assert.equal(r.body.code, 0);
    assert.equal(r.body.error, '');
  } else {
    assert.equal(r.body.code, r.status);
    assert.ok(r.body.error, 'a failed B answer names its error');
  }
  return r.body.data as T;
}

/** The problem document of a failed JSON response in either variant. */
export function problem(client: Client, r: HttpResult) {
  assert.ok(r.status >= 400, `expected a failure, got ${r.status}: ${r.text}`);
  if (client.variant === 'A') assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const p = data(client, r);
  assert.equal(p.status, r.status);
  assert.equal(typeof p.type, 'string');
  assert.equal(typeof p.title, 'string');
  assert.equal(typeof p.detail, 'string');
  assert.equal(typeof p.code, 'string');
  assert.ok(!/\bat\s+\S+\s+\(|node_modules|\.ts:\d+/.test(r.text), `no stack trace in a response: ${r.text}`);
  return p as { status: number; code: string; detail: string; errors?: { field: string; message: string }[]; run_id?: string; fingerprint?: string };
}

export interface Signed {
  session: any;
  refreshToken: string | undefined;
}

/** Applies a Session answer to the client: bearer token, and the B refresh token. */
export function adopt(client: Client, r: HttpResult, expectStatus = 200): Signed {
  assert.equal(r.status, expectStatus, r.text);
  const s = data(client, r);
  client.token = s.token;
  return { session: s, refreshToken: s.refresh_token };
}

export async function registerAdmin(client: Client, username = 'alice'): Promise<Signed> {
  return adopt(client, await client.post(`${V1}/auth/register`, { username, password: PASSWORD, display_name: 'Alice' }), 201);
}

export async function login(client: Client, username: string, password = PASSWORD): Promise<Signed> {
  return adopt(client, await client.post(`${V1}/auth/login`, { username, password }));
}

/** Opens registration with an invite code (as admin) and registers a household member. */
export async function addMember(admin: Client, member: Client, username: string): Promise<Signed> {
  const r = await admin.patch(`${V1}/settings/system`, { registration: { mode: 'invite_code', invite_code: 'family-2026' } });
  assert.equal(r.status, 200, r.text);
  return adopt(member, await member.post(`${V1}/auth/register`, { username, password: PASSWORD, invite_code: 'family-2026' }), 201);
}

/**
 * A household on the server at `url`: the administrator (alice) and the named members, each signed in
 * with a client speaking response variant `variant`.
 */
export async function signedInHousehold<M extends string>(url: string, variant: 'A' | 'B', memberNames: readonly M[]): Promise<{ admin: Client; members: Record<M, { client: Client; id: number }> }> {
  const admin = new Client(url, variant);
  await registerAdmin(admin);
  const members = {} as Record<M, { client: Client; id: number }>;
  for (const name of memberNames) {
    const client = new Client(url, variant);
    members[name] = { client, id: (await addMember(admin, client, name)).session.user.user_id };
  }
  return { admin, members };
}

