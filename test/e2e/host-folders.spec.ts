/**
 * "A folder on the home machine" (issue 29, point 5), against a server of its own. A member on a 390×844 touch phone
 * asks, by taps on the Import page, for a folder that only the home machine can reach; the person at the home
 * machine approves it through the command-line channel (`npm run host -- approve ID --path DIR`, the real script
 * over the real socket in the server's data folder), the phone follows the request live to "Added", and the
 * folder's photos arrive in the member's library. Then a copy of that folder (its marker says it is the repository
 * already registered) is asked for and approved: the phone shows the conflict in words with its choices, and "Add it
 * as a separate folder" (`add_separate`) completes it. No answer the phone gets carries a path.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { ROOT } from './child-server.ts';
import { addMember, call, waitForReady } from './household.ts';
import { device, expectAccessible, expectFingerSized, expectFits, openImport } from './import-page.ts';
import { CORPUS, withOwnServer } from './own-server.ts';

const ADMIN = { username: 'hestia', password: 'keeper-of-the-hearth', display_name: 'Hestia' };
const MEMBER = { username: 'demeter', password: 'harvest-of-photos', display_name: 'Demeter' };
/** The conflict test's member, with a disk of their own: the two tests run side by side. */
const COPIER = { username: 'hermes', password: 'messenger-of-copies', display_name: 'Hermes' };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const PHOTOS = ['exif/Canon_40D.jpg', 'exif/Nikon_D70.jpg'];

const test = withOwnServer('host-folders', []);

let tmp: string;

/** A folder on the home machine holding the two photos. */
function homeDisk(name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  for (const f of PHOTOS) fs.copyFileSync(path.join(CORPUS, f), path.join(dir, path.basename(f)));
  return dir;
}

test.beforeAll(async ({ playwright, hearth }) => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-home-disk-'));
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const admin = await call(req, 'post', '/api/v1/auth/register', null, { data: ADMIN });
  for (const m of [MEMBER, COPIER]) await addMember(req, admin.token as string, m);
  await req.dispose();
});

const login = async (req: APIRequestContext, m: { username: string; password: string }) =>
  (await call(req, 'post', '/api/v1/auth/login', null, { data: { username: m.username, password: m.password } })).token as string;

test.afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** `npm run host -- …` on the home machine: the real script over the server's host channel. */
function host(dataDir: string, ...args: string[]): string {
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'scripts/host.ts', ...args, '--data', dataDir], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run host -- ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

const card = (page: Page) => page.getByRole('region', { name: 'A folder on the home machine' });
const request = (page: Page, name: string) => card(page).getByTestId('host-action').filter({ has: page.getByRole('heading', { name }) });

/** Asks for a folder by taps and answers the request's id, read through the API as the member (the page shows the code). */
async function ask(page: Page, req: APIRequestContext, token: string, name: string): Promise<{ id: string; code: string }> {
  await card(page).getByLabel('Name for the folder').fill(name);
  await card(page).getByRole('button', { name: 'Ask the home machine' }).tap();
  const item = request(page, name);
  await expect(item.getByTestId('host-action-status')).toHaveText(/Waiting for the home machine|Shown on the home machine/);
  const code = ((await item.locator('.host-action__code strong').textContent()) ?? '').trim();
  expect(code).toMatch(/^\d{6}$/);
  const list = (await call(req, 'get', '/api/v1/host-actions', token)) as unknown as { id: string; name: string; code: string }[];
  const mine = list.find((a) => a.name === name)!;
  expect(mine.code).toBe(code);
  return { id: mine.id, code };
}

test('a member on a phone asks for a folder, the home machine approves it on the command line, and the photos arrive', async ({ browser, playwright, hearth }) => {
  const disk = homeDisk('Big disk photos');
  const page = await device(browser, hearth.url, PHONE, MEMBER);
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const token = await login(req, MEMBER);
  await openImport(page, 'tap');
  await expect(card(page)).toBeVisible();
  await expectFingerSized(card(page).getByRole('button', { name: 'Ask the home machine' }));

  // An empty name is refused on the phone, before anything is asked.
  await card(page).getByRole('button', { name: 'Ask the home machine' }).tap();
  await expect(card(page).getByText('Give the folder a name')).toBeVisible();

  const { id, code } = await ask(page, req, token, 'Big disk');
  // The home machine lists the request with the same code, and who asks.
  const listed = host(hearth.dataDir, 'list');
  expect(listed).toContain(id);
  expect(listed).toContain(code);
  expect(listed).toContain(MEMBER.username);
  await expectFits(page);
  await expectAccessible(page);

  const approved = host(hearth.dataDir, 'approve', id, '--path', disk);
  expect(approved).toContain('Done');
  // The phone follows it live (no reload) to done, and the folder's photos come into the member's library.
  const item = request(page, 'Big disk');
  await expect(item.getByTestId('host-action-status')).toHaveText('Added', { timeout: 30_000 });
  await waitForReady(req, token, PHOTOS.length);
  await item.getByRole('link', { name: 'See the photos' }).tap();
  // The Photos page the phone showed empty at sign-in is read again: the folder's photos are there.
  const grid = page.getByRole('list', { name: 'Photos and videos' });
  for (const f of PHOTOS) await expect(grid.getByRole('button', { name: path.basename(f) })).toBeVisible();

  // Nothing the member's device reads names the folder's place on the home machine.
  const everything = JSON.stringify(await call(req, 'get', '/api/v1/host-actions', token)) + JSON.stringify(await call(req, 'get', `/api/v1/host-actions/${id}`, token));
  expect(everything).not.toContain(tmp);
  await req.dispose();
  await page.context().close();
});

test('a copy of a registered folder shows the conflict in words on the phone, and “Add it as a separate folder” adds it', async ({ browser, playwright, hearth }) => {
  const disk = homeDisk('Holiday disk');
  const page = await device(browser, hearth.url, PHONE, COPIER);
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const token = await login(req, COPIER);
  // The folder is registered first (through the API and the command line: the test before shows the screens).
  const first = (await call(req, 'post', '/api/v1/host-actions', token, { headers: { 'Idempotency-Key': 'holiday-disk' }, data: { kind: 'open_repository', name: 'Holiday disk', purpose: 'regular' } })) as { id: string };
  expect(host(hearth.dataDir, 'approve', first.id, '--path', disk)).toContain('Done');
  // A copy of it, marker and all (someone copied the disk's folder to another place).
  const copy = path.join(tmp, 'Copy of the holiday disk');
  fs.cpSync(disk, copy, { recursive: true });

  await openImport(page, 'tap');
  const { id } = await ask(page, req, token, 'The copy');
  const out = host(hearth.dataDir, 'approve', id, '--path', copy);
  expect(out).toContain('Not added yet');

  const item = request(page, 'The copy');
  await expect(item.getByTestId('host-action-status')).toHaveText('Your choice is needed', { timeout: 30_000 });
  await expect(item.getByText('Either it was moved here, or it is a copy')).toBeVisible();
  await expect(item.getByText('still at its old place')).toBeVisible();
  const choices = item.getByRole('group', { name: 'Choose what to do with The copy' });
  await expect(choices.getByRole('button')).toHaveText(['It was moved here', 'Add it as a separate folder', 'Leave it']);
  await expectFingerSized(choices.getByRole('button', { name: 'Add it as a separate folder' }));
  await expectFits(page);

  await choices.getByRole('button', { name: 'Add it as a separate folder' }).tap();
  await expect(item.getByTestId('host-action-status')).toHaveText('Added', { timeout: 30_000 });
  const done = (await call(req, 'get', `/api/v1/host-actions/${id}`, token)) as { status: string; repository_id: string | null };
  expect(done.status).toBe('completed');
  expect(done.repository_id).toBeTruthy();
  expect(JSON.stringify(done)).not.toContain(tmp);
  await req.dispose();
  await page.context().close();
});
