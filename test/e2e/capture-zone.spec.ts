/**
 * Capture times in the photo's own zone, and undated items under "No date" (issue 12 point 3), on a
 * server of its own seeded through the API with:
 * - the corpus' IPTC example, taken 2007-04-19 11:03:15 −06:00 (17:03Z);
 * - a PNG made here with sharp, which has no capture time at all.
 * The browser runs in Tokyo (+09:00): converted into the viewer's zone, the photo would show 2:03 AM
 * on 20 April. Checked on a desktop and on a 390×844 touch phone: the day header, the viewer's title
 * and the details (with the offset), and the undated file under "No date" (not "Today").
 * Screenshots are kept under test-results/e2e (the spec's output folder).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { expect, type Page } from '@playwright/test';
import { call, signIn as signInAs } from './household.ts';
import { withOwnServer } from './own-server.ts';

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
  });
}
