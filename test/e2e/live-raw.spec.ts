/**
 * Live photos and RAW files are visible (issue 12 point 4): on a server of its own, seeded through the
 * API with an Apple live photo pair (a HEIC still and its MOV clip, linked by their content
 * identifier), a Samsung motion photo (the clip inside the HEIC) and a RAW+JPEG pair from a Nikon D1.
 * - the grid shows each pair as one tile, badged "Live" or "RAW";
 * - on a desktop, resting the mouse on a live tile plays its motion over the still (the pair's clip,
 *   or the motion photo's own), and the viewer's "Live" button plays it;
 * - the RAW tile's viewer says RAW and "Download RAW" serves the NEF itself;
 * - on a 390×844 touch phone, tapping "Live" in the viewer plays the motion, which ends on its own;
 * - at both sizes (issue 24 point 4): the three items, taken years apart, share a row (small days
 *   and months share rows, each day labelled, no month header over a lone photo); the selection
 *   checks wait for a hover (desktop) or a long press (phone) and never cover the Live badge.
 * Screenshots are kept under test-results/e2e.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { call, signIn as signInAs } from './household.ts';
import { CORPUS, withOwnServer } from './own-server.ts';

const ADMIN = { username: 'lumiere', password: 'moving-pictures-1895' };
const PAIR = ['live/IMG_7943.HEIC', 'live/IMG_7943_HEVC.MOV'];
const MOTION_PHOTO = 'live/samsung-one-ui-6.heic';
const RAW_PAIR = ['raw/RAW_NIKON_D1.NEF', 'raw/RAW_NIKON_D1.JPG'];
const FILES = [...PAIR, MOTION_PHOTO, ...RAW_PAIR];

const test = withOwnServer('live-raw', FILES);
test.describe.configure({ mode: 'serial' });

interface Row {
  media_item: { media_kind: string; composition: { has_live_motion: boolean; has_raw: boolean }; primary_asset: { state: string; original_filename: string } };
}

test.beforeAll(async ({ playwright, hearth }) => {
  // Five files through HEIF decoding and two video transcodes: slow on a busy 2-core machine.
  test.setTimeout(300_000);
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const session = await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Lumière' } });
  const token = session.token as string;
  for (const f of FILES) {
    const name = path.basename(f);
    await call(req, 'post', '/api/v1/uploads/files', token, {
      multipart: { file: { name, mimeType: 'application/octet-stream', buffer: fs.readFileSync(path.join(hearth.files, name)) } },
    });
  }
  // Five files, three items: each pair is one item once both halves are processed and linked.
  const rows = async () => (await call(req, 'post', '/api/v1/assets/query', token, { data: { pagination: { limit: 20 } } })).items as Row[];
  await expect
    .poll(async () => (await rows()).map((r) => `${r.media_item.primary_asset.original_filename}:${r.media_item.primary_asset.state}:${r.media_item.media_kind}`).sort(), {
      timeout: 180_000,
    })
    .toEqual(['IMG_7943.HEIC:ready:live_photo', 'RAW_NIKON_D1.JPG:ready:photo', 'samsung-one-ui-6.heic:ready:live_photo']);
  // What the server says, so a failure below is the UI's.
  const byName = new Map((await rows()).map((r) => [r.media_item.primary_asset.original_filename, r.media_item.composition]));
  expect(byName.get('IMG_7943.HEIC')).toMatchObject({ has_live_motion: true, has_raw: false });
  expect(byName.get('samsung-one-ui-6.heic')).toMatchObject({ has_live_motion: true, has_raw: false });
  expect(byName.get('RAW_NIKON_D1.JPG')).toMatchObject({ has_live_motion: false, has_raw: true });
  await req.dispose();
});

const grid = (page: Page) => page.getByRole('list', { name: 'Photos and videos' });
const viewer = (page: Page) => page.getByRole('dialog');
const tile = (page: Page, name: string) => grid(page).getByRole('button', { name: new RegExp(`^${name.replace('.', '\\.')}`) });

/**
 * Records, in the page, every video that started playing or failed (media events do not bubble, so
 * they are caught on the way down): a clip that plays and ends between two looks is still seen.
 */
async function recordPlayback(page: Page) {
  // As page script text: the spec's own type checking has no DOM.
  await page.addInitScript({
    content: `window.playback = [];
      for (const type of ['playing', 'error'])
        document.addEventListener(type, (e) => window.playback.push(type + ':' + e.target.className + ':' + (e.target.dataset.liveMotion ?? '')), true);`,
  });
}
const playback = (page: Page) => page.evaluate(() => (globalThis as unknown as { playback: string[] }).playback);

/** Waits until a video of class `cls` has started playing, and checks none failed. */
async function expectPlayed(page: Page, cls: string, times = 1) {
  await expect.poll(async () => (await playback(page)).filter((p) => p.startsWith(`playing:${cls}:`)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(times);
  expect((await playback(page)).filter((p) => p.startsWith('error:'))).toEqual([]);
}

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('pairs are one tile each, badged; hovering a live tile plays its motion; the viewer plays it and gives the RAW', async ({ page }) => {
    test.setTimeout(180_000);
    await recordPlayback(page);
    await signInAs(page, ADMIN);
    await expect(grid(page).getByRole('listitem')).toHaveCount(3);

    await test.step('badges: "Live" on both live photos, "RAW" on the pair, named for screen readers too', async () => {
      for (const name of ['IMG_7943.HEIC', 'samsung-one-ui-6.heic']) {
        await expect(tile(page, name)).toHaveAccessibleName(/live photo/);
        await expect(tile(page, name).locator('.tile__kind')).toHaveText(['Live']);
      }
      await expect(tile(page, 'RAW_NIKON_D1.JPG')).toHaveAccessibleName(/with RAW/);
      await expect(tile(page, 'RAW_NIKON_D1.JPG').locator('.tile__kind')).toHaveText(['RAW']);
      await expect(grid(page).getByRole('button', { name: /^IMG_7943_HEVC\.MOV/ })).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath('desktop-badges.png') });
    });

    await test.step('the mouse resting on a live tile plays the motion over it; leaving stops it', async () => {
      for (const [i, name] of ['IMG_7943.HEIC', 'samsung-one-ui-6.heic'].entries()) {
        const motion = tile(page, name).locator('video.tile__motion');
        await tile(page, name).hover();
        await expectPlayed(page, 'tile__motion', i + 1);
        await page.mouse.move(1270, 790);
        await expect(motion).toHaveCount(0);
      }
      // No motion for a plain photo.
      await tile(page, 'RAW_NIKON_D1.JPG').hover();
      await page.waitForTimeout(600);
      await expect(grid(page).locator('video')).toHaveCount(0);
    });

    await test.step('the viewer\'s Live button plays the motion over the photo', async () => {
      await tile(page, 'IMG_7943.HEIC').click();
      await expect(viewer(page)).toBeVisible();
      const live = viewer(page).getByRole('button', { name: 'Play live photo' });
      await live.click();
      await expectPlayed(page, 'overlay__motion');
      await page.screenshot({ path: test.info().outputPath('desktop-live-playing.png') });
      await page.keyboard.press('Escape');
      await expect(viewer(page)).toBeHidden();
    });

    await test.step('the RAW pair says RAW and "Download RAW" serves the NEF itself', async () => {
      await tile(page, 'RAW_NIKON_D1.JPG').click();
      await expect(viewer(page).locator('.overlay__title')).toContainText('RAW');
      await expect(viewer(page).getByRole('button', { name: 'Play live photo' })).toHaveCount(0);
      const download = viewer(page).getByRole('link', { name: 'Download RAW' });
      await expect(download).toBeVisible();
      const res = await page.request.get((await download.getAttribute('href'))!);
      expect(res.status()).toBe(200);
      const nef = fs.readFileSync(path.join(CORPUS, RAW_PAIR[0]!));
      expect(Buffer.compare(await res.body(), nef), 'the bytes are the NEF as it came from the camera').toBe(0);
    });
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('tapping Live in the viewer plays the motion, which ends by itself', async ({ page }) => {
    test.setTimeout(120_000);
    await recordPlayback(page);
    await signInAs(page, ADMIN);
    await tile(page, 'IMG_7943.HEIC').tap();
    await expect(viewer(page)).toBeVisible();
    const live = viewer(page).getByRole('button', { name: 'Play live photo' });
    await expect(live).toBeVisible();
    await live.tap();
    const motion = viewer(page).locator('video.overlay__motion');
    await expectPlayed(page, 'overlay__motion');
    await page.screenshot({ path: test.info().outputPath('phone-live-playing.png') });
    // The clip is under two seconds: it ends and the still is back.
    await expect(motion).toHaveCount(0, { timeout: 15_000 });
    await expect(viewer(page).getByRole('button', { name: 'Play live photo' })).toHaveAttribute('aria-pressed', 'false');
  });
});

type Box = { x: number; y: number; width: number; height: number };
const box = async (l: Locator): Promise<Box> => (await l.boundingBox())!;
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const check = (page: Page, name: string) => grid(page).getByRole('checkbox', { name: `Select ${name}` });

/** Small days share rows: three items of three different years on one row, each day labelled, no month header. */
async function expectSharedRow(page: Page) {
  const names = ['IMG_7943.HEIC', 'samsung-one-ui-6.heic', 'RAW_NIKON_D1.JPG'];
  await expect(grid(page).getByRole('listitem')).toHaveCount(3);
  const tops = await Promise.all(names.map(async (n) => Math.round((await box(tile(page, n))).y)));
  expect(new Set(tops).size, `tiles at ${tops.join(', ')}: one row`).toBe(1);
  await expect(grid(page).locator('.timeline__month')).toHaveCount(0);
  await expect(grid(page).locator('.timeline__day')).toHaveCount(3);
}

test.describe('small days share rows; checks wait and never cover Live, on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a row of three years; the check shows on hover, beside the Live badge', async ({ page }) => {
    // The first test of a run waits for the seeding (five files through HEIF and video decoding).
    test.setTimeout(300_000);
    await signInAs(page, ADMIN);
    await expectSharedRow(page);
    const live = tile(page, 'IMG_7943.HEIC');
    await page.mouse.move(5, 5);
    await expect(check(page, 'IMG_7943.HEIC')).toHaveCSS('opacity', '0');
    await live.hover();
    await expect(check(page, 'IMG_7943.HEIC')).toHaveCSS('opacity', '1');
    // The badge moves aside with a transition-free style change: read both boxes once it settled.
    await expect.poll(async () => overlaps(await box(check(page, 'IMG_7943.HEIC')), await box(live.locator('.tile__kinds')))).toBe(false);
    await page.screenshot({ path: test.info().outputPath('desktop-check-beside-live.png') });
    // Selecting: every check shows, none over its badge.
    await check(page, 'IMG_7943.HEIC').check();
    await page.mouse.move(5, 5);
    for (const n of ['samsung-one-ui-6.heic', 'RAW_NIKON_D1.JPG']) {
      await expect(check(page, n)).toHaveCSS('opacity', '1');
      expect(overlaps(await box(check(page, n)), await box(tile(page, n).locator('.tile__kinds')))).toBe(false);
    }
    await check(page, 'IMG_7943.HEIC').uncheck();
  });
});

test.describe('small days share rows; checks wait and never cover Live, on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a row of three years; no check until a long press, then beside the Live badge', async ({ page }) => {
    test.setTimeout(300_000);
    await signInAs(page, ADMIN);
    await expectSharedRow(page);
    for (const n of ['IMG_7943.HEIC', 'samsung-one-ui-6.heic', 'RAW_NIKON_D1.JPG']) await expect(check(page, n)).toBeHidden();
    await page.screenshot({ path: test.info().outputPath('phone-no-checks.png') });
    // A long press (touches through CDP, as from a screen) starts selecting.
    const cdp = await page.context().newCDPSession(page);
    const b = await box(tile(page, 'RAW_NIKON_D1.JPG'));
    const at = { x: b.x + b.width / 2, y: b.y + b.height / 2, id: 0 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
    await expect(tile(page, 'RAW_NIKON_D1.JPG')).toHaveAttribute('aria-pressed', 'true');
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    for (const n of ['IMG_7943.HEIC', 'samsung-one-ui-6.heic']) {
      await expect(check(page, n)).toBeVisible();
      expect(overlaps(await box(check(page, n)), await box(tile(page, n).locator('.tile__kinds'))), `${n}: the check beside Live`).toBe(false);
    }
    await page.screenshot({ path: test.info().outputPath('phone-checks-selecting.png') });
  });
});
