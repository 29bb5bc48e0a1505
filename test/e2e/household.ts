/**
 * What the browser specs that bring their own server share: calls to the API in response variant B
 * (how the web UI's client asks), uploading files and waiting until they are processed, and signing
 * in through the sign-in page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** One API call; variant B envelopes `{code, data, error, message}` are unwrapped to `data`. */
export async function call(req: APIRequestContext, method: 'get' | 'post', url: string, token: string | null, options: Record<string, unknown> = {}) {
  const send = () => req[method](url, { ...options, headers: { ...(options.headers as Record<string, string> | undefined), ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  // A kept-alive socket the server closed as idle (Node's 5 s) just as a GET was sent on it is reset. Browsers send
  // such an idempotent request again on a fresh socket; Playwright's request context does not, so a GET does it here.
  const r = await send().catch((e: Error) => {
    if (method !== 'get' || !/ECONNRESET|socket hang up/.test(e.message)) throw e;
    return send();
  });
  const body = (await r.json()) as { code: number; data: unknown };
  expect(r.ok(), `${method} ${url}: ${JSON.stringify(body)}`).toBeTruthy();
  return body.data as Record<string, unknown>;
}

/** Uploads each of `files` (found by base name in `dir`) and waits until all of them are processed. */
export async function uploadAndWait(req: APIRequestContext, token: string, dir: string, files: readonly string[]): Promise<void> {
  for (const f of files) {
    const name = path.basename(f);
    await call(req, 'post', '/api/v1/uploads/files', token, {
      multipart: { file: { name, mimeType: 'application/octet-stream', buffer: fs.readFileSync(path.join(dir, name)) } },
    });
  }
  await waitForReady(req, token, files.length);
}

/** Waits until `count` of the member's items (the first 50) are processed (`ready`). */
export async function waitForReady(req: APIRequestContext, token: string, count: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const list = await call(req, 'post', '/api/v1/assets/query', token, { data: { pagination: { limit: 50 } } });
        const items = list.items as { media_item: { primary_asset: { state: string } } }[];
        return items.filter((i) => i.media_item.primary_asset.state === 'ready').length;
      },
      { timeout: 120_000 },
    )
    .toBe(count);
}

/** Signs in on the sign-in page and waits for the Photos page. */
export async function signIn(page: Page, account: { username: string; password: string }): Promise<void> {
  await page.goto('/');
  await page.getByLabel('User name').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();
}

const INVITE_CODE = 'e2e-household-2026';

/** A second member of the household: the administrator opens registration by invite code, the member registers. */
export async function addMember(req: APIRequestContext, adminToken: string, account: { username: string; password: string; display_name: string }) {
  const r = await req.patch('/api/v1/settings/system', {
    data: { registration: { mode: 'invite_code', invite_code: INVITE_CODE } },
    headers: { Authorization: `Bearer ${adminToken}` },
  });
  expect(r.ok(), `open registration: ${await r.text()}`).toBeTruthy();
  return call(req, 'post', '/api/v1/auth/register', null, { data: { ...account, invite_code: INVITE_CODE } });
}
