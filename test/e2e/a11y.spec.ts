/**
 * Accessibility and weight of the web UI (issue 12 point 6), on a server of its own seeded through
 * the API: an administrator, five corpus photos (four with GPS), a video, and a JPEG cut short (its
 * processing fails, so it has no thumbnail); an album, a favourite, one photo in the Trash.
 * - axe-core (`@axe-core/playwright`, WCAG 2.0/2.1 A and AA rules) on every main screen, at 1280×800
 *   and on a 390×844 touch phone: first run, sign-in, Photos, the viewer (photo, video, the export
 *   panel), Favourites, Trash, Albums, an album, Folders, Map, Upload, Account, Users & settings,
 *   Jobs, Repositories. No serious or critical violation anywhere; every result (with the moderate and
 *   minor ones, and those needing review) is written to test-results/a11y/axe-report.json.
 * - Keyboard: the skip links take focus and move it (to the content; to the photos), the first photo
 *   is three key presses from the top, arrows move in the grid by photo and by row, Home/End, Enter
 *   opens, Space selects, the grid is one Tab stop, and the focus is visible.
 * - The damaged photo's thumbnail is asked for at most once while the grid is scrolled, left and
 *   reopened, and the viewer opened on it.
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CORPUS, withOwnServer } from './own-server.ts';

// The root tsconfig has no DOM library; these are the page globals used inside page.evaluate.
declare const document: { activeElement: { id?: string; className?: string; getAttribute(n: string): string | null; closest(s: string): { getAttribute(n: string): string | null } | null } | null };
declare const window: { scrollTo(x: number, y: number): void; innerHeight: number };
declare function getComputedStyle(el: unknown): { outlineStyle: string; outlineWidth: string };

const ADMIN = { username: 'athena', password: 'owl-eyed-and-wise' };
const PHOTOS = ['gps/DSCN0010.jpg', 'gps/big_ben.jpg', 'gps/Canon_600D_gps.jpg', 'exif/Canon_40D.jpg', 'exif/Nikon_D70.jpg'];
const VIDEO = 'video/sample_640x360.mov';
const DAMAGED = 'damaged-holiday.jpg';
const FILES = [...PHOTOS, VIDEO];

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const REPORT_DIR = path.resolve(import.meta.dirname, '../../test-results/a11y');

const test = withOwnServer('a11y', FILES);
test.describe.configure({ mode: 'serial' });

/** One API call in variant B (the own server's default); the envelope's `data`. */
async function api(req: APIRequestContext, method: 'get' | 'post' | 'put' | 'delete', url: string, token: string | null, options: Record<string, unknown> = {}) {
  const r = await req[method](url, { ...options, headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  const text = await r.text();
  expect(r.ok(), `${method} ${url}: ${text}`).toBeTruthy();
  return (text ? (JSON.parse(text) as { data: unknown }).data : null) as Record<string, unknown>;
}

interface Seeded {
  token: string;
  byName: Record<string, string>;
  albumId: string;
}
let seeded: Seeded;

interface ScreenResult {
  screen: string;
  device: 'desktop' | 'phone';
  url: string;
  violations: { id: string; impact: string | null | undefined; help: string; nodes: { target: unknown; summary: string | undefined }[] }[];
  incomplete: { id: string; impact: string | null | undefined; help: string; nodes: number }[];
  passes: number;
}
const results: ScreenResult[] = [];

/** Runs axe on the page as it is, keeps the result for the report, and fails softly on serious/critical. */
async function check(page: Page, screen: string, device: 'desktop' | 'phone'): Promise<void> {
  // Passing checks are counted, not listed: listing every passing node is most of axe's time.
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).options({ resultTypes: ['violations', 'incomplete'] }).analyze();
  const result: ScreenResult = {
    screen,
    device,
    url: new URL(page.url()).pathname,
    violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })) })),
    incomplete: r.incomplete.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })),
    passes: r.passes.length,
  };
  results.push(result);
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect.soft(bad, `${screen} (${device}): ${JSON.stringify(bad, null, 1)}`).toEqual([]);
}

test.afterAll(() => {
  fs.mkdirSync(REPORT_DIR, { recursive: true });
  fs.writeFileSync(path.join(REPORT_DIR, 'axe-report.json'), `${JSON.stringify({ checked: results.length, results }, null, 2)}\n`);
});

async function newContext(browser: Browser, baseURL: string, device: typeof DESKTOP | typeof PHONE): Promise<BrowserContext> {
  return browser.newContext({ ...device, baseURL });
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();
}

/** Waits until the page's heading shows and nothing says it is still loading. */
async function settled(page: Page, heading: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: heading }).first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

// axe takes seconds per screen on a quiet machine and far more on the shared 2-core one: the
// screen walks have long time limits (they are not timing assertions).
test('the first-run page has no serious or critical violation, on a desktop and a phone', async ({ browser, hearth }) => {
  test.setTimeout(300_000);
  for (const [device, options] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    const context = await newContext(browser, hearth.url, options);
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('button', { name: /create/i }).first()).toBeVisible();
    await check(page, 'first run', device);
    await context.close();
  }
});

test('seed: the administrator, photos, a video, a damaged photo, an album, a favourite, the Trash', async ({ playwright, hearth }) => {
  test.setTimeout(240_000);
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const token = (await api(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Athena' } })).token as string;
  const upload = (name: string, buffer: Buffer) =>
    api(req, 'post', '/api/v1/uploads/files', token, { multipart: { file: { name, mimeType: 'application/octet-stream', buffer } } });
  for (const f of FILES) await upload(path.basename(f), fs.readFileSync(path.join(hearth.files, path.basename(f))));
  // Cut short, as an interrupted copy leaves it: its processing fails and it has no thumbnail.
  const jpeg = fs.readFileSync(path.join(CORPUS, 'exif/jolla.jpg'));
  await upload(DAMAGED, jpeg.subarray(0, Math.floor(jpeg.length / 2)));
  let items: { media_item: { primary_asset: { asset_id: string; original_filename: string; state: string } } }[] = [];
  await expect
    .poll(
      async () => {
        const list = await api(req, 'post', '/api/v1/assets/query', token, { data: { pagination: { limit: 50 } } });
        items = list.items as typeof items;
        return items.filter((i) => ['ready', 'failed'].includes(i.media_item.primary_asset.state)).length;
      },
      { timeout: 180_000 },
    )
    .toBe(FILES.length + 1);
  const byName = Object.fromEntries(items.map((i) => [i.media_item.primary_asset.original_filename, i.media_item.primary_asset.asset_id]));
  expect(items.find((i) => i.media_item.primary_asset.original_filename === DAMAGED)?.media_item.primary_asset.state).toBe('failed');
  const album = await api(req, 'post', '/api/v1/albums', token, { data: { album_name: 'Summer walks' } });
  const albumId = album.album_id as string;
  for (const f of PHOTOS.slice(0, 3)) await api(req, 'post', `/api/v1/albums/${albumId}/assets/${byName[path.basename(f)]!}`, token);
  await api(req, 'put', `/api/v1/assets/${byName['big_ben.jpg']!}/like`, token, { data: { liked: true } });
  await api(req, 'delete', `/api/v1/assets/${byName['Nikon_D70.jpg']!}`, token);
  seeded = { token, byName, albumId };
  await req.dispose();
});

/** The signed-in screens: path, the heading that says it is shown, and what to do before checking. */
const SCREENS: { name: string; path: () => string; heading: string | RegExp; then?: (page: Page) => Promise<void> }[] = [
  { name: 'Photos', path: () => '/', heading: 'Photos' },
  {
    name: 'viewer (photo)',
    path: () => `/photos/${seeded.byName['DSCN0010.jpg']!}`,
    heading: 'Photos',
    then: async (page) => {
      await expect(page.getByRole('dialog', { name: 'DSCN0010.jpg' })).toBeVisible();
      await expect(page.getByRole('dialog').locator('img').first()).toBeVisible();
    },
  },
  {
    name: 'viewer (video)',
    path: () => `/photos/${seeded.byName[path.basename(VIDEO)]!}`,
    heading: 'Photos',
    then: async (page) => {
      await expect(page.getByRole('dialog').locator('video')).toBeVisible();
    },
  },
  {
    name: 'viewer: export panel',
    path: () => `/photos/${seeded.byName['DSCN0010.jpg']!}`,
    heading: 'Photos',
    then: async (page) => {
      const dialog = page.getByRole('dialog', { name: 'DSCN0010.jpg' });
      // The viewer's script loads on demand: wait for it before asking whether "More" is shown (a phone).
      await expect(dialog.getByRole('button', { name: 'Details' })).toBeVisible();
      const more = dialog.getByRole('button', { name: 'More actions' });
      if (await more.isVisible()) await more.click();
      await dialog.getByRole('button', { name: 'Export' }).click();
      await expect(dialog.getByRole('region', { name: 'Export' }).getByRole('button', { name: 'Cancel' })).toBeVisible();
    },
  },
  {
    name: 'viewer (damaged photo)',
    path: () => `/photos/${seeded.byName[DAMAGED]!}`,
    heading: 'Photos',
    then: async (page) => {
      await expect(page.getByRole('dialog', { name: DAMAGED })).toBeVisible();
    },
  },
  { name: 'Favourites', path: () => '/favourites', heading: 'Favourites' },
  { name: 'Trash', path: () => '/trash', heading: 'Trash' },
  { name: 'Albums', path: () => '/albums', heading: 'Albums' },
  { name: 'an album', path: () => `/albums/${seeded.albumId}`, heading: 'Summer walks' },
  { name: 'Folders', path: () => '/folders', heading: 'Folders' },
  { name: 'Map', path: () => '/map', heading: 'Map' },
  { name: 'Upload', path: () => '/upload', heading: 'Upload' },
  { name: 'Account', path: () => '/account', heading: 'Account' },
  { name: 'Users & settings (users, network, registration, invites)', path: () => '/admin', heading: 'Users & settings' },
  { name: 'Jobs', path: () => '/admin/jobs', heading: 'Jobs' },
  { name: 'Repositories', path: () => '/admin/repositories', heading: 'Repositories' },
];

for (const [device, options] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  test(`every main screen has no serious or critical violation (${device})`, async ({ browser, hearth }) => {
    test.setTimeout(1_200_000);
    const context = await newContext(browser, hearth.url, options);
    const page = await context.newPage();
    await page.goto('/sign-in');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await check(page, 'sign-in', device);
    await signIn(page);
    for (const s of SCREENS) {
      await page.goto(s.path());
      await settled(page, s.heading);
      await s.then?.(page);
      await check(page, s.name, device);
      await page.screenshot({ path: test.info().outputPath(`${device}-${s.name.replace(/[^a-z]+/gi, '-')}.png`) });
    }
    // The phone's navigation drawer, open.
    if (device === 'phone') {
      await page.goto('/');
      await settled(page, 'Photos');
      await page.getByRole('button', { name: 'Menu' }).click();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await check(page, 'navigation drawer', device);
    }
    await context.close();
  });
}

test('keyboard: skip links work, the first photo is three presses away, arrows move in the grid, Enter opens, Space selects', async ({ browser, hearth }) => {
  test.setTimeout(180_000);
  const context = await newContext(browser, hearth.url, DESKTOP);
  const page = await context.newPage();
  await signIn(page);
  const grid = page.getByRole('list', { name: 'Photos and videos' });
  const IN_GRID = FILES.length - 1 + 1; // one photo is in the Trash; the damaged one is in the grid
  await expect(grid.getByRole('listitem')).toHaveCount(IN_GRID);

  // Skip to content: the first Tab reaches it (it shows), Enter moves the focus to the main content.
  await page.goto('/');
  await expect(grid.getByRole('listitem').first()).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();

  // Skip to photos: Tab, Tab, Enter lands on the first photo.
  await page.goto('/');
  await expect(grid.getByRole('listitem').first()).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to photos' })).toBeFocused();
  await page.keyboard.press('Enter');
  const tileAt = (i: number) => page.locator(`[data-index="${i}"] .tile`);
  const focusedIndex = () => page.evaluate(() => Number(document.activeElement?.closest('[data-index]')?.getAttribute('data-index') ?? -1));
  await expect(tileAt(0)).toBeFocused();
  // The focus is visible: the tile draws an outline.
  const outline = await tileAt(0).evaluate((el) => getComputedStyle(el));
  expect(outline.outlineStyle).not.toBe('none');
  expect(parseFloat(outline.outlineWidth)).toBeGreaterThanOrEqual(2);

  // Arrows: right and left by one; down and up by a row (same column), Home and End.
  await page.keyboard.press('ArrowRight');
  expect(await focusedIndex()).toBe(1);
  await page.keyboard.press('ArrowLeft');
  expect(await focusedIndex()).toBe(0);
  await page.keyboard.press('End');
  expect(await focusedIndex()).toBe(IN_GRID - 1);
  await page.keyboard.press('Home');
  expect(await focusedIndex()).toBe(0);
  // Rows of this grid (grouped by day): down lands in the next row, in the same column or its last tile.
  const rowTops = await grid.getByRole('listitem').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-index')), parseFloat((e as unknown as { style: { top: string } }).style.top)] as const));
  const topOf = new Map(rowTops);
  await page.keyboard.press('ArrowDown');
  const down = await focusedIndex();
  expect(down).toBeGreaterThan(0);
  expect(topOf.get(down)!).toBeGreaterThan(topOf.get(0)!);
  await page.keyboard.press('ArrowUp');
  expect(await focusedIndex()).toBe(0);

  // The grid is one Tab stop: Tab from a tile leaves the grid.
  await page.keyboard.press('Tab');
  expect(await focusedIndex()).toBe(-1);
  await page.keyboard.press('Shift+Tab');
  expect(await focusedIndex()).toBe(0);

  // Space selects (the selection bar comes), Space again unselects; Enter opens the viewer.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(page.getByText('1 selected')).toBeVisible();
  await expect(tileAt(1)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.keyboard.press('Space');
  await expect(page.getByText('1 selected')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page).toHaveURL(/\/photos\//);
  await context.close();
});

test('the damaged photo’s thumbnail is asked for at most once while scrolling, leaving, coming back and opening it', async ({ browser, hearth }) => {
  test.setTimeout(180_000);
  const context = await newContext(browser, hearth.url, PHONE);
  const page = await context.newPage();
  const damagedId = seeded.byName[DAMAGED]!;
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/assets/${damagedId}/thumbnail`) && r.url().includes('size=small')) asked.push(r.url());
  });
  await signIn(page);
  const grid = page.getByRole('list', { name: 'Photos and videos' });
  const damagedTile = grid.getByRole('button', { name: new RegExp(`^${DAMAGED}`) });
  await expect(damagedTile).toBeVisible();
  await expect(damagedTile.getByText("Can't be shown")).toBeVisible();
  for (let round = 0; round < 3; round++) {
    // Scrolled away (the phone's grid draws only what is near the screen) and back.
    await page.evaluate(() => window.scrollTo(0, 100_000));
    await page.waitForTimeout(200);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(damagedTile).toBeVisible();
    // Another page and back: the grid is made again.
    await page.getByRole('link', { name: 'Albums' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Albums' })).toBeVisible();
    await page.goBack();
    await expect(damagedTile).toBeVisible();
    await expect(damagedTile.getByText("Can't be shown")).toBeVisible();
  }
  // The viewer on it, closed, and the grid again.
  await damagedTile.click();
  await expect(page.getByRole('dialog', { name: DAMAGED })).toBeVisible();
  await page.goBack();
  await expect(damagedTile).toBeVisible();
  expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(1);
  await context.close();
});
