/**
 * Places (issue 14 point 6: "the Places list and a place's photos"; "the map's clusters carry place
 * names"), on a server of its own: a member uploads six geotagged photos of the corpus (copied here):
 * two of Big Ben (London), two Nikon shots by Arezzo (Tuscany), one in Florence, one in Helsinki.
 * The server names their positions with its offline gazetteer (polled until it has). Shown:
 * - on a 1280×800 desktop: Places from the navigation; the Cities tab with a card per town (cover,
 *   name, country, count; most photos first); London opens its two photos as a grid, one opens in the
 *   viewer at /places/<id>/photos/<asset> and closes back; "Show on map" centres the map on London,
 *   whose cluster is named "London, United Kingdom · 2 photos" and says so when clicked, with a way
 *   back to the place; the Countries tab lists Italy 3, United Kingdom 2, Finland 1;
 * - on a 390×844 touch phone: Places from the Menu, a tap on Florence shows its photo, "Show on map"
 *   and a tap on the cluster name it (the map fills the screen, its markers are 44 px tap targets, and
 *   zoomed in it draws its finer outlines, overzoomed past their detail), Countries by a tap; the
 *   page fits the width;
 * - at both sizes axe-core (WCAG 2.0/2.1 A and AA, contrast included) finds no serious or critical
 *   violation on the Places list.
 * Screenshots are kept under test-results/e2e (the spec's output folder).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { call, signIn as signInAs, uploadAndWait } from './household.ts';
import { withOwnServer } from './own-server.ts';
import path from 'node:path';

// The root tsconfig has no DOM library; these are the page globals used inside page.evaluate.
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };
type Rect = { left: number; right: number; top: number; bottom: number };
type Boxed = { getBoundingClientRect(): Rect };

const ADMIN = { username: 'ines', password: 'places-we-have-been' };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const FILES = ['big_ben.jpg', 'big_ben_no_tsoffset_but_gps_utc.jpg', 'DSCN0010.jpg', 'DSCN0012.jpg', 'Nikon_D70s_gps.jpg', 'HMD_Nokia_8.3_5G.jpg'];

const test = withOwnServer(
  'places',
  FILES.map((f) => path.join('gps', f)),
);
test.describe.configure({ mode: 'serial' });
// A shared 2-core machine: uploads, thumbnails and the first page loads take a while.
test.beforeEach(() => test.setTimeout(180_000));

test.beforeAll(async ({ playwright, hearth }) => {
  test.setTimeout(300_000);
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const token = (await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Inês' } })).token as string;
  await uploadAndWait(req, token, hearth.files, FILES);
  // The positions are named by a job moments after the photos are ready: wait for all four towns.
  await expect
    .poll(async () => ((await call(req, 'get', '/api/v1/places?level=city', token)) as { places: { name: string; photo_count: number }[] }).places.map((p) => `${p.name} ${p.photo_count}`), {
      timeout: 120_000,
      intervals: [1000],
    })
    .toEqual(['Arezzo 2', 'London 2', 'Florence 1', 'Helsinki 1']);
  await req.dispose();
});

const signIn = (page: Page) => signInAs(page, ADMIN);
const cards = (page: Page, tab: string) => page.getByRole('tabpanel').getByRole('list', { name: tab }).getByRole('listitem');

async function openPlaces(page: Page, tap: boolean): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.tap();
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Places', exact: true });
  if (tap) await link.tap();
  else await link.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Places', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/places$/);
  await expect(page.getByRole('tab', { name: 'Cities' })).toHaveAttribute('aria-selected', 'true');
}

/** axe-core's WCAG 2.0/2.1 A and AA rules (contrast included): no serious or critical violation. */
async function expectAccessible(page: Page): Promise<void> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(size.scrollWidth, 'the page is wider than the screen').toBeLessThanOrEqual(size.innerWidth);
}

/** Zoomed in on a place, the map draws its finer outlines (1:50m), with land on screen. */
async function expectDetailedLand(page: Page) {
  const map = page.getByRole('group', { name: /^World map with \d+ places$/ });
  await expect(map.locator('.map__land[data-detail="50m"] path').first()).toBeAttached();
  const landOnScreen = await map.evaluate((svg: Boxed & { querySelectorAll(s: string): Iterable<Boxed> }) => {
    const box = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('.map__land[data-detail="50m"] path')].some((p) => {
      const r = p.getBoundingClientRect();
      return r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom;
    });
  });
  expect(landOnScreen, 'the finer outlines cover part of the view').toBe(true);
}

/** On a phone the map fills the screen, markers are finger-sized, and the deepest zoom still shows land. */
async function expectPhoneMap(page: Page, cluster: Locator) {
  const map = page.getByRole('group', { name: /^World map with \d+ places$/ });
  const frame = (await map.boundingBox())!;
  expect(frame.width, 'the map spans the phone').toBeGreaterThanOrEqual(340);
  expect(frame.height, 'the map fills the screen, not a 2:1 strip').toBeGreaterThanOrEqual(844 * 0.5);
  const hit = (await cluster.boundingBox())!;
  expect(Math.min(hit.width, hit.height), 'a marker is a 44 px tap target').toBeGreaterThanOrEqual(44);
  await expectDetailedLand(page);
  // Past the finest outlines' detail, the map overzooms them: never an empty view.
  const zoomIn = page.getByRole('button', { name: 'Zoom in' });
  for (let i = 0; i < 3; i++) await zoomIn.tap();
  await expect(cluster).toBeVisible();
  await expectDetailedLand(page);
  await page.screenshot({ path: test.info().outputPath('phone-map-deepest.png') });
  const zoomOut = page.getByRole('button', { name: 'Zoom out' });
  for (let i = 0; i < 3; i++) await zoomOut.tap();
}

test.describe('on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('Places lists the cities with covers and counts; London opens its photos; the map names its cluster; Countries add up', async ({ page }) => {
    await signIn(page);
    await openPlaces(page, false);
    const cities = cards(page, 'Cities');
    await expect(cities).toHaveCount(4);
    await expect(cities.nth(0)).toContainText('Arezzo');
    await expect(cities.nth(0)).toContainText('Italy · 2 photos');
    await expect(cities.nth(1)).toContainText('London');
    await expect(cities.nth(1)).toContainText('United Kingdom · 2 photos');
    await expect(cities.filter({ hasText: 'Helsinki' })).toContainText('Finland · 1 photo');
    // Every card shows its cover photo (decoded, not a broken image).
    for (let i = 0; i < 4; i++) {
      await expect.poll(() => cities.nth(i).locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    }
    await page.screenshot({ path: test.info().outputPath('desktop-cities.png'), fullPage: true });
    await expectAccessible(page);

    await cities.filter({ hasText: 'London' }).getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: 'London, United Kingdom' })).toBeVisible();
    await expect(page).toHaveURL(/\/places\/[A-Za-z0-9_-]+$/);
    const grid = page.getByRole('list', { name: 'Photos taken in London, United Kingdom' });
    await expect(grid.getByRole('listitem')).toHaveCount(2);
    await expect(page.getByText('2 photos taken here.')).toBeVisible();
    await grid.getByRole('button', { name: /^big_ben\.jpg/ }).click();
    const viewer = page.getByRole('dialog', { name: /big_ben\.jpg/ });
    await expect(viewer).toBeVisible();
    await expect(page).toHaveURL(/\/places\/[A-Za-z0-9_-]+\/photos\/[0-9a-f-]{36}$/);
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(grid.getByRole('listitem')).toHaveCount(2);
    await page.screenshot({ path: test.info().outputPath('desktop-london.png'), fullPage: true });

    await page.getByRole('link', { name: 'Show on map' }).click();
    await expect(page).toHaveURL(/\/map\?lat=51\.\d+&lon=-0\.\d+$/);
    const cluster = page.getByRole('button', { name: 'London, United Kingdom · 2 photos' });
    await expect(cluster).toBeVisible();
    await expectDetailedLand(page);
    expect((await cluster.boundingBox())!.width, 'a marker is easy to hit').toBeGreaterThanOrEqual(44);
    await cluster.click();
    const panel = page.getByRole('complementary', { name: 'Photos at this place' });
    await expect(panel).toContainText('London, United Kingdom · 2 photos');
    await page.screenshot({ path: test.info().outputPath('desktop-map.png') });
    await panel.getByRole('link', { name: 'Open place' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'London, United Kingdom' })).toBeVisible();

    await page.getByRole('link', { name: 'All places' }).click();
    await page.getByRole('tab', { name: 'Countries' }).click();
    await expect(page).toHaveURL(/\/places\?level=country$/);
    const countries = cards(page, 'Countries');
    await expect(countries).toHaveCount(3);
    await expect(countries.nth(0)).toContainText('Italy');
    await expect(countries.nth(0)).toContainText('3 photos');
    await expect(countries.nth(1)).toContainText('United Kingdom');
    await expect(countries.nth(1)).toContainText('2 photos');
    await expect(countries.nth(2)).toContainText('Finland');
    await expect(countries.nth(2)).toContainText('1 photo');
    await countries.nth(0).getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Italy', exact: true })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Photos taken in Italy' }).getByRole('listitem')).toHaveCount(3);
    await page.screenshot({ path: test.info().outputPath('desktop-italy.png'), fullPage: true });
  });
});

test.describe('on a phone with touch', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('Places from the Menu, a tap on Florence shows its photo, the map names the cluster, Countries by a tap', async ({ page }) => {
    await signIn(page);
    await openPlaces(page, true);
    await expectNoHorizontalOverflow(page);
    const cities = cards(page, 'Cities');
    await expect(cities).toHaveCount(4);
    const florence = cities.filter({ hasText: 'Florence' });
    expect((await florence.getByRole('link').boundingBox())!.height, 'a card is a large tap target').toBeGreaterThanOrEqual(44);
    expect((await page.getByRole('tab', { name: 'Countries' }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: test.info().outputPath('phone-cities.png'), fullPage: true });
    await expectAccessible(page);

    await florence.getByRole('link').tap();
    await expect(page.getByRole('heading', { level: 1, name: 'Florence, Italy' })).toBeVisible();
    const grid = page.getByRole('list', { name: 'Photos taken in Florence, Italy' });
    await expect(grid.getByRole('listitem')).toHaveCount(1);
    await expect(grid.getByRole('button', { name: /^Nikon_D70s_gps\.jpg/ })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath('phone-florence.png'), fullPage: true });

    await page.getByRole('link', { name: 'Show on map' }).tap();
    await expect(page).toHaveURL(/\/map\?lat=43\.\d+&lon=11\.\d+$/);
    const cluster = page.getByRole('button', { name: 'Florence, Italy · 1 photo' });
    await expect(cluster).toBeVisible();
    await expectPhoneMap(page, cluster);
    await cluster.tap();
    await expect(page.getByRole('complementary', { name: 'Photos at this place' })).toContainText('Florence, Italy · 1 photo');
    await page.screenshot({ path: test.info().outputPath('phone-map.png') });

    await page.goto('/places');
    await page.getByRole('tab', { name: 'Countries' }).tap();
    const countries = cards(page, 'Countries');
    await expect(countries).toHaveCount(3);
    await expect(countries.nth(0)).toContainText('Italy');
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath('phone-countries.png'), fullPage: true });
  });
});
