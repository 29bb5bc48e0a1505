/**
 * Browsing and organising end to end, on a server of its own seeded from a template (its administrator
 * and corpus files, processed: RECIPES.e2eBrowse; uploading is library.spec's subject): the timeline grouped by day, the viewer
 * stepped with the keyboard, like and rate, favourites, multi-select to the trash and restore,
 * a zip download of a selection, and the timeline and viewer at phone width.
 * Screenshots are kept as artifacts under test-results/e2e.
 */
import { execFileSync } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signIn as signInAs } from './household.ts';
import { withOwnServer } from './own-server.ts';
import { RECIPES } from '../template/recipes.ts';

const ADMIN = RECIPES.e2eBrowse.admin;
const PHONE = { width: 390, height: 844 };
/** Photos taken on different days, plus a video. */
const FILES = ['gps/DSCN0010.jpg', 'gps/big_ben.jpg', 'exif/Canon_40D.jpg', 'gps/Canon_600D_gps.jpg', 'video/with-gps.mp4'];

const test = withOwnServer('browse', FILES, { template: RECIPES.e2eBrowse });
test.describe.configure({ mode: 'serial' });


const signIn = (page: Page) => signInAs(page, ADMIN);

const grid = (page: Page, name = 'Photos and videos') => page.getByRole('list', { name });
const tile = (page: Page, file: string, list?: string) => grid(page, list).getByRole('button', { name: new RegExp(`^${file.replace('.', '\\.')}`) });

async function go(page: Page, link: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: link, exact: true })).toBeVisible();
}

test('timeline by day, viewer with keys, like and rate, favourites', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  await expect(grid(page).getByRole('listitem')).toHaveCount(FILES.length);
  // Grouped by the day each was taken: more than one day heading.
  expect(await grid(page).getByRole('heading', { level: 2 }).count()).toBeGreaterThan(1);
  await page.screenshot({ path: test.info().outputPath('timeline.png'), fullPage: true });

  await tile(page, 'big_ben.jpg').click();
  let viewer = page.getByRole('dialog', { name: 'big_ben.jpg' });
  await expect(viewer).toBeVisible();
  // Step right, then back left, with the keyboard.
  await page.keyboard.press('ArrowRight');
  await expect(viewer).toBeHidden();
  await page.keyboard.press('ArrowLeft');
  viewer = page.getByRole('dialog', { name: 'big_ben.jpg' });
  await expect(viewer).toBeVisible();

  // F favourites, 4 rates; the details panel shows the rating.
  await page.keyboard.press('f');
  await expect(viewer.getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('i');
  const details = viewer.getByRole('complementary', { name: 'Details' });
  await expect(details).toBeVisible();
  await page.keyboard.press('4');
  await expect(details.getByRole('radio', { name: '4 stars' })).toHaveAttribute('aria-checked', 'true');
  await page.screenshot({ path: test.info().outputPath('viewer.png') });

  // Export as a small WebP under a chosen name.
  await viewer.getByRole('button', { name: 'Export' }).click();
  const options = viewer.getByRole('complementary', { name: 'Export options' });
  await options.getByLabel('Format').selectOption('webp');
  await options.getByLabel(/Longest side/).fill('120');
  await options.getByLabel('File name').fill('tower');
  const [exported] = await Promise.all([page.waitForEvent('download'), options.getByRole('link', { name: 'Download WEBP' }).click()]);
  expect(exported.suggestedFilename()).toBe('tower.webp');
  const meta = await sharp(await exported.path()).metadata();
  expect(meta.format).toBe('webp');
  expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(120);
  await viewer.getByRole('button', { name: 'Close' }).click();

  await go(page, 'Favourites');
  await expect(tile(page, 'big_ben.jpg', 'Favourites')).toBeVisible();
  await expect(grid(page, 'Favourites').getByRole('listitem')).toHaveCount(1);

  // The choice survives a reload (it is on the server).
  await page.reload();
  await expect(tile(page, 'big_ben.jpg', 'Favourites')).toHaveAccessibleName(/favourite/);
});

test('filter the timeline by camera and by type; the filter survives a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  // The filters sit behind one button (browse-finish.spec.ts shows the sheet and chips in detail).
  await page.getByRole('button', { name: /^Filters/ }).click();
  const filters = page.getByRole('search', { name: 'Filters' });
  await filters.getByLabel('Camera').selectOption({ label: 'Canon EOS 40D' });
  await expect(grid(page).getByRole('listitem')).toHaveCount(1);
  await expect(tile(page, 'Canon_40D.jpg')).toBeVisible();
  await expect(page.getByText('1 photo or video matches the filters.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('list', { name: 'Filters set' }).getByText('Camera: Canon EOS 40D')).toBeVisible();
  await expect(grid(page).getByRole('listitem')).toHaveCount(1);
  await page.getByRole('button', { name: 'Remove filter Camera: Canon EOS 40D' }).click();
  await page.getByRole('button', { name: /^Filters/ }).click();
  await page.getByRole('search', { name: 'Filters' }).getByLabel('Type').selectOption('VIDEO');
  await expect(grid(page).getByRole('listitem')).toHaveCount(1);
  await expect(tile(page, 'with-gps.mp4')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('filtered.png'), fullPage: true });
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.keyboard.press('Escape');
  await expect(grid(page).getByRole('listitem')).toHaveCount(FILES.length);
});

test('multi-select: download a zip, move to trash, restore', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  await grid(page).getByRole('checkbox', { name: 'Select DSCN0010.jpg' }).check();
  await grid(page).getByRole('checkbox', { name: 'Select Canon_40D.jpg' }).check();
  const bar = page.getByRole('toolbar', { name: 'Selection' });
  await expect(bar.getByText('2 selected')).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), bar.getByRole('button', { name: 'Download' }).click()]);
  const zip = test.info().outputPath('selection.zip');
  await download.saveAs(zip);
  const listing = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n').sort();
  expect(listing).toEqual(['Canon_40D.jpg', 'DSCN0010.jpg']);

  await bar.getByRole('button', { name: 'Move to trash' }).click();
  await expect(grid(page).getByRole('listitem')).toHaveCount(FILES.length - 2);

  await go(page, 'Trash');
  const trash = grid(page, 'Trash');
  await expect(trash.getByRole('listitem')).toHaveCount(2);
  await trash.getByRole('checkbox', { name: 'Select Canon_40D.jpg' }).check();
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Restore' }).click();
  await expect(trash.getByRole('listitem')).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('trash.png'), fullPage: true });

  await go(page, 'Photos');
  await expect(grid(page).getByRole('listitem')).toHaveCount(FILES.length - 1);
});

test('albums: create one from a selection, open it, reorder and pick the cover', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  await grid(page).getByRole('checkbox', { name: 'Select big_ben.jpg' }).check();
  await grid(page).getByRole('checkbox', { name: 'Select Canon_600D_gps.jpg' }).check();
  const bar = page.getByRole('toolbar', { name: 'Selection' });
  await bar.getByRole('button', { name: 'Add to album' }).click();
  const menu = page.getByRole('dialog', { name: 'Add to album' });
  await menu.getByLabel('New album name').fill('Summer walks');
  await menu.getByRole('button', { name: 'Create and add' }).click();
  await expect(bar).toBeHidden();

  await go(page, 'Albums');
  const card = page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Summer walks/ });
  await expect(card).toContainText('2 items');
  await card.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Summer walks' })).toBeVisible();
  const album = grid(page, 'Album Summer walks');
  await expect(album.getByRole('listitem')).toHaveCount(2);
  // Album order is the order of adding; move the second one earlier.
  const names = () => album.getByRole('button').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  const before = await names();
  await album.getByRole('checkbox').nth(1).check();
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Move earlier' }).click();
  await expect.poll(names).toEqual([before[1], before[0]]);
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Make cover' }).click();
  await page.screenshot({ path: test.info().outputPath('album.png'), fullPage: true });
  await page.reload();
  await expect.poll(names).toEqual([before[1], before[0]]);
});

test('map: photos with a location on the offline world map, a place lists its photos', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  await go(page, 'Map');
  await expect(page.getByText(/^\d+ photos with a location\. See them by place$/)).toBeVisible();
  const map = page.getByRole('group', { name: /^World map with \d+ places$/ });
  await expect(map).toBeVisible();
  expect(await map.locator('.map__land path').count()).toBeGreaterThan(100);
  const place = map.getByRole('button').first();
  await place.click();
  const panel = page.getByRole('complementary', { name: 'Photos at this place' });
  await expect(panel.getByRole('button').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('map.png'), fullPage: true });
  await panel.getByRole('listitem').first().getByRole('button').click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('folders: walk into the upload folder and see its files', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  await go(page, 'Folders');
  const folders = page.getByRole('list', { name: 'Folders' });
  await expect(folders.getByRole('link').first()).toBeVisible();
  // Uploads land in dated folders of the primary repository: walk down until files show.
  for (let depth = 0; depth < 4; depth++) {
    const files = page.getByRole('list', { name: /^Files in / });
    if (await files.isVisible()) break;
    await page.getByRole('list', { name: 'Folders' }).getByRole('link').first().click();
    await expect(page.getByRole('navigation', { name: 'Folder path' })).toBeVisible();
    // Loaded: either files directly here, or none (then a subfolder is listed).
    await expect(page.getByRole('list', { name: /^Files in / }).or(page.getByRole('heading', { name: 'No files directly here' }))).toBeVisible();
  }
  await expect(page.getByRole('list', { name: /^Files in / }).getByRole('listitem').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('folders.png'), fullPage: true });
});

test('phone width: timeline in three columns, viewer opens and steps', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page);
  const first = grid(page).getByRole('listitem').first();
  const box = (await first.boundingBox())!;
  expect(box.width).toBeLessThan(PHONE.width / 2.5);
  await first.getByRole('button').click();
  const viewer = page.getByRole('dialog');
  await expect(viewer).toBeVisible();
  await viewer.getByRole('button', { name: 'Next' }).click();
  await expect(viewer).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('phone-viewer.png') });
});

test('stacks: stack a selection, expand and collapse, take a photo out in the viewer', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  const all = FILES.length - 1; // DSCN0010.jpg stays in the trash since the multi-select test
  await expect(grid(page).getByRole('listitem')).toHaveCount(all);
  await grid(page).getByRole('checkbox', { name: 'Select big_ben.jpg' }).check();
  await grid(page).getByRole('checkbox', { name: 'Select Canon_40D.jpg' }).check();
  const bar = page.getByRole('toolbar', { name: 'Selection' });
  await bar.getByRole('button', { name: 'Stack', exact: true }).click();
  await expect(bar).toBeHidden();

  // One tile for the two, the first picked on top, with a badge counting them.
  await expect(grid(page).getByRole('listitem')).toHaveCount(all - 1);
  await expect(tile(page, 'big_ben.jpg')).toHaveAccessibleName(/stack of 2/);
  await expect(tile(page, 'big_ben.jpg').locator('.tile__badge--stack')).toHaveText('2');
  await expect(tile(page, 'Canon_40D.jpg')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('stacks.png'), fullPage: true });

  // Expanded: every member its own tile; the switch is in the URL, so it survives a reload.
  // The switch flips in the same task as the click: a URL update in a transition would have React
  // put the controlled switch back until the transition commits (and a check at that moment fails).
  const flipped = await page
    .getByRole('switch', { name: 'Expand stacks' })
    .evaluate((el) => {
      const input = el as unknown as { click(): void; checked: boolean };
      input.click();
      return input.checked;
    });
  expect(flipped).toBe(true);
  await expect(page).toHaveURL(/[?&]stacks=expanded/);
  await expect(grid(page).getByRole('listitem')).toHaveCount(all);
  await expect(tile(page, 'Canon_40D.jpg')).toHaveAccessibleName(/in a stack of 2/);
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Expand stacks' })).toBeChecked();
  await expect(grid(page).getByRole('listitem')).toHaveCount(all);

  // The viewer lists the stack's members; pick the other one, then take it out of the stack.
  await tile(page, 'big_ben.jpg').click();
  const viewer = page.getByRole('dialog');
  const strip = viewer.getByRole('list', { name: 'Photos in this stack' });
  await expect(strip.getByRole('listitem')).toHaveCount(2);
  await strip.getByRole('button', { name: 'Photo 2 of 2' }).click();
  await expect(page.getByRole('dialog', { name: 'Canon_40D.jpg' })).toBeVisible();
  await expect(strip.getByRole('button', { name: 'Photo 2 of 2' })).toHaveAttribute('aria-current', 'true');
  await page.screenshot({ path: test.info().outputPath('stack-viewer.png') });
  await viewer.getByRole('button', { name: 'Remove from stack' }).click();
  await expect(viewer.getByRole('status').filter({ hasText: 'Canon_40D.jpg was taken out of the stack.' })).toBeVisible();
  // A stack of two left with one dissolves: no strip any more, back on the photo it was opened on.
  await expect(strip).toBeHidden();
  await expect(page.getByRole('dialog', { name: 'big_ben.jpg' })).toBeVisible();
  await viewer.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('switch', { name: 'Expand stacks' }).uncheck();
  await expect(page).not.toHaveURL(/stacks=/);
  await expect(grid(page).getByRole('listitem')).toHaveCount(all);
  await expect(tile(page, 'big_ben.jpg')).not.toHaveAccessibleName(/stack/);
  await expect(tile(page, 'Canon_40D.jpg')).not.toHaveAccessibleName(/stack/);
  await expect(grid(page).locator('.tile__badge--stack')).toHaveCount(0);
});

test('tag a selection: progress, a failure shown and retried, then the tag filter finds exactly those', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  // Hold the tag requests so the progress can be seen, and make the first one fail once.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let failedOnce = false;
  await page.route('**/api/v1/assets/*/tags', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await gate;
    if (failedOnce) return route.fallback();
    failedOnce = true;
    return route.fulfill({
      status: 503,
      contentType: 'application/problem+json',
      body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, code: 'busy', detail: 'Hearth is busy. Try again.' }),
    });
  });

  await grid(page).getByRole('checkbox', { name: 'Select Canon_40D.jpg' }).check();
  await grid(page).getByRole('checkbox', { name: 'Select Canon_600D_gps.jpg' }).check();
  const bar = page.getByRole('toolbar', { name: 'Selection' });
  await bar.getByRole('button', { name: 'Tag…', exact: true }).click();
  const panel = page.getByRole('dialog', { name: 'Tag selection' });
  await panel.getByLabel('Tag name').fill('holiday');
  await panel.getByRole('button', { name: 'Tag 2' }).click();
  await expect(panel.getByRole('status')).toHaveText(/Tagging 0 of 2…/);
  await expect(panel.getByRole('progressbar', { name: 'Tagging with holiday' })).toBeVisible();
  release();

  await expect(panel.getByRole('status')).toHaveText('Tagged 1 of 2 with “holiday”.');
  const failure = panel.getByRole('alert');
  await expect(failure).toContainText('1 could not be tagged:');
  await expect(failure).toContainText(/(Canon_40D|Canon_600D_gps)\.jpg: Hearth is busy\. Try again\./);
  await page.screenshot({ path: test.info().outputPath('tag-failure.png') });
  await failure.getByRole('button', { name: 'Retry' }).click();
  await expect(panel.getByRole('status')).toHaveText('Tagged 2 of 2 with “holiday”.');
  await expect(failure).toBeHidden();
  await page.unroute('**/api/v1/assets/*/tags');
  await panel.getByRole('button', { name: 'Done' }).click();
  await expect(bar).toBeHidden();

  await page.getByRole('button', { name: /^Filters/ }).click();
  await page.getByRole('search', { name: 'Filters' }).getByLabel('Tag').fill('holiday');
  await page.getByRole('button', { name: 'Show results' }).click();
  await expect(grid(page).getByRole('listitem')).toHaveCount(2);
  await expect(tile(page, 'Canon_40D.jpg')).toBeVisible();
  await expect(tile(page, 'Canon_600D_gps.jpg')).toBeVisible();
  await expect(page.getByText('2 photos and videos match the filters.')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('tags.png'), fullPage: true });

  // The tag is now offered when tagging more.
  await grid(page).getByRole('checkbox', { name: 'Select Canon_40D.jpg' }).check();
  await bar.getByRole('button', { name: 'Tag…', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Tag selection' }).getByRole('button', { name: 'Tag with holiday' })).toBeVisible();
});
