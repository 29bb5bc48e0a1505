/**
 * Uploading a photo again whose earlier copy is in the person's Trash, through the Upload page: the
 * row says it was restored from the Trash (not "Duplicate", not a second copy), and the photo is
 * back in Photos. Seeded through the API on a server of its own (variant B envelopes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { withOwnServer } from './own-server.ts';

const ADMIN = { username: 'persephone', password: 'back-every-spring' };
const PHOTO = 'gps/DSCN0010.jpg';
const NAME = path.basename(PHOTO);

const test = withOwnServer('upload-restore', [PHOTO]);

async function call(req: APIRequestContext, method: 'get' | 'post' | 'delete', url: string, token: string | null, options: Record<string, unknown> = {}) {
  const r = await req[method](url, { ...options, headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  const body = (await r.json()) as { code: number; data: unknown };
  expect(r.ok(), `${method} ${url}: ${JSON.stringify(body)}`).toBeTruthy();
  return body.data as Record<string, unknown>;
}

test('a photo uploaded again from the Trash shows as restored and is back in Photos', async ({ page, playwright, hearth }) => {
  test.setTimeout(120_000);
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const token = (await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Persephone' } })).token as string;
  const bytes = fs.readFileSync(path.join(hearth.files, NAME));
  const first = await call(req, 'post', '/api/v1/uploads/files', token, { multipart: { file: { name: NAME, mimeType: 'image/jpeg', buffer: bytes } } });
  await call(req, 'delete', `/api/v1/assets/${first.asset_id as string}`, token);
  await req.dispose();

  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto('/');
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No photos yet' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload', exact: true }).click();
  await page.getByLabel('Choose files').setInputFiles([path.join(hearth.files, NAME)]);
  const row = page.getByRole('list', { name: 'Upload queue' }).getByRole('listitem', { name: NAME, exact: true });
  await expect(row.getByText(/^Restored from your Trash/)).toBeVisible({ timeout: 60_000 });
  await expect(row.getByText(/Duplicate/)).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('upload-restored.png'), fullPage: true });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Photos', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Photos and videos' }).getByRole('listitem')).toHaveCount(1);
});
