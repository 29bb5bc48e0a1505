/**
 * Cloud import from a WebDAV server through the real UI (issue 28), against Debian's rclone serving a temporary
 * folder of corpus photos in nested folders on loopback (test/server/helpers/rclone-webdav.ts). Each test is a member
 * of their own, so each stands alone:
 * - on a desktop: Import from the navigation; a wrong password first, said in plain words; then the account connects
 *   and the folder browser opens; into Photos and back up by the breadcrumb; "Import this folder"; the counters
 *   reach Finished with the three photos imported, and Photos shows them; the same folder again says "Nothing new";
 *   a folder of something else is reported (the report names the file and why) and the CSV report downloads; a
 *   recent import opens again; Disconnect and Reconnect (with the stored sign-in: no password asked);
 * - a server with a self-signed certificate: the refusal shows its fingerprint, and ticking "Trust this certificate"
 *   connects;
 * - on a 390×844 touch phone, by taps (and the keyboard's Go to send the form): connect, choose a folder two levels
 *   down, start, see the run finish, with nothing wider than the screen and finger-sized targets;
 * - a slow line in front of the server (slow-proxy.ts): Cancel while the import runs, then Resume finishes it, the
 *   page saying it is still looking while it goes;
 * - the server's password changed: Reconnect asks for the password (only then), a wrong one is refused in plain
 *   words, the new one connects; Remove asks first, and the photos stay.
 * axe-core (WCAG 2.0/2.1 A and AA) finds no serious or critical violation on the form with its error, the run with
 * its report, and on the phone's folder browser and run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import { makeSelfSignedCert, startRcloneWebdav, type RcloneWebdav } from '../server/helpers/rclone-webdav.ts';
import { addMember, call } from './household.ts';
import { counter, device, expectAccessible, expectFingerSized, expectFinished, expectFits, openImport, runCard } from './import-page.ts';
import { startSlowProxy } from './slow-proxy.ts';
import { CORPUS, withOwnServer } from './own-server.ts';

const ADMIN = { username: 'mnemosyne', password: 'memory-of-the-muses', display_name: 'Mnemosyne' };
const DESKTOP_MEMBER = { username: 'clio', password: 'history-keeps-all', display_name: 'Clio' };
const TLS_MEMBER = { username: 'urania', password: 'stars-over-the-nas', display_name: 'Urania' };
const PHONE_MEMBER = { username: 'thalia', password: 'comedy-on-the-go', display_name: 'Thalia' };
const SLOW_MEMBER = { username: 'euterpe', password: 'music-takes-its-time', display_name: 'Euterpe' };
const CHANGED_MEMBER = { username: 'calliope', password: 'epic-poems-at-home', display_name: 'Calliope' };
const DAV_USER = 'household';
const DAV_PASSWORD = 'webdav-app-token-2026';
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 } };
const PROVIDER = 'WebDAV (Nextcloud, ownCloud, NAS)';

/** The remote tree: three photos under Photos (one three levels down), a document elsewhere. */
const TREE: Record<string, string> = {
  'Photos/2008/Canon_40D.jpg': 'exif/Canon_40D.jpg',
  'Photos/2004/Canon_DIGITAL_IXUS_400.jpg': 'exif/Canon_DIGITAL_IXUS_400.jpg',
  'Photos/2004/Trip to the sea/Fujifilm_FinePix6900ZOOM.jpg': 'exif/Fujifilm_FinePix6900ZOOM.jpg',
};
const PHOTO_NAMES = Object.keys(TREE).map((p) => path.basename(p));

const test = withOwnServer('import', []);

let tmp: string;
let davDir: string;
let dav: RcloneWebdav;
let tlsDav: RcloneWebdav;
let tlsFingerprint: string;

test.beforeAll(async ({ playwright, hearth }) => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-webdav-'));
  davDir = path.join(tmp, 'share');
  for (const [remote, corpus] of Object.entries(TREE)) {
    fs.mkdirSync(path.dirname(path.join(davDir, remote)), { recursive: true });
    fs.copyFileSync(path.join(CORPUS, corpus), path.join(davDir, remote));
  }
  fs.mkdirSync(path.join(davDir, 'Documents'), { recursive: true });
  fs.writeFileSync(path.join(davDir, 'Documents', 'shopping list.txt'), 'bread, olives, figs\n');
  dav = await startRcloneWebdav({ dir: davDir, user: DAV_USER, pass: DAV_PASSWORD });
  const cert = makeSelfSignedCert(tmp, 'nas');
  tlsFingerprint = cert.fingerprint;
  tlsDav = await startRcloneWebdav({ dir: davDir, user: DAV_USER, pass: DAV_PASSWORD, tls: { cert: cert.cert, key: cert.key } });

  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const admin = await call(req, 'post', '/api/v1/auth/register', null, { data: ADMIN });
  for (const m of [DESKTOP_MEMBER, TLS_MEMBER, PHONE_MEMBER, SLOW_MEMBER, CHANGED_MEMBER]) await addMember(req, admin.token as string, m);
  await req.dispose();
});

test.afterAll(async () => {
  await dav?.close();
  await tlsDav?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const connectForm = (page: Page) => page.getByRole('form', { name: `Connect ${PROVIDER}` });
const accounts = (page: Page) => page.getByRole('list', { name: 'Connected accounts' });
/** The account's name in the list: the user at the server's host and port. */
const davName = () => `${DAV_USER}@127.0.0.1:${dav.port}`;

async function fillWebdav(form: Locator, url: string, password: string) {
  await form.getByLabel('WebDAV address').fill(url);
  await form.getByLabel('User name').fill(DAV_USER);
  await form.getByLabel('Password or app token').fill(password);
}

/** In the open folder browser: into `name`. */
async function openFolder(page: Page, name: string, how: 'click' | 'tap') {
  await page.getByRole('list', { name: /^Folders in / }).getByRole('button', { name, exact: true })[how]();
  await expect(page.getByRole('navigation', { name: 'Folder path' }).locator('[aria-current="location"]')).toHaveText(name);
}

test('desktop: connect (a wrong password first), choose the folder, import, see the photos; again: nothing new; the report; disconnect and reconnect', async ({ browser, hearth }) => {
  test.setTimeout(180_000);
  const page = await device(browser, hearth.url, DESKTOP, DESKTOP_MEMBER);
  await openImport(page, 'click');
  const card = page.getByRole('listitem', { name: PROVIDER });
  await expect(card).toContainText('nothing there is changed, written or deleted');

  await test.step('a wrong password is said in plain words beside the form', async () => {
    await card.getByRole('button', { name: `Connect ${PROVIDER}` }).click();
    await fillWebdav(connectForm(page), dav.url, 'not-the-password');
    await connectForm(page).getByRole('button', { name: 'Test connection' }).click();
    await expect(connectForm(page).getByRole('alert')).toHaveText('The server did not accept this user name and password. Check both and try again (for Nextcloud and ownCloud, an app password).');
    await expect(accounts(page)).toHaveCount(0);
    await expectAccessible(page);
  });

  await test.step('the right password connects; the folder browser opens on the account', async () => {
    await connectForm(page).getByLabel('Password or app token').fill(DAV_PASSWORD);
    await connectForm(page).getByRole('button', { name: 'Test connection' }).click();
    await expect(connectForm(page)).toHaveCount(0);
    const account = accounts(page).getByRole('listitem');
    await expect(account).toHaveCount(1);
    await expect(account).toContainText('Connected');
    await expect(account).toContainText(`${DAV_USER} at ${dav.url}`);
    const folders = page.getByRole('list', { name: /^Folders in / }).getByRole('button');
    await expect(folders).toHaveText(['Documents', 'Photos']);
  });

  await test.step('into Photos and its folders, back up by the breadcrumb, then "Import this folder"', async () => {
    await openFolder(page, 'Photos', 'click');
    await expect(page.getByRole('list', { name: 'Folders in Photos' }).getByRole('button')).toHaveText(['2004', '2008']);
    await openFolder(page, '2004', 'click');
    await expect(page.getByRole('list', { name: 'Folders in 2004' }).getByRole('button')).toHaveText(['Trip to the sea']);
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'Photos' }).click();
    await expect(page.getByText('Imports “Photos” and the folders inside it.')).toBeVisible();
    await page.getByRole('button', { name: 'Import this folder' }).click();
  });

  await test.step('the run\'s counters reach Finished: three photos imported', async () => {
    await expect(page).toHaveURL(/\/import\?run=[0-9a-f-]{36}$/);
    await expect(runCard(page)).toContainText(`${davName()} · Photos`);
    expect(await expectFinished(page)).toBe('Done: 3 files imported.');
    await expect(counter(page, 'Found')).toHaveText('3');
    await expect(counter(page, 'Imported')).toHaveText('3');
    await expect(counter(page, 'Failed')).toHaveText('0');
    await expect(runCard(page).getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '100');
    await expect(runCard(page)).toContainText('Handled 3 of 3 files.');
    await expect(page.getByRole('list', { name: 'Recent imports' }).getByRole('listitem')).toHaveCount(1);
  });

  await test.step('Photos shows them', async () => {
    await runCard(page).getByRole('link', { name: 'See them in Photos' }).click();
    const grid = page.getByRole('list', { name: 'Photos and videos' });
    for (const name of PHOTO_NAMES) await expect(grid.getByRole('button', { name, exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(grid.getByRole('listitem')).toHaveCount(PHOTO_NAMES.length);
  });

  await test.step('the same folder again: "Nothing new"', async () => {
    await openImport(page, 'click');
    await accounts(page).getByRole('button', { name: /^Import from this account/ }).click();
    await openFolder(page, 'Photos', 'click');
    await page.getByRole('button', { name: 'Import this folder' }).click();
    expect(await expectFinished(page)).toBe('Nothing new: 3 files were imported before.');
    await expect(counter(page, 'Already imported')).toHaveText('3');
    await expect(counter(page, 'Imported')).toHaveText('0');
    await expect(runCard(page).getByRole('link', { name: 'See them in Photos' })).toHaveCount(0);
    await expect(page.getByRole('list', { name: 'Recent imports' }).getByRole('listitem')).toHaveCount(2);
  });

  await test.step('a folder of something else: the report names the file and why, and downloads as CSV', async () => {
    await accounts(page).getByRole('button', { name: /^Import from this account/ }).click();
    await openFolder(page, 'Documents', 'click');
    await page.getByRole('button', { name: 'Import this folder' }).click();
    expect(await expectFinished(page)).toBe('Nothing imported. 1 skipped: see the report.');
    const report = runCard(page).getByRole('region', { name: 'Report' });
    const line = report.getByRole('list', { name: 'Files not imported' }).getByRole('listitem');
    await expect(line).toHaveCount(1);
    await expect(line).toContainText('shopping list.txt');
    await expect(line).toContainText('Skipped');
    await expect(line.locator('.run-report__reason')).not.toBeEmpty();
    const download = page.waitForEvent('download');
    await report.getByRole('button', { name: 'Download report (CSV)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^import-webdav-.+\.csv$/);
    expect(fs.readFileSync(await file.path(), 'utf8')).toContain('shopping list.txt');
    await expectAccessible(page);
  });

  await test.step('the recent imports open an earlier run', async () => {
    const recent = page.getByRole('list', { name: 'Recent imports' }).getByRole('button');
    await expect(recent).toHaveCount(3);
    await recent.filter({ hasText: 'Done: 3 files imported.' }).click();
    await expect(runCard(page).getByRole('status').first()).toHaveText('Done: 3 files imported.');
  });

  await test.step('Disconnect pauses the account; Reconnect connects it again with the stored sign-in', async () => {
    const account = accounts(page).getByRole('listitem');
    await account.getByRole('button', { name: /^Disconnect / }).click();
    await expect(account).toContainText('Disconnected');
    await expect(account.getByRole('button', { name: /^Import from this account/ })).toHaveCount(0);
    await account.getByRole('button', { name: /^Reconnect / }).click();
    await expect(account.getByRole('status')).toHaveText(`${davName()} is connected again.`);
    await expect(account).toContainText('Connected');
    await expect(account.getByLabel('Password or app token')).toHaveCount(0);
  });
  await page.context().close();
});

test('a self-signed certificate: its fingerprint is shown, and trusting it connects', async ({ browser, hearth }) => {
  test.setTimeout(90_000);
  const page = await device(browser, hearth.url, DESKTOP, TLS_MEMBER);
  await openImport(page, 'click');
  await page.getByRole('button', { name: `Connect ${PROVIDER}` }).click();
  await fillWebdav(connectForm(page), tlsDav.url, DAV_PASSWORD);
  await connectForm(page).getByRole('button', { name: 'Test connection' }).click();
  const problem = connectForm(page).getByRole('alert');
  await expect(problem).toContainText('The server’s certificate is not trusted, so Hearth did not send your password to it.');
  await expect(problem.locator('code')).toHaveText(tlsFingerprint);
  // Ticking it tries again at once (the box goes with the refusal it answered).
  await problem.getByRole('checkbox', { name: `Trust this certificate (fingerprint ${tlsFingerprint})` }).click();
  await expect(connectForm(page)).toHaveCount(0);
  await expect(accounts(page).getByRole('listitem')).toContainText('Connected');
  await expect(page.getByRole('list', { name: /^Folders in / }).getByRole('button')).toHaveText(['Documents', 'Photos']);
  await page.context().close();
});

test('phone: connect, choose a folder, start and see the run, by taps', async ({ browser, hearth }) => {
  test.setTimeout(150_000);
  const page = await device(browser, hearth.url, PHONE, PHONE_MEMBER);
  await openImport(page, 'tap');
  await expectFits(page);

  const connect = page.getByRole('button', { name: `Connect ${PROVIDER}` });
  await expectFingerSized(connect);
  await connect.tap();
  const form = connectForm(page);
  await expect(form.getByLabel('WebDAV address')).toHaveAttribute('type', 'url');
  await expect(form.getByLabel('Password or app token')).toHaveAttribute('type', 'password');
  await fillWebdav(form, dav.url, DAV_PASSWORD);
  await expectFits(page);
  await expectFingerSized(form.getByRole('button', { name: 'Test connection' }));
  // The on-screen keyboard's Go (Enter) in the last field sends the form.
  await form.getByLabel('Password or app token').press('Enter');
  await expect(accounts(page).getByRole('listitem')).toContainText('Connected');

  const photos = page.getByRole('list', { name: /^Folders in / }).getByRole('button', { name: 'Photos', exact: true });
  await expectFingerSized(photos);
  await openFolder(page, 'Photos', 'tap');
  await openFolder(page, '2004', 'tap');
  await expectFits(page);
  await expectAccessible(page);
  const start = page.getByRole('button', { name: 'Import this folder' });
  await expectFingerSized(start);
  await start.tap();

  expect(await expectFinished(page)).toBe('Done: 2 files imported.');
  await expect(runCard(page)).toContainText(`${davName()} · Photos/2004`);
  await expect(counter(page, 'Imported')).toHaveText('2');
  await expect(runCard(page)).toBeInViewport();
  await expectFits(page);
  await expectAccessible(page);
  await page.context().close();
});

test('a slow server: the counters move while it runs; Cancel stops it, Resume finishes it', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  // About 2.5 KB/s per connection: each photo takes seconds, so the run is still going when Cancel is pressed.
  const slow = await startSlowProxy(dav.port);
  try {
    const page = await device(browser, hearth.url, DESKTOP, SLOW_MEMBER);
    await openImport(page, 'click');
    await page.getByRole('button', { name: `Connect ${PROVIDER}` }).click();
    await fillWebdav(connectForm(page), slow.url, DAV_PASSWORD);
    await connectForm(page).getByRole('button', { name: 'Test connection' }).click();
    await openFolder(page, 'Photos', 'click');
    await page.getByRole('button', { name: 'Import this folder' }).click();

    const run = runCard(page);
    await expect(run.locator('.run-badge')).toHaveText(/^(Waiting to start|Importing)$/);
    await run.getByRole('button', { name: 'Cancel import' }).click();
    await expect(run.locator('.run-badge')).toHaveText('Cancelled');
    await expect(run.getByRole('status').first()).toContainText(/^Cancelled after \d+ files?.*Resume to go on where it stopped\.$/);
    await expect(run.getByRole('button', { name: 'Cancel import' })).toHaveCount(0);
    expect(Number(await counter(page, 'Imported').textContent())).toBeLessThan(PHOTO_NAMES.length);

    await run.getByRole('button', { name: 'Resume' }).click();
    await expect(run.getByRole('button', { name: 'Resume' })).toHaveCount(0);
    // Live: while it runs the page says it is still looking, and the counters move up to the end.
    await expect(run.getByText(/^(Waiting for its turn\.|Handled \d+ of the \d+ files? found so far\. Still looking for more…)$/)).toBeVisible();
    expect(await expectFinished(page)).toBe('Done: 3 files imported.');
    await expect(counter(page, 'Imported')).toHaveText('3');
    await expect(counter(page, 'Failed')).toHaveText('0');
    await page.context().close();
  } finally {
    await slow.close();
  }
});

/**
 * The member's account and a first import of Photos/2008, through the API (the desktop test does both through the
 * page), so this test stands on its own.
 */
async function connectedWithAnImport(req: APIRequestContext, account: { username: string; password: string }) {
  const token = (await call(req, 'post', '/api/v1/auth/login', null, { data: { username: account.username, password: account.password } })).token as string;
  const made = await call(req, 'post', '/api/v1/cloud/credentials', token, { data: { provider: 'webdav', inputs: { url: dav.url, username: DAV_USER, password: DAV_PASSWORD } } });
  const credential = made.credential as { id: string };
  const { repositories } = (await call(req, 'get', '/api/v1/repositories', token)) as { repositories: { id: string; is_primary: boolean }[] };
  const primary = repositories.find((r) => r.is_primary)!;
  const started = await call(req, 'post', `/api/v1/repositories/${primary.id}/cloud/sources`, token, { data: { credential_id: credential.id, remote_scope: { folder: 'Photos/2008' } } });
  const runId = (started.run as { id: string }).id;
  await expect.poll(async () => ((await call(req, 'get', `/api/v1/cloud/import-runs/${runId}`, token)) as { status: string }).status, { timeout: 60_000 }).toBe('completed');
}

test('the password changed at the server: Reconnect asks for it; Remove asks first and the photos stay', async ({ browser, hearth, playwright }) => {
  test.setTimeout(120_000);
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  await connectedWithAnImport(req, CHANGED_MEMBER);
  await req.dispose();
  // The same server, the same address, a new password: the stored one no longer signs in.
  const newPassword = 'a-new-app-token-2027';
  const port = dav.port;
  await dav.close();
  dav = await startRcloneWebdav({ dir: davDir, user: DAV_USER, pass: newPassword, port });

  const page = await device(browser, hearth.url, DESKTOP, CHANGED_MEMBER);
  await openImport(page, 'click');
  const account = accounts(page).getByRole('listitem');
  await expect(account).toContainText('Connected');
  await account.getByRole('button', { name: /^Disconnect / }).click();
  await expect(account).toContainText('Disconnected');

  await test.step('Reconnect tries the stored sign-in first; refused, it asks for the password', async () => {
    await account.getByRole('button', { name: /^Reconnect / }).click();
    const reconnect = account.getByRole('form', { name: /^Reconnect / });
    await expect(reconnect).toContainText('The stored sign-in is no longer accepted. Enter the password to connect again.');
    await reconnect.getByLabel('Password or app token').fill('still-wrong');
    await reconnect.getByRole('button', { name: 'Connect again' }).click();
    await expect(reconnect.getByRole('alert')).toContainText('did not accept this user name and password');
    await reconnect.getByLabel('Password or app token').fill(newPassword);
    await reconnect.getByRole('button', { name: 'Connect again' }).click();
    await expect(account.getByRole('status')).toHaveText(`${davName()} is connected again.`);
    await expect(account).toContainText('Connected');
  });

  await test.step('Remove asks first, says the photos stay, and they do', async () => {
    await account.getByRole('button', { name: /^Remove / }).click();
    const dialog = page.getByRole('alertdialog', { name: `Remove ${davName()}?` });
    await expect(dialog).toContainText('The photos and videos it imported stay in your library');
    await dialog.getByRole('button', { name: 'Remove account' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(accounts(page)).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Photos', exact: true }).click();
    const grid = page.getByRole('list', { name: 'Photos and videos' });
    await expect(grid.getByRole('button', { name: 'Canon_40D.jpg', exact: true })).toBeVisible();
    await expect(grid.getByRole('listitem')).toHaveCount(1);
  });
  await page.context().close();
});
