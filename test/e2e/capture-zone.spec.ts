/**
 * Capture times in the photo's own zone, and undated items under "No date" (issue 12 point 3), on a
 * server of its own seeded through the API with:
 * - the corpus' IPTC example, taken 2007-04-19 11:03:15 −06:00 (17:03Z);
 * - a PNG made here with sharp, which has no capture time at all.
 * The browser runs in Tokyo (+09:00): converted into the viewer's zone, the photo would show 2:03 AM
 * on 20 April. Checked on a desktop and on a 390×844 touch phone: the day header, the viewer's title
 * and the details (with the offset), and the undated file under "No date" (not "Today").
 * Then (issue 24) the undated file gets a date and a place in the viewer's details, the selection bar shifts
 * both files' dates, and the toast's Undo takes each back, at both sizes.
 * Screenshots are kept under test-results/e2e (the spec's output folder).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { expect, type Page } from '@playwright/test';
import { call, signIn as signInAs } from './household.ts';
import { withOwnServer } from './own-server.ts';
import { longPressTile } from './touch.ts';

const ADMIN = { username: 'chronos', password: 'every-hour-in-its-place' };
const PHONE = { width: 390, height: 844 };
const ZONED = 'exif/iptc-staff-photographer-example.jpg';
const UNDATED = 'undated-drawing.png';

const test = withOwnServer('capture-zone', [ZONED]);
test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });


test.beforeAll(async ({ playwright, hearth }) => {
  // A picture with no metadata at all: no EXIF, no XMP, nothing to date it by.
  await sharp({ create: { width: 96, height: 64, channels: 3, background: '#3a7d5c' } })
    .png()
    .toFile(path.join(hearth.files, UNDATED));
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const session = await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Chronos' } });
  const token = session.token as string;
  for (const name of [path.basename(ZONED), UNDATED]) {
    await call(req, 'post', '/api/v1/uploads/files', token, {
      multipart: { file: { name, mimeType: 'application/octet-stream', buffer: fs.readFileSync(path.join(hearth.files, name)) } },
    });
  }
  const ready = async () => {
    const list = await call(req, 'post', '/api/v1/assets/query', token, { data: { sort_by: 'date_captured', pagination: { limit: 10 } } });
    return (list.items as { media_item: { primary_asset: { state: string; original_filename: string; taken_time: string | null; capture_offset_minutes: number | null } } }[]).map(
      (i) => i.media_item.primary_asset,
    );
  };
  await expect.poll(async () => (await ready()).filter((a) => a.state === 'ready').length, { timeout: 120_000 }).toBe(2);
  // What the server recorded, so a failure below is the UI's.
  const assets = await ready();
  expect(assets.find((a) => a.original_filename === path.basename(ZONED))).toMatchObject({ taken_time: '2007-04-19T17:03:15.000Z', capture_offset_minutes: -360 });
  expect(assets.find((a) => a.original_filename === UNDATED)).toMatchObject({ taken_time: null, capture_offset_minutes: null });
  await req.dispose();
});

const signIn = (page: Page) => signInAs(page, ADMIN);

const grid = (page: Page) => page.getByRole('list', { name: 'Photos and videos' });
const viewer = (page: Page) => page.getByRole('dialog');
const tile = (page: Page, name: string) => grid(page).getByRole('button', { name: new RegExp(`^${name.replace('.', '\\.')}`) });

/** The grid's day headers, top to bottom, each with the names of the files under it. */
async function days(page: Page): Promise<string[]> {
  return grid(page).getByRole('heading', { level: 2 }).allTextContents();
}

for (const device of ['desktop', 'phone'] as const) {
  test.describe(`on a ${device}`, () => {
    if (device === 'phone') test.use({ viewport: PHONE, hasTouch: true, isMobile: true });
    else test.use({ viewport: { width: 1280, height: 800 } });
    const press = (l: ReturnType<Page['getByRole']>) => (device === 'phone' ? l.tap() : l.click());

    test('the photo shows its own time and day with its offset; the undated file is under "No date"', async ({ page }) => {
      await signIn(page);
      await expect(tile(page, path.basename(ZONED))).toBeVisible();
      await expect(tile(page, UNDATED)).toBeVisible();

      await test.step('day headers: the photo\'s own day, and "No date" instead of "Today"', async () => {
        const headers = await days(page);
        expect(headers).toContain('No date');
        // Taken on Thursday 19 April where it was taken (in Tokyo it was already the 20th).
        expect(headers).toContain('Thu, April 19, 2007');
        expect(headers).not.toContain('Today');
        expect(headers).not.toContain('Fri, April 20, 2007');
        await page.screenshot({ path: test.info().outputPath(`${device}-timeline.png`) });
      });

      await test.step('each tile is under its own header', async () => {
        // Headers and tiles are siblings laid out by position: a tile sits below its header, within
        // its width (small days share a row, each label over its own tiles).
        type Box = { x: number; y: number; width: number; height: number };
        const boxOf = async (l: ReturnType<Page['getByRole']>) => (await l.boundingBox())! as Box;
        const noDate = await boxOf(grid(page).getByRole('heading', { name: 'No date' }));
        const april = await boxOf(grid(page).getByRole('heading', { name: 'Thu, April 19, 2007' }));
        const undated = await boxOf(tile(page, UNDATED));
        const zoned = await boxOf(tile(page, path.basename(ZONED)));
        const headers = [noDate, april];
        // The nearest header above the tile whose width covers the tile's left edge.
        const headerOf = (t: Box) =>
          headers.filter((h) => h.y < t.y && t.x >= h.x - 1 && t.x < h.x + h.width).sort((a, b) => b.y - a.y)[0];
        const under = (t: Box, header: Box) => headerOf(t) === header;
        expect(under(undated, noDate), 'the undated file under "No date"').toBe(true);
        expect(under(zoned, april), 'the photo under its day').toBe(true);
      });

      await test.step('the viewer shows the photo\'s clock, and the details its offset', async () => {
        await press(tile(page, path.basename(ZONED)));
        await expect(viewer(page)).toBeVisible();
        await expect(viewer(page).locator('.overlay__title')).toContainText('Apr 19, 2007, 11:03 AM');
        const details = viewer(page).getByRole('complementary', { name: 'Details' });
        if (!(await details.isVisible())) await press(viewer(page).getByRole('button', { name: 'Details' }));
        await expect(details).toBeVisible();
        await expect(details).toContainText('Apr 19, 2007, 11:03 AM (UTC\u221206:00)');
        await page.screenshot({ path: test.info().outputPath(`${device}-details.png`) });
        await press(viewer(page).getByRole('button', { name: 'Close' }));
        await expect(viewer(page)).toBeHidden();
      });

      await test.step('the undated file says "No date", not its upload time', async () => {
        await press(tile(page, UNDATED));
        await expect(viewer(page)).toBeVisible();
        await expect(viewer(page).locator('.overlay__title')).toContainText('No date');
        const details = viewer(page).getByRole('complementary', { name: 'Details' });
        if (!(await details.isVisible())) await press(viewer(page).getByRole('button', { name: 'Details' }));
        await expect(details.locator('dt:has-text("Taken") + dd')).toHaveText('Unknown');
      });
    });

    // Issue 24: a person sets the date and the place of the undated file in the viewer, shifts a selection's
    // dates from the selection bar, and takes each back with the toast's Undo (so the next device starts over).
    test('edit a date and a place in the viewer, shift a selection, undo each', async ({ page }) => {
      await signIn(page);
      const toast = (text: string) => page.locator('.toast').filter({ hasText: text }).last();
      const undo = async (text: string) => {
        await expect(toast(text)).toBeVisible();
        await press(toast(text).getByRole('button', { name: 'Undo' }));
      };
      await press(tile(page, UNDATED));
      await expect(viewer(page)).toBeVisible();
      const details = viewer(page).getByRole('complementary', { name: 'Details' });
      if (!(await details.isVisible())) await press(viewer(page).getByRole('button', { name: 'Details' }));
      const taken = details.locator('dt:has-text("Taken") + dd');

      await test.step('Edit date & time: a day, a time and a zone', async () => {
        await press(details.getByRole('button', { name: 'Edit date & time' }));
        const form = details.getByRole('form', { name: 'Edit date and time' });
        await form.getByLabel('Date and time').fill('2020-05-10T14:30');
        await form.getByLabel('Zone').selectOption('120');
        await page.screenshot({ path: test.info().outputPath(`${device}-edit-date.png`) });
        await press(form.getByRole('button', { name: 'Save date' }));
        await expect(taken).toContainText('May 10, 2020, 2:30 PM (UTC+02:00)');
        await expect(details.getByText('Date set by you.')).toBeVisible();
        await expect(details.getByRole('button', { name: "Restore the file's date" })).toBeVisible();
        await undo('Date and time set.');
        await expect(taken).toHaveText('Unknown');
      });

      await test.step('Edit place: a town by its name, then undo', async () => {
        await press(details.getByRole('button', { name: 'Edit place' }));
        const form = details.getByRole('form', { name: 'Edit place' });
        await form.getByLabel('Place name').fill('Lisbon');
        await press(form.getByRole('button', { name: 'Save place' }));
        await expect(details.getByText('Place set by you.')).toBeVisible();
        await expect(details.locator('dt:has-text("Place") + dd')).toContainText('38.7');
        await page.screenshot({ path: test.info().outputPath(`${device}-edit-place.png`) });
        await undo('Place set to Lisbon');
        await expect(details.getByText('Place set by you.')).toHaveCount(0);
        await expect(details.locator('dt:has-text("Place")')).toHaveCount(0);
      });

      await test.step('Edit place: a spot picked on the map, then undo', async () => {
        await press(details.getByRole('button', { name: 'Edit place' }));
        const map = details.getByRole('img', { name: 'Map: click or tap where it was taken' });
        const box = (await map.boundingBox())!;
        // At the whole world's zoom, 55% across and 25% down is about 18° E, 45° N (the Balkans).
        const at = { x: box.width * 0.55, y: box.height * 0.25 };
        if (device === 'phone') await map.tap({ position: at });
        else await map.click({ position: at });
        const saveSpot = details.getByRole('button', { name: /^Save this spot/ });
        await expect(saveSpot).toBeVisible();
        const [lat, lon] = /\((-?[\d.]+), (-?[\d.]+)\)/.exec((await saveSpot.textContent())!)!.slice(1).map(Number) as [number, number];
        // Within a couple of degrees: the world drawn 300-odd pixels wide is about a degree a pixel.
        expect(Math.abs(lat - 45)).toBeLessThan(2.5);
        expect(Math.abs(lon - 18)).toBeLessThan(2.5);
        await page.screenshot({ path: test.info().outputPath(`${device}-pick-place.png`) });
        await press(saveSpot);
        await expect(details.getByText('Place set by you.')).toBeVisible();
        await expect(details.locator('dt:has-text("Place") + dd')).toContainText(lat.toFixed(2));
        await undo('Place set to');
        await expect(details.locator('dt:has-text("Place")')).toHaveCount(0);
        await press(viewer(page).getByRole('button', { name: 'Close' }));
        await expect(viewer(page)).toBeHidden();
      });

      await test.step('Adjust date… shifts the selection a day later (the undated one has nothing to shift), then undo', async () => {
        // A phone shows no selection checks until a long press starts selecting; a desktop shows them on hover.
        if (device === 'phone') await longPressTile(page, path.basename(ZONED));
        else await grid(page).getByRole('checkbox', { name: `Select ${path.basename(ZONED)}` }).check();
        await grid(page).getByRole('checkbox', { name: `Select ${UNDATED}` }).check();
        const bar = page.getByRole('toolbar', { name: 'Selection' });
        await expect(bar.getByText('2 selected')).toBeVisible();
        if (device === 'phone') await press(bar.getByRole('button', { name: 'More actions' }));
        await press(bar.getByRole('button', { name: 'Adjust date…' }));
        const panel = page.getByRole('dialog', { name: 'Adjust date' });
        await panel.getByLabel('Days').fill('1');
        await page.screenshot({ path: test.info().outputPath(`${device}-adjust-date.png`) });
        await press(panel.getByRole('button', { name: 'Adjust 2' }));
        await expect(toast('1 item has no date to shift')).toBeVisible();
        await expect.poll(() => days(page)).toContain('Fri, April 20, 2007');
        await undo('1 date shifted by 1 day');
        await expect.poll(() => days(page)).toContain('Thu, April 19, 2007');
        expect(await days(page)).not.toContain('Fri, April 20, 2007');
      });
    });
  });
}
