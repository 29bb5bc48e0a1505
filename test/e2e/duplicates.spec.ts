/**
 * The Duplicates screen (issue 14 point 6, "open Duplicates and merge a group"), on a server of its own:
 * a "Family" folder registered as a repository with six files of the corpus's duplicates folder,
 * copied here: a byte-identical pair (`exact_el_torcal_rocks.jpg`, `…_copy.jpeg`), a photo and its
 * re-encoded, cropped, smaller copy (`tanners_ridge.jpg`, `…_edited.jpg`), and one frame at two
 * resolutions (`portrait_480p.jpg`, `portrait_240p.jpg`). They go through the real scan and
 * processing, and the server's own detection (the job after ingest) finds the three groups.
 * Shown:
 * - on a 1280×800 desktop: Duplicates from the navigation; the header's recoverable space (the smaller
 *   file of each pair: 53,493 + 21,341 + 37,260 bytes = "112 KB") and counts; each group's photos side
 *   by side with size, resolution and date and the suggested keeper marked (the larger file); "Keep
 *   one" on the exact copies: the group leaves, the bytes recovered are said, the copy is in the Trash
 *   (the page's and the API's); "Not duplicates" on the edited copy: the group leaves and no photo
 *   moves; "Find duplicates" runs in every folder and says what it found (the resolved groups stay
 *   resolved); a photo opens full size in the viewer at /duplicates/photos/<id> and closes back;
 * - on a 390×844 touch phone: the page fits the width, the group's photos sit side by side, with
 *   tap targets of at least 44 px; a tap chooses the smaller frame as the keeper (the space line
 *   follows), "Keep one" keeps it and trashes the larger, and the page ends at "No duplicates found";
 * - at both sizes axe-core (WCAG 2.0/2.1 A and AA, contrast included) finds no serious or critical
 *   violation on the groups, and on the phone's result and empty state.
 * Screenshots are kept under test-results/e2e (the spec's output folder).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { call, signIn as signInAs } from './household.ts';
import { CORPUS, withOwnServer } from './own-server.ts';

// The root tsconfig has no DOM library; these are the page globals used inside page.evaluate.
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

const ADMIN = { username: 'marie', password: 'keeps-one-of-each' };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const EXACT = ['exact_el_torcal_rocks.jpg', 'exact_el_torcal_rocks_copy.jpeg'];
const EDITED = ['tanners_ridge.jpg', 'tanners_ridge_edited.jpg'];
const FRAMES = ['portrait_480p.jpg', 'portrait_240p.jpg'];
const FILES = [...EXACT, ...EDITED, ...FRAMES];
const DETECT_KIND = 'duplicates.detect-duplicates';

const test = withOwnServer('duplicates', []);
test.describe.configure({ mode: 'serial' });
// A shared 2-core machine: scanning, thumbnails and the first page loads take a while.
test.beforeEach(() => test.setTimeout(180_000));

let token = '';

type Asset = { asset_id: string; original_filename: string; state: string; is_deleted: boolean };

async function assetsByName(req: APIRequestContext, filter: Record<string, unknown> = {}): Promise<Record<string, Asset>> {
  const list = await call(req, 'post', '/api/v1/assets/query', token, { data: { filter, pagination: { limit: 50 } } });
  const items = list.items as { media_item: { primary_asset: Asset } }[];
  return Object.fromEntries(items.map((i) => [i.media_item.primary_asset.original_filename, i.media_item.primary_asset]));
}

test.beforeAll(async ({ playwright, hearth }) => {
  test.setTimeout(300_000);
  const family = path.join(hearth.files, 'family');
  fs.mkdirSync(path.join(family, 'camera'), { recursive: true });
  for (const f of FILES) fs.copyFileSync(path.join(CORPUS, 'duplicates', f), path.join(family, 'camera', f));
  const marker = { format: 'hearth-repository', version: 1, id: crypto.randomUUID(), name: 'Family', created_at: new Date().toISOString() };
  fs.writeFileSync(path.join(family, '.hearth-repo'), JSON.stringify(marker));

  const req = await playwright.request.newContext({ baseURL: hearth.url });
  token = (await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Marie' } })).token as string;
  await call(req, 'post', '/api/v1/repositories', token, { data: { name: 'Family', path: family } });
  await expect
    .poll(async () => Object.values(await assetsByName(req)).filter((a) => a.state === 'ready').length, { timeout: 180_000 })
    .toBe(FILES.length);
  // Detection runs by itself shortly after the photos are ready (a job 10 s behind the last one); the
  // page is opened once it has run, so "Find duplicates" below is not told that one is already running.
  await expect
    .poll(
      async () => {
        const { jobs } = (await call(req, 'get', `/api/v1/jobs?kind=${DETECT_KIND}&limit=50`, token)) as unknown as { jobs: { state: string }[] };
        return jobs.length > 0 && jobs.every((j) => j.state === 'completed');
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe(true);
  const summary = await call(req, 'get', '/api/v1/duplicates/summary', token);
  expect(summary).toMatchObject({ pending_groups: 3, pending_assets: 6, recoverable_bytes: 53_493 + 21_341 + 37_260 });
  await req.dispose();
});

const signIn = (page: Page) => signInAs(page, ADMIN);
const groupCards = (page: Page) => page.getByRole('region', { name: 'Duplicate groups' }).getByRole('article');
const card = (page: Page, title: RegExp) => page.getByRole('article', { name: title });
const summary = (page: Page) => page.getByRole('region', { name: 'Duplicates summary' });

async function openDuplicates(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.tap();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Duplicates', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Duplicates', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/duplicates$/);
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

test.describe('on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('the header shows the recoverable space; each group its photos side by side with the keeper suggested', async ({ page }) => {
    await signIn(page);
    await openDuplicates(page);
    await expect(summary(page)).toContainText('3 groups of duplicates, 6 photos. Keeping one photo of each group recovers 112 KB.');
    await expect(groupCards(page)).toHaveCount(3);

    const edited = card(page, /^Similar photos: tanners_ridge\.jpg and 1 other$/);
    await expect(edited).toBeVisible();
    const keep = edited.getByRole('radio', { name: 'Keep tanners_ridge.jpg' });
    await expect(keep).toBeChecked();
    await expect(edited.getByRole('radio', { name: 'Keep tanners_ridge_edited.jpg' })).not.toBeChecked();
    const [original, copy] = [edited.getByRole('listitem').filter({ hasText: 'tanners_ridge.jpg' }), edited.getByRole('listitem').filter({ hasText: 'tanners_ridge_edited.jpg' })];
    await expect(original).toContainText('114 KB · 800 × 534');
    await expect(original).toContainText('Suggested keeper');
    await expect(original).toContainText('Keep');
    await expect(copy).toContainText('21.3 KB · 526 × 351');
    await expect(copy).not.toContainText('Suggested keeper');
    // Taken on the Nikon's clock (EXIF), shown as the photo's own date.
    await expect(original).toContainText(/20\d\d/);
    await expect(edited).toContainText('Keeping one frees 21.3 KB');
    await expect(edited).toContainText('The other photo goes to the Trash (21.3 KB)');
    const [a, b] = [(await original.boundingBox())!, (await copy.boundingBox())!];
    expect(Math.abs(a.y - b.y), 'the photos sit side by side').toBeLessThan(2);
    expect(b.x).toBeGreaterThan(a.x + a.width - 1);

    await expect(card(page, /^Similar photos: portrait_480p\.jpg and 1 other$/).getByRole('radio', { name: 'Keep portrait_480p.jpg' })).toBeChecked();
    await expect(card(page, /^Exact copies: exact_el_torcal_rocks(_copy)?\.jpe?g and 1 other$/)).toContainText('53.5 KB · 512 × 341');
    await page.screenshot({ path: test.info().outputPath('desktop-groups.png'), fullPage: true });
    await expectAccessible(page);
  });

  test('Keep one on the exact copies: the group leaves, the bytes recovered are said, the copy is in the Trash', async ({ page, playwright, hearth }) => {
    await signIn(page);
    await openDuplicates(page);
    const exact = card(page, /^Exact copies:/);
    const kept = (await exact.getByRole('radio', { checked: true }).getAttribute('aria-label'))!.replace(/^Keep /, '');
    const copy = EXACT.find((f) => f !== kept)!;
    expect(EXACT).toContain(kept);

    await exact.getByRole('button', { name: 'Keep one' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Kept ${kept}` })).toContainText(
      `Kept ${kept}; 1 copy moved to the Trash. 53.5 KB recovered once the Trash is emptied`,
    );
    await expect(exact).toHaveCount(0);
    await expect(groupCards(page)).toHaveCount(2);
    await expect(summary(page)).toContainText('2 groups of duplicates, 4 photos. Keeping one photo of each group recovers 58.6 KB.');
    await expect(summary(page)).toContainText('1 merged, 0 kept as they are.');
    await page.screenshot({ path: test.info().outputPath('desktop-merged.png'), fullPage: true });

    const req = await playwright.request.newContext({ baseURL: hearth.url });
    const trashed = await assetsByName(req, { is_deleted: true });
    expect(Object.keys(trashed)).toEqual([copy]);
    await req.dispose();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash', exact: true }).click();
    const trash = page.getByRole('list', { name: 'Trash' });
    await expect(trash.getByRole('listitem')).toHaveCount(1);
    await expect(trash.getByRole('checkbox', { name: `Select ${copy}` })).toBeAttached();
  });

  test('Not duplicates on the edited copy: the group leaves and every photo stays', async ({ page, playwright, hearth }) => {
    await signIn(page);
    await openDuplicates(page);
    const edited = card(page, /^Similar photos: tanners_ridge\.jpg/);
    await edited.getByRole('button', { name: 'Not duplicates' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Kept all 2 photos' })).toContainText('they will not be suggested as duplicates again');
    await expect(edited).toHaveCount(0);
    await expect(groupCards(page)).toHaveCount(1);
    await expect(summary(page)).toContainText('1 group of duplicates, 2 photos. Keeping one photo of each group recovers 37.3 KB.');

    const req = await playwright.request.newContext({ baseURL: hearth.url });
    const trashed = await assetsByName(req, { is_deleted: true });
    expect(Object.keys(trashed).filter((n) => EDITED.includes(n)), 'no photo of a dismissed group moves').toEqual([]);
    await req.dispose();
  });

  test('Find duplicates looks in every folder and says what it found; resolved groups stay resolved', async ({ page }) => {
    await signIn(page);
    await openDuplicates(page);
    await page.getByRole('button', { name: 'Find duplicates' }).click();
    const status = page.locator('.dup-find').getByRole('status');
    await expect(status).toContainText('Found 1 group of duplicates (2 photos): 1 of similar photos.');
    await expect(page.getByRole('button', { name: 'Find duplicates' })).toBeEnabled();
    await expect(groupCards(page)).toHaveCount(1);
    await expect(summary(page)).toContainText(/Last looked (just now|\d+ minutes? ago)\./);
    await page.screenshot({ path: test.info().outputPath('desktop-found.png'), fullPage: true });
  });

  test('a photo opens full size in the viewer and closes back to the groups', async ({ page }) => {
    await signIn(page);
    await openDuplicates(page);
    await page.getByRole('button', { name: 'View portrait_240p.jpg full size' }).click();
    const viewer = page.getByRole('dialog', { name: /portrait_240p\.jpg/ });
    await expect(viewer).toBeVisible();
    await expect(page).toHaveURL(/\/duplicates\/photos\/[0-9a-f-]{36}$/);
    await page.screenshot({ path: test.info().outputPath('desktop-viewer.png') });
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(page).toHaveURL(/\/duplicates$/);
    await expect(groupCards(page)).toHaveCount(1);
  });
});

test.describe('on a phone with touch', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('tap the smaller frame as the keeper, Keep one, and the page ends at No duplicates found', async ({ page, playwright, hearth }) => {
    await signIn(page);
    await openDuplicates(page);
    await expectNoHorizontalOverflow(page);
    const frames = card(page, /^Similar photos: portrait_480p\.jpg and 1 other$/);
    await expect(frames).toBeVisible();
    const big = frames.getByRole('listitem').filter({ hasText: 'portrait_480p.jpg' });
    const small = frames.getByRole('listitem').filter({ hasText: 'portrait_240p.jpg' });
    const [a, b] = [(await big.boundingBox())!, (await small.boundingBox())!];
    expect(Math.abs(a.y - b.y), 'the two photos sit side by side on the phone too').toBeLessThan(2);
    expect(b.height, 'a photo tile is a large tap target').toBeGreaterThanOrEqual(44);
    for (const name of ['Keep one', 'Not duplicates']) {
      expect((await frames.getByRole('button', { name }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    expect((await frames.getByRole('button', { name: 'View portrait_240p.jpg full size' }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: test.info().outputPath('phone-group.png'), fullPage: true });
    await expectAccessible(page);

    await small.locator('.dup-photo__pick').tap();
    await expect(frames.getByRole('radio', { name: 'Keep portrait_240p.jpg' })).toBeChecked();
    await expect(frames.getByRole('radio', { name: 'Keep portrait_480p.jpg' })).not.toBeChecked();
    await expect(frames).toContainText('Keeping one frees 103 KB');
    await page.screenshot({ path: test.info().outputPath('phone-chosen.png'), fullPage: true });

    await frames.getByRole('button', { name: 'Keep one' }).tap();
    await expect(page.getByRole('status').filter({ hasText: 'Kept portrait_240p.jpg' })).toContainText('1 copy moved to the Trash. 103 KB recovered');
    await expect(page.getByRole('heading', { name: 'No duplicates found' })).toBeVisible();
    await expect(summary(page)).toContainText('No duplicates waiting for you.');
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath('phone-done.png'), fullPage: true });
    await expectAccessible(page);

    const req = await playwright.request.newContext({ baseURL: hearth.url });
    const trashed = await assetsByName(req, { is_deleted: true });
    expect(Object.keys(trashed)).toContain('portrait_480p.jpg');
    expect(Object.keys(trashed)).not.toContain('portrait_240p.jpg');
    await req.dispose();
  });
});
