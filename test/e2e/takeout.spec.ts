/**
 * Google Takeout from the browser (issue 28, point 5), against a server of its own. The exports are real archives
 * built from corpus photos with Takeout's JSON sidecars (test/server/helpers/takeout-archive.ts): a taken time and a
 * place per photo, and an album. Each test is a member of their own:
 * - on a desktop: the two parts of an export are dropped on the Takeout card; each part's bar and the overall bar
 *   reach done (the first chunk sent is cut off by the network once: the page tries again by itself); the preview
 *   says two photos, no video, one album and the dates; Import shows the run until it finishes; the album holds the
 *   two photos, and a photo's details show the sidecar's date and place;
 * - on a 390×844 touch phone, by taps: a one-part export is chosen with the file picker while the server cannot be
 *   reached (every chunk fails): the part says why and offers Retry; with the line back, Retry sends it; the preview,
 *   Import, the run finishes; nothing is wider than the screen;
 * - on a desktop and on the phone: a part half sent (through the API, as a page closed mid-way leaves it) and another
 *   begun are listed as unfinished uploads after a reload, with their bars and when they go; choosing the same file
 *   goes on from the half (its bar starts there, and only the rest is sent), completes and previews; the other one is
 *   discarded after a confirmation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { albumMetadata, buildTakeout, sidecar, type TakeoutFile } from '../server/helpers/takeout-archive.ts';
import { addMember, call } from './household.ts';
import { device, expectAccessible, expectFingerSized, expectFinished, expectFits, openImport, runCard } from './import-page.ts';
import { withOwnServer } from './own-server.ts';

const ADMIN = { username: 'hestia', password: 'keeper-of-the-hearth', display_name: 'Hestia' };
const DESKTOP_MEMBER = { username: 'demeter', password: 'harvest-of-photos', display_name: 'Demeter' };
const PHONE_MEMBER = { username: 'persephone', password: 'spring-on-the-phone', display_name: 'Persephone' };
const RESUMING = {
  desktop: { username: 'hermes', password: 'messenger-of-parts', display_name: 'Hermes' },
  phone: { username: 'iris', password: 'rainbow-of-bytes', display_name: 'Iris' },
};
// The sidecars' times are shown in the viewer's zone: one fixed zone, so the dates read the same on every machine.
const ZONE = 'Europe/Lisbon';
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, timezoneId: ZONE };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 }, timezoneId: ZONE };
const CHUNKS = '**/api/v1/cloud/takeout/uploads/*';

/** Two photos of a trip to Lisbon with their sidecars, and the album's metadata in the second part. */
const TRIP: TakeoutFile[] = [
  { path: 'Lisbon 2019/Canon_40D.jpg', corpus: 'exif/Canon_40D.jpg', part: 0 },
  { path: 'Lisbon 2019/Canon_40D.jpg.json', json: sidecar({ title: 'Canon_40D.jpg', taken: '2019-06-01T12:00:00Z', geo: [38.7223, -9.1393] }), part: 0 },
  { path: 'Lisbon 2019/Nikon_D70.jpg', corpus: 'exif/Nikon_D70.jpg', part: 1 },
  { path: 'Lisbon 2019/Nikon_D70.jpg.json', json: sidecar({ title: 'Nikon_D70.jpg', taken: '2019-06-03T18:30:00Z', geo: [38.6916, -9.216] }), part: 1 },
  { path: 'Lisbon 2019/metadata.json', json: albumMetadata('Lisbon 2019'), part: 1 },
];
/** One photo in one part, for the phone. */
const GARDEN: TakeoutFile[] = [
  { path: 'Garden/Pentax_K10D.jpg', corpus: 'exif/Pentax_K10D.jpg' },
  { path: 'Garden/Pentax_K10D.jpg.json', json: sidecar({ title: 'Pentax_K10D.jpg', taken: '2020-04-20T09:15:00Z', geo: [48.8584, 2.2945] }) },
  { path: 'Garden/metadata.json', json: albumMetadata('Garden') },
];

const test = withOwnServer('takeout', []);

let tmp: string;
let tripParts: string[];
let gardenParts: string[];
/** One part each for the resume tests (desktop, phone): a photo with its sidecar. */
const resumeParts: Record<keyof typeof RESUMING, string> = { desktop: '', phone: '' };

test.beforeAll(async ({ playwright, hearth }) => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-takeout-'));
  tripParts = await buildTakeout(path.join(tmp, 'trip'), { format: 'zip', files: TRIP, stem: 'takeout-20240101T000000Z' });
  gardenParts = await buildTakeout(path.join(tmp, 'garden'), { format: 'tgz', files: GARDEN, stem: 'takeout-20250505T000000Z' });
  resumeParts.desktop = (await buildTakeout(path.join(tmp, 'resume-desktop'), { format: 'zip', files: GARDEN, stem: 'takeout-20260101T000000Z' }))[0]!;
  resumeParts.phone = (await buildTakeout(path.join(tmp, 'resume-phone'), { format: 'zip', files: GARDEN, stem: 'takeout-20260202T000000Z' }))[0]!;
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const admin = await call(req, 'post', '/api/v1/auth/register', null, { data: ADMIN });
  for (const m of [DESKTOP_MEMBER, PHONE_MEMBER, ...Object.values(RESUMING)]) await addMember(req, admin.token as string, m);
  await req.dispose();
});

test.afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const takeoutCard = (page: Page) => page.getByRole('region', { name: 'Google Takeout' });
const uploads = (page: Page) => takeoutCard(page).getByRole('list', { name: 'Parts being uploaded' }).getByRole('listitem');
const fact = (page: Page, label: string) =>
  takeoutCard(page).getByRole('region', { name: /^What th/ }).locator('.run__counter').filter({ has: page.locator('dt').getByText(label, { exact: true }) }).locator('dd');

/** Drops the files on the Takeout card's drop zone, as a file manager does. */
async function dropFiles(page: Page, files: string[]) {
  const payload = files.map((f) => ({ name: path.basename(f), data: fs.readFileSync(f).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((items) => {
    // In the page: the DOM's DataTransfer and File (this file is type-checked without the DOM's types).
    const w = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: unknown): void } };
      File: new (bits: Uint8Array[], name: string, options: { type: string }) => unknown;
      atob(data: string): string;
    };
    const dt = new w.DataTransfer();
    for (const { name, data } of items) dt.items.add(new w.File([Uint8Array.from(w.atob(data), (c) => c.charCodeAt(0))], name, { type: 'application/zip' }));
    return dt;
  }, payload);
  const zone = takeoutCard(page).getByRole('region', { name: 'Add Takeout parts' });
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

test('desktop: drop two parts, see them upload (one cut chunk tried again), the preview, import, the album with dates and places', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  const page = await device(browser, hearth.url, DESKTOP, DESKTOP_MEMBER);
  await openImport(page, 'click');
  await expect(takeoutCard(page)).toContainText('takeout.google.com');

  await test.step('the dropped parts upload; a chunk the network cuts off is sent again by itself', async () => {
    let cut = 0;
    await page.route(CHUNKS, async (route) => {
      if (route.request().method() === 'PUT' && cut++ === 0) return route.abort('connectionreset');
      return route.continue();
    });
    await dropFiles(page, tripParts);
    await expect(uploads(page)).toHaveCount(2);
    for (const part of tripParts) {
      const row = uploads(page).filter({ hasText: path.basename(part) });
      await expect(row.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 30_000 });
      await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    }
    await expect(takeoutCard(page).getByRole('progressbar', { name: 'Upload of all parts' })).toHaveAttribute('aria-valuenow', '100');
    await expect(takeoutCard(page)).toContainText('All 2 parts are uploaded.');
    expect(cut, 'the cut chunk was sent again').toBeGreaterThan(1);
    await page.unroute(CHUNKS);
  });

  await test.step('the preview of both parts: two photos, no video, the album, the dates', async () => {
    await expect(fact(page, 'Photos')).toHaveText('2', { timeout: 30_000 });
    await expect(fact(page, 'Videos')).toHaveText('0');
    await expect(fact(page, 'Albums')).toHaveText('1');
    await expect(takeoutCard(page).getByRole('list', { name: 'Albums' })).toContainText('Lisbon 2019 (2 items)');
    await expect(takeoutCard(page)).toContainText('Taken Jun 1 – 3, 2019.');
    const chosen = takeoutCard(page).getByRole('group', { name: 'Parts in this repository' }).getByRole('checkbox');
    await expect(chosen).toHaveCount(2);
    for (const box of await chosen.all()) await expect(box).toBeChecked();
    await expectAccessible(page);
  });

  await test.step('Import shows the run until it finishes', async () => {
    await takeoutCard(page).getByRole('button', { name: 'Import 2 photos and videos' }).click();
    await expect(page).toHaveURL(/\/import\?run=[0-9a-f-]{36}$/);
    await expect(runCard(page)).toContainText('Google Takeout');
    expect(await expectFinished(page)).toBe('Done: 2 files imported.');
  });

  await test.step('the album holds both photos; a photo shows the sidecar’s date and place', async () => {
    await page.goto('/albums');
    await page.getByRole('link', { name: /Lisbon 2019/ }).first().click();
    const grid = page.getByRole('list', { name: 'Album Lisbon 2019' });
    await expect(grid.getByRole('listitem')).toHaveCount(2, { timeout: 30_000 });
    const photos: [string, string, string][] = [
      ['Canon_40D.jpg', 'Jun 1, 2019', '38.72230, -9.13930'],
      ['Nikon_D70.jpg', 'Jun 3, 2019', '38.69160, -9.21600'],
    ];
    for (const [name, date, place] of photos) {
      await grid.getByRole('button', { name: new RegExp(`^${name.replace('.', '\\.')}`) }).click();
      const viewer = page.getByRole('dialog', { name });
      await expect(viewer).toBeVisible();
      const details = viewer.getByRole('complementary', { name: 'Details' });
      if (!(await details.isVisible())) await viewer.getByRole('button', { name: 'Details' }).click();
      await expect(details).toContainText(date);
      await expect(details.getByRole('link', { name: place })).toBeVisible();
      await viewer.getByRole('button', { name: 'Close' }).click();
      await expect(viewer).toBeHidden();
    }
  });
  await page.context().close();
});

test('phone: choose a part by taps; when every chunk fails it says why and Retry sends it; preview, import', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  const page = await device(browser, hearth.url, PHONE, PHONE_MEMBER);
  await openImport(page, 'tap');

  await test.step('with the server out of reach the part fails, says so and offers Retry', async () => {
    await page.route(CHUNKS, (route) => (route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.continue()));
    const picker = page.waitForEvent('filechooser');
    await takeoutCard(page).getByText('Choose Takeout files').tap();
    await (await picker).setFiles(gardenParts);
    await expect(uploads(page)).toHaveCount(1);
    await expect(uploads(page).getByRole('alert')).toContainText('Hearth could not be reached', { timeout: 30_000 });
    await expect(uploads(page)).toContainText('Not uploaded');
    await page.screenshot({ path: test.info().outputPath('phone-failed.png'), fullPage: true });
  });

  await test.step('with the line back, Retry sends it; the preview follows', async () => {
    await page.unroute(CHUNKS);
    const retry = uploads(page).getByRole('button', { name: `Retry ${path.basename(gardenParts[0]!)}` });
    await retry.scrollIntoViewIfNeeded();
    expect((await retry.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await retry.tap();
    await expect(uploads(page).getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(fact(page, 'Photos')).toHaveText('1', { timeout: 30_000 });
    await expect(fact(page, 'Albums')).toHaveText('1');
    await expect(takeoutCard(page).getByRole('list', { name: 'Albums' })).toContainText('Garden (1 item)');
    await page.screenshot({ path: test.info().outputPath('phone-preview.png'), fullPage: true });
    await expectAccessible(page);
  });

  await test.step('Import by a tap; the run finishes; nothing is wider than the screen', async () => {
    await takeoutCard(page).getByText('Include untitled albums').tap();
    await expect(takeoutCard(page).getByRole('checkbox', { name: 'Include untitled albums' })).toBeChecked();
    await takeoutCard(page).getByRole('button', { name: 'Import 1 photo and video' }).tap();
    expect(await expectFinished(page)).toBe('Done: 1 file imported.');
    const overflow = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return d.scrollWidth - d.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
  });
  await page.context().close();
});

const UPLOADS = '/api/v1/cloud/takeout/uploads';
const unfinished = (page: Page) => takeoutCard(page).getByRole('region', { name: 'Unfinished uploads' });

/** Starts an upload of `size` bytes named `filename` as `token` and sends `bytes` of it: what a page closed mid-way leaves. */
async function leaveUnfinished(req: APIRequestContext, token: string, repositoryId: string, filename: string, size: number, bytes: Buffer) {
  const upload = await call(req, 'post', UPLOADS, token, { data: { repository_id: repositoryId, filename, size } });
  const r = await req.put(`${UPLOADS}/${upload.upload_id as string}`, {
    data: bytes,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream', 'Content-Range': `bytes 0-${bytes.length - 1}/${size}` },
  });
  expect(r.ok(), await r.text()).toBeTruthy();
  return upload.upload_id as string;
}

for (const form of ['desktop', 'phone'] as const) {
  test(`${form}: unfinished uploads are listed after a reload; the same file goes on from where it stopped; another is discarded`, async ({ browser, hearth, playwright }) => {
    test.setTimeout(120_000);
    const how = form === 'phone' ? 'tap' : 'click';
    const account = RESUMING[form];
    const page = await device(browser, hearth.url, form === 'phone' ? PHONE : DESKTOP, account);
    await openImport(page, how);
    const part = fs.readFileSync(resumeParts[form]);
    const name = path.basename(resumeParts[form]);
    const half = Math.floor(part.length / 2);
    const other = name.replace('-001.zip', '-002.zip');

    await test.step('half of a part, and a little of another, reach the server; the reloaded page lists both', async () => {
      const req = await playwright.request.newContext({ baseURL: hearth.url });
      const { token } = await call(req, 'post', '/api/v1/auth/login', null, { data: { username: account.username, password: account.password } });
      const { repositories } = await call(req, 'get', '/api/v1/repositories', token as string);
      const primary = (repositories as { id: string; is_primary: boolean }[]).find((r) => r.is_primary)!.id;
      await leaveUnfinished(req, token as string, primary, other, 4000, Buffer.alloc(1000, 7));
      await leaveUnfinished(req, token as string, primary, name, part.length, part.subarray(0, half));
      await req.dispose();

      await page.reload();
      const rows = unfinished(page).getByRole('listitem');
      await expect(rows).toHaveCount(2);
      const row = rows.filter({ hasText: name });
      await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(Math.round((half / part.length) * 100)));
      await expect(row).toContainText(/\d+(\.\d)? of \d+(\.\d)? KB uploaded/);
      await expect(row).toContainText(/Removed .+ if left as it is\./);
      await expect(unfinished(page)).toContainText('Choose or drop the same file again to go on where it stopped.');
      await expect(rows.filter({ hasText: other })).toContainText('1.0 of 4.0 KB uploaded');
      if (form === 'phone') {
        await expectFingerSized(row.getByRole('button', { name: `Discard ${name}` }));
        await expectFits(page);
        await unfinished(page).scrollIntoViewIfNeeded();
        await page.screenshot({ path: test.info().outputPath('phone-unfinished.png') });
      }
      await expectAccessible(page);
    });

    await test.step('choosing the same file goes on from the half: its bar starts there, only the rest is sent, and it previews', async () => {
      const ranges: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT' && r.url().includes(`${UPLOADS}/`)) ranges.push(r.headers()['content-range'] ?? '');
      });
      // The start (createTakeoutUpload) is held: until the server answers, the bar shows what the list said it has.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**${UPLOADS}`, async (route) => {
        if (route.request().method() === 'POST') await held;
        return route.continue();
      });
      const picker = page.waitForEvent('filechooser');
      await takeoutCard(page).getByText('Choose Takeout files')[how]();
      await (await picker).setFiles(resumeParts[form]);
      const live = uploads(page).filter({ hasText: name });
      await expect(live).toHaveCount(1);
      await expect(unfinished(page).getByRole('listitem')).toHaveCount(1);
      await expect(unfinished(page)).not.toContainText(name);
      await expect(live.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(Math.round((half / part.length) * 100)));
      expect(ranges, 'nothing is sent before the server answers').toEqual([]);
      release();
      await expect(live.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 30_000 });
      await page.unroute(`**${UPLOADS}`);
      expect(ranges, 'only the half the server did not have was sent').toEqual([`bytes ${half}-${part.length - 1}/${part.length}`]);
      await expect(fact(page, 'Photos')).toHaveText('1', { timeout: 30_000 });
    });

    await test.step('Discard asks first, then removes the other one', async () => {
      await unfinished(page).getByRole('button', { name: `Discard ${other}` })[how]();
      const dialog = page.getByRole('alertdialog', { name: `Discard ${other}?` });
      await expect(dialog).toContainText('What arrived of it on the server (1.0 KB) is removed.');
      await dialog.getByRole('button', { name: 'Discard upload' })[how]();
      await expect(dialog).toBeHidden();
      await expect(unfinished(page)).toHaveCount(0);
      await page.reload();
      await expect(takeoutCard(page).getByRole('group', { name: 'Parts in this repository' })).toContainText(name);
      await expect(unfinished(page)).toHaveCount(0);
    });
    await page.context().close();
  });
}
