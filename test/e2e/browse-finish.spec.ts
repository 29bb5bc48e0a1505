/**
 * The finish of browsing (issue 12 point 4), on a server of its own seeded through the API:
 * - a "Family" repository registered from a folder made here, with `garden/Nikon_D70.jpg` and
 *   `trips/Canon_40D.jpg` (corpus files; recorded make "NIKON CORPORATION", model "NIKON D70");
 * - a photo made here with sharp whose EXIF says it was taken by a "Canon" "Canon EOS 350D DIGITAL"
 *   on this very day (the browser's) three years ago, uploaded through the API.
 * Shown:
 * - on a 390×844 touch phone, the first screen shows photos and one Filters button (no form); the
 *   button opens a sheet; choosing a camera shows a chip named by make and model ("Nikon D70", not
 *   "NIKON CORPORATION NIKON D70"), the grid follows, and removing the chip clears the filter;
 * - on a desktop, the folder picker browses the folders and picks one, which filters the grid;
 * - "On this day" shows the photo of three years ago as "3 years ago" and opens that day;
 * - on the phone's Upload page, a damaged file and a file already in the library: the damaged one is
 *   listed first in plain words, the other says "Already in your library" and no upload of it was sent
 *   (the requests are counted), both rows with a thumbnail; a file whose connection was lost says so
 *   ("Will retry") and goes with Retry;
 * - the damaged file tells one story (issue 24 point 2): its upload row shows the warning sign, not
 *   the part of the picture the browser could draw; its tile says "Can't be shown" with the reason
 *   (no thumbnail, no second "Failed" badge), the viewer says the same, and the page never asks for
 *   its thumbnail, through a tap, a close and a reload (the requests are counted).
 * Screenshots are kept under test-results/e2e (the spec's output folder).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { expect, type Page } from '@playwright/test';
import { call, signIn as signInAs, waitForReady } from './household.ts';
import { CORPUS, withOwnServer } from './own-server.ts';

const ADMIN = { username: 'mnemosyne', password: 'remembers-every-day' };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const MEMORY = 'three-years-ago.jpg';
const DAMAGED = 'cut-short.jpg';
const OFFLINE = 'sent-while-offline.jpg';

const test = withOwnServer('browse-finish', []);
test.describe.configure({ mode: 'serial' });
// The browser's today decides "on this day"; UTC here so the photo made below is on it.
test.use({ timezoneId: 'UTC', locale: 'en-US' });

const today = new Date();
const memoryYear = today.getUTCFullYear() - 3;
const exifDay = `${memoryYear}:${String(today.getUTCMonth() + 1).padStart(2, '0')}:${String(today.getUTCDate()).padStart(2, '0')} 10:00:00`;

test.beforeAll(async ({ playwright, hearth }) => {
  test.setTimeout(180_000);
  // The family's folder: a repository with two folders.
  const family = path.join(hearth.files, 'family');
  for (const [dir, src] of [
    ['garden', 'exif/Nikon_D70.jpg'],
    ['trips', 'exif/Canon_40D.jpg'],
  ] as const) {
    fs.mkdirSync(path.join(family, dir), { recursive: true });
    fs.copyFileSync(path.join(CORPUS, src), path.join(family, dir, path.basename(src)));
  }
  const marker = { format: 'hearth-repository', version: 1, id: crypto.randomUUID(), name: 'Family', created_at: new Date().toISOString() };
  fs.writeFileSync(path.join(family, '.hearth-repo'), JSON.stringify(marker));
  // A photo taken on this day three years ago, by a camera that repeats its make in the model.
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c06030' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Canon', Model: 'Canon EOS 350D DIGITAL', DateTime: exifDay }, IFD2: { DateTimeOriginal: exifDay } })
    .toFile(path.join(hearth.files, MEMORY));
  // A JPEG cut short, as an interrupted copy leaves it.
  const whole = fs.readFileSync(path.join(CORPUS, 'exif/jolla.jpg'));
  fs.writeFileSync(path.join(hearth.files, DAMAGED), whole.subarray(0, Math.floor(whole.length / 2)));

  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const token = (await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Mnemosyne' } })).token as string;
  await call(req, 'post', '/api/v1/repositories', token, { data: { name: 'Family', path: family } });
  await call(req, 'post', '/api/v1/uploads/files', token, {
    multipart: { file: { name: MEMORY, mimeType: 'image/jpeg', buffer: fs.readFileSync(path.join(hearth.files, MEMORY)) } },
  });
  await waitForReady(req, token, 3);
  await req.dispose();
});

const signIn = (page: Page) => signInAs(page, ADMIN);
const grid = (page: Page) => page.getByRole('list', { name: 'Photos and videos' });
const tiles = (page: Page) => grid(page).getByRole('listitem');
const filtersButton = (page: Page) => page.getByRole('button', { name: /^Filters/ });
const chips = (page: Page) => page.getByRole('list', { name: 'Filters set' });

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('the first screen shows photos and one Filters button; a camera chip by make and model, removed again', async ({ page }) => {
    await signIn(page);
    await expect(page.getByText('3 photos and videos, by the day they were taken.')).toBeVisible();
    await test.step('photos on the first screen, no form', async () => {
      await expect(filtersButton(page)).toBeVisible();
      await expect(page.getByRole('search', { name: 'Filters' })).toHaveCount(0);
      const first = (await tiles(page).first().boundingBox())!;
      expect(first.y + first.height, 'a whole photo on the first screen').toBeLessThanOrEqual(PHONE.height);
      await page.screenshot({ path: test.info().outputPath('phone-first-screen.png') });
    });

    await test.step('the sheet offers cameras by name; choosing one shows its chip', async () => {
      await filtersButton(page).tap();
      const form = page.getByRole('search', { name: 'Filters' });
      await expect(form).toBeVisible();
      const camera = form.getByLabel('Camera');
      const names = await camera.locator('option').allTextContents();
      expect(names).toEqual(['Any camera', 'Canon EOS 40D', 'Canon EOS 350D DIGITAL', 'Nikon D70']);
      await camera.selectOption({ label: 'Nikon D70' });
      await page.screenshot({ path: test.info().outputPath('phone-filter-sheet.png') });
      await page.getByRole('button', { name: 'Show results' }).tap();
      await expect(form).toHaveCount(0);
      await expect(chips(page).getByText('Camera: Nikon D70', { exact: true })).toBeVisible();
      await expect(page.getByText('1 photo or video matches the filters.')).toBeVisible();
      await expect(tiles(page)).toHaveCount(1);
      await expect(filtersButton(page)).toHaveAccessibleName('Filters, 1 set');
      expect(new URL(page.url()).searchParams.get('make')).toBe('NIKON CORPORATION');
      await page.screenshot({ path: test.info().outputPath('phone-camera-chip.png') });
    });

    await test.step('removing the chip clears the filter', async () => {
      await chips(page).getByRole('button', { name: 'Remove filter Camera: Nikon D70' }).tap();
      await expect(chips(page)).toHaveCount(0);
      await expect(page.getByText('3 photos and videos, by the day they were taken.')).toBeVisible();
      expect(new URL(page.url()).searchParams.has('camera')).toBe(false);
      expect(new URL(page.url()).searchParams.has('make')).toBe(false);
    });
  });
});

test.describe('on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('the folder picker browses the folders and picks one, which filters the grid', async ({ page }) => {
    await signIn(page);
    await expect(page.getByText('3 photos and videos, by the day they were taken.')).toBeVisible();
    await filtersButton(page).click();
    const form = page.getByRole('search', { name: 'Filters' });
    await form.getByRole('button', { name: 'Choose folder' }).click();
    const picker = form.getByRole('group', { name: 'Choose a folder' });
    await expect(picker.getByRole('button', { name: 'Open garden' })).toBeVisible();
    await picker.getByRole('button', { name: 'Open trips' }).click();
    await expect(picker.getByText('No folders inside this one.')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('desktop-folder-picker.png') });
    await picker.getByRole('button', { name: 'Show trips' }).click();
    await expect(form.getByText('trips', { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(form).toHaveCount(0);
    await expect(chips(page).getByText('Folder: trips', { exact: true })).toBeVisible();
    await expect(page.getByText('1 photo or video matches the filters.')).toBeVisible();
    await expect(tiles(page)).toHaveCount(1);
    await expect(tiles(page).first().getByRole('button', { name: /^Canon_40D\.jpg/ })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('desktop-folder-chip.png') });
    await chips(page).getByRole('button', { name: 'Remove filter Folder: trips' }).click();
    await expect(page.getByText('3 photos and videos, by the day they were taken.')).toBeVisible();
  });

  test('"On this day" shows the photo of three years ago and opens that day', async ({ page }) => {
    await signIn(page);
    const memories = page.getByRole('region', { name: 'On this day' });
    await expect(memories).toBeVisible();
    const card = memories.getByRole('link', { name: `3 years ago: photos from ${memoryYear}` });
    await expect(card).toBeVisible();
    await expect(memories.getByRole('link')).toHaveCount(1);
    await page.screenshot({ path: test.info().outputPath('desktop-on-this-day.png') });
    await card.click();
    await expect(page.getByText('1 photo or video matches the filters.')).toBeVisible();
    await expect(tiles(page).first().getByRole('button', { name: new RegExp(`^${MEMORY.replace('.', '\\.')}`) })).toBeVisible();
    // A filtered view is not the home page: the memories step aside.
    await expect(memories).toHaveCount(0);
  });
});

// Last: the damaged upload stays in the library (a failed tile), which would change the counts above.
test.describe('uploading on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('upload: the damaged file first in plain words, the one already in the library not sent', async ({ page, hearth }) => {
    const sessions: string[] = [];
    const prechecks: number[] = [];
    const precheckAnswers: { duplicate: boolean; file_name: string | null }[] = [];
    page.on('response', async (r) => {
      if (new URL(r.url()).pathname !== '/api/v1/uploads/precheck') return;
      type Answer = { results: { duplicate: boolean; file_name: string | null }[] };
      const body = (await r.json()) as Answer & { data?: Answer };
      precheckAnswers.push(...(body.data ?? body).results);
    });
    let chunkRequests = 0;
    // Every thumbnail asked for, by asset id (an <img> asks with GET; counted from the first page on).
    const thumbnailAsks: string[] = [];
    page.on('request', (r) => {
      const m = /^\/api\/v1\/assets\/([^/]+)\/thumbnail$/.exec(new URL(r.url()).pathname);
      if (m) thumbnailAsks.push(decodeURIComponent(m[1]!));
    });
    page.on('request', (r) => {
      if (r.method() !== 'POST') return;
      const url = new URL(r.url()).pathname;
      // (The app's fetch sends JSON bodies the browser does not hand to Playwright: requests are counted.)
      if (url === '/api/v1/uploads/sessions') sessions.push(url);
      if (url === '/api/v1/uploads/precheck') prechecks.push(1);
      if (url === '/api/v1/uploads/batch' || url === '/api/v1/uploads/files') chunkRequests++;
    });
    await signIn(page);
    await page.goto('/upload');
    // The file already in the library first, the damaged one second: the list puts the failure on top.
    await page.getByLabel('Choose files').setInputFiles([path.join(hearth.files, MEMORY), path.join(hearth.files, DAMAGED)]);
    const queue = page.getByRole('list', { name: 'Upload queue' });
    const row = (name: string) => queue.getByRole('listitem', { name, exact: true });

    await expect(row(MEMORY).getByText(/^Already in your library/)).toBeVisible({ timeout: 60_000 });
    await expect(row(DAMAGED).getByText('This file is damaged and cannot be shown.')).toBeVisible({ timeout: 90_000 });
    await expect(queue.getByRole('listitem').first()).toHaveAccessibleName(DAMAGED);
    await expect(queue.getByRole('listitem').nth(1)).toHaveAccessibleName(MEMORY);
    // Each row shows the file itself: the local picture (the damaged one may not decode: then its icon).
    await expect(row(MEMORY).locator('.upload-row__thumb img')).toHaveJSProperty('complete', true);
    expect(await row(MEMORY).locator('.upload-row__thumb img').evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(row(DAMAGED).locator('.upload-row__thumb')).toBeVisible();
    // The damaged one: the warning sign, not the half picture a browser draws of a cut-short JPEG.
    await expect(row(DAMAGED).locator('.upload-row__thumb--failed')).toBeVisible();
    await expect(row(DAMAGED).locator('.upload-row__thumb img')).toHaveCount(0);
    // Trying again cannot mend a damaged file: it can be removed from the list instead.
    await expect(row(DAMAGED).getByRole('button', { name: `Remove ${DAMAGED} from the list` })).toBeVisible();
    await expect(row(DAMAGED).getByRole('button', { name: `Retry ${DAMAGED}` })).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('phone-upload-list.png'), fullPage: true });

    expect(prechecks.length, 'each file was checked before sending').toBe(2);
    expect(precheckAnswers.map((a) => a.duplicate).sort(), 'the server knew one of them').toEqual([false, true]);
    // The damaged file was sent (it reached the server and failed there): the one session and the one
    // request with file data were its own; the file already in the library had neither.
    expect(sessions.length, 'one upload session: the damaged file’s').toBe(1);
    expect(chunkRequests, 'one request carried the damaged file, none the other').toBe(1);

    await test.step('a lost connection: said in plain words, then Retry sends it', async () => {
      await sharp({ create: { width: 200, height: 150, channels: 3, background: '#2d6a8f' } })
        .jpeg()
        .toFile(path.join(hearth.files, OFFLINE));
      await page.route('**/api/v1/uploads/batch', (route) => route.abort('internetdisconnected'));
      await page.getByLabel('Choose files').setInputFiles([path.join(hearth.files, OFFLINE)]);
      await expect(row(OFFLINE).getByText('The connection to Hearth was lost. Will retry.')).toBeVisible({ timeout: 60_000 });
      // Failures on top: the damaged file, then this one, then the one already in the library.
      await expect(queue.getByRole('listitem')).toHaveCount(3);
      await expect(queue.getByRole('listitem').nth(2)).toHaveAccessibleName(MEMORY);
      await page.unroute('**/api/v1/uploads/batch');
      await row(OFFLINE).getByRole('button', { name: `Retry ${OFFLINE}` }).tap();
      await expect(row(OFFLINE).getByText('Done', { exact: true })).toBeVisible({ timeout: 60_000 });
    });

    await test.step('the grid and the viewer tell the same story, and its thumbnail is never asked for', async () => {
      await page.goto('/');
      const damaged = grid(page).getByRole('button', { name: /^cut-short\.jpg, can't be shown: .+/ });
      await expect(damaged).toBeVisible();
      await expect(damaged).toContainText("Can't be shown");
      await expect(damaged.locator('img')).toHaveCount(0);
      await expect(grid(page).locator('.tile__badge--failed')).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath('phone-damaged-tile.png') });
      await damaged.tap();
      const viewer = page.getByRole('dialog', { name: DAMAGED });
      await expect(viewer.getByText("Can't be shown.")).toBeVisible();
      await expect(viewer.getByText(/damaged or cut short/)).toBeVisible();
      await expect(viewer.getByRole('button', { name: 'Try processing again' })).toBeVisible();
      const id = /\/photos\/([^/?#]+)/.exec(new URL(page.url()).pathname)![1]!;
      await viewer.getByRole('button', { name: 'Close' }).tap();
      await expect(viewer).toBeHidden();
      // Every tile made anew: still not asked for.
      await page.reload();
      await expect(grid(page).getByRole('button', { name: /^cut-short\.jpg, can't be shown/ })).toBeVisible();
      await expect.poll(() => thumbnailAsks.length, 'the other tiles did ask for theirs').toBeGreaterThan(0);
      expect(thumbnailAsks.filter((a) => a === id), 'thumbnail requests for the damaged file').toEqual([]);
    });
  });
});
