/**
 * Search in the web UI (issue 13 point 6), on a server of its own with the verified OCR models of
 * ../shared/models and the stand-in CLIP (HEARTH_CLIP_STANDIN=1: colour is its only signal, so
 * "red" finds the red photos; scripts/models/make-clip-standin.ts makes it into a temporary models
 * folder at the start). Seeded through the API with a corpus street sign (ocr/ocr_03.jpg, "Yuyuan
 * Rd."), four one-colour photos made here with sharp (two near-identical reds, a blue, a green) and a
 * six-second clip made with ffmpeg (blue for two seconds, then red).
 *
 * - The viewer's details show the text OCR read, line by line, with Copy; hovering a line (desktop)
 *   or tapping it (390×844 touch) draws its box over the photo exactly where the API's normalised box
 *   says, and still there when zoomed.
 * - The top bar's search field: `/` focuses it (not while typing elsewhere), suggestions offer tags
 *   (searchTags) and recent searches, Enter opens /search?q=…, Back returns.
 * - Results (need searchAssets and searchAssetsByImage on the server): "red" gives best results and
 *   all results with the red photos first, each saying why on hover (desktop) or on its "i" (phone);
 *   the suggestion for "red videos" shows the chip the server understood; that chip keeps only the clip, and opening it starts the video at the frame that
 *   matched (`match.frame_ts_ms`); removed, it searches again with ignore=…; an image dropped on the search page
 *   finds its look-alikes; "Find similar" in the viewer (desktop bar, phone "More" menu) opens
 *   /search?similar=… with the near-identical red first among the photos.
 * Each screen is checked with axe (no serious or critical WCAG 2.1 AA violation, contrast included).
 * Screenshots go to the spec's output folder (test-results/e2e).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ROOT } from './child-server.ts';
import { call, signIn as signInAs, uploadAndWait } from './household.ts';
import { withOwnServer } from './own-server.ts';

// The root tsconfig has no DOM library: the page globals used inside page.evaluate.
declare const document: { documentElement: { scrollWidth: number }; activeElement: { getAttribute(n: string): string | null } | null };
declare const window: { innerWidth: number };
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare class DataTransfer {
  items: { add(f: unknown): void };
}
declare class File {
  constructor(parts: unknown[], name: string, options: { type: string });
}
declare function atob(s: string): string;

const ADMIN = { username: 'sybil', password: 'finds-things-fast' };
const PHONE = { width: 390, height: 844 };
const SIGN = 'ocr/ocr_03.jpg';
const COLOURS = {
  'red-a.jpg': [214, 32, 30],
  'red-b.jpg': [214, 32, 30],
  'blue.jpg': [28, 64, 212],
  'green.jpg': [40, 170, 60],
} as const satisfies Record<string, readonly [number, number, number]>;
const CLIP = 'blue-then-red.mp4';
const ALL = [path.basename(SIGN), ...Object.keys(COLOURS), CLIP];
const SHARED_MODELS = process.env.HEARTH_SHARED_MODELS ?? path.resolve(ROOT, '../shared/models');

/**
 * A models folder for this spec's server: the verified OCR models and CLIP's vocabulary linked from
 * ../shared/models, and the stand-in CLIP made by its script (as test/server/ml/clip-standin.test.ts).
 */
let modelsDir = '';
function prepareModels(): Record<string, string> {
  modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-models-'));
  for (const sub of ['ocr-ppocrv4', 'clip-tokenizer']) {
    for (const rel of fs.readdirSync(path.join(SHARED_MODELS, sub), { recursive: true }) as string[]) {
      const from = path.join(SHARED_MODELS, sub, rel);
      if (!fs.statSync(from).isFile()) continue;
      fs.mkdirSync(path.dirname(path.join(modelsDir, sub, rel)), { recursive: true });
      fs.symlinkSync(from, path.join(modelsDir, sub, rel));
    }
  }
  execFileSync(path.join(ROOT, 'node_modules/.bin/node'), ['--import', 'tsx', 'scripts/models/make-clip-standin.ts', '--out', modelsDir], { cwd: ROOT, stdio: 'pipe' });
  return { HEARTH_MODELS_DIR: modelsDir, HEARTH_CLIP_STANDIN: '1' };
}

const test = withOwnServer('search', [SIGN], { env: prepareModels, cleanup: () => fs.rmSync(modelsDir, { recursive: true, force: true }) });
test.describe.configure({ mode: 'serial' });

let token = '';
const ids: Record<string, string> = {};

/** A photo-like JPEG of one colour (with a small light square, so near-identical ones differ). */
function colourJpeg(rgb: readonly [number, number, number], mark: number): Promise<Buffer> {
  const square = { input: { create: { width: 24, height: 24, channels: 3 as const, background: { r: 240, g: 236, b: 228 } } }, left: 20 + mark * 30, top: 20 };
  return sharp({ create: { width: 320, height: 240, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .composite([square])
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** Blue for two seconds, then red for four: a frame that matches "red" is not the first one. */
function makeClip(dest: string): void {
  const colour = (c: string, d: number) => ['-f', 'lavfi', '-i', `color=c=${c}:s=320x240:d=${d}:r=25`];
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...colour('0x1c40d4', 2), ...colour('0xd6201e', 4), '-filter_complex', '[0][1]concat=n=2:v=1:a=0', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', dest]);
}

async function idsByName(req: APIRequestContext): Promise<Record<string, string>> {
  const list = await call(req, 'post', '/api/v1/assets/query', token, { data: { pagination: { limit: 50 } } });
  const items = list.items as { media_item: { primary_asset: { asset_id: string; original_filename: string } } }[];
  return Object.fromEntries(items.map((i) => [i.media_item.primary_asset.original_filename, i.media_item.primary_asset.asset_id]));
}

/** Waits until the indexers named have read every photo (getIndexingStats). */
async function indexed(req: APIRequestContext, tasks: readonly string[]): Promise<void> {
  await expect
    .poll(
      async () => {
        const stats = (await call(req, 'get', '/api/v1/assets/indexing/stats', token)) as { tasks: Record<string, { indexed_count: number; total_count: number }> };
        return tasks.every((t) => stats.tasks[t] && stats.tasks[t].total_count > 0 && stats.tasks[t].indexed_count >= stats.tasks[t].total_count);
      },
      { timeout: 180_000, message: `indexing of ${tasks.join(', ')}` },
    )
    .toBe(true);
}

test.beforeAll(async ({ playwright, hearth }) => {
  test.setTimeout(300_000);
  let n = 0;
  for (const [name, rgb] of Object.entries(COLOURS)) fs.writeFileSync(path.join(hearth.files, name), await colourJpeg(rgb, n++));
  makeClip(path.join(hearth.files, CLIP));
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const session = await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Sybil' } });
  token = session.token as string;
  await uploadAndWait(req, token, hearth.files, ALL);
  Object.assign(ids, await idsByName(req));
  await call(req, 'post', `/api/v1/assets/${ids['green.jpg']}/tags`, token, { data: { tag_name: 'lighthouse' } });
  await indexed(req, ['ocr']);
  await req.dispose();
});

const signIn = (page: Page) => signInAs(page, ADMIN);
const viewer = (page: Page) => page.getByRole('dialog');
const searchBox = (page: Page) => page.getByRole('search', { name: 'Search photos' }).getByRole('combobox', { name: 'Search' });

/** No serious or critical accessibility problem (WCAG 2.1 AA: names, roles, contrast ≥ 4.5:1) on the screen as it is. */
async function expectAccessible(page: Page): Promise<void> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(size.scrollWidth, 'page is wider than the viewport').toBeLessThanOrEqual(size.innerWidth);
}

/**
 * Issue 24: how the query was read, and when nothing matched well. "mp4" is a file type filter (the chip) and a
 * word of no file name (".mp4" is an extension): the filter reading, with the words reading offered; asked for,
 * the words reading finds the clip by its extension only (a weak match): "Nothing matched well", and the filter
 * reading is offered back. "Yuyuan beach": the sign has one of the two words, a result but no best result.
 */
async function readingsAndWeakMatches(page: Page, touch: boolean): Promise<void> {
  const press = (l: ReturnType<Page['getByRole']>) => (touch ? l.tap() : l.click());
  await signIn(page);
  await page.goto('/search?q=mp4');
  await expect(page.getByRole('list', { name: 'Filters understood in the search' }).getByRole('button', { name: 'Remove filter mp4' })).toBeVisible();
  const asWords = page.getByRole('link', { name: 'Search instead for the words “mp4”' });
  await expect(asWords).toBeVisible();
  await expect(page.getByText('Nothing matched well')).toHaveCount(0);
  await press(asWords);
  await expect(page).toHaveURL(/\/search\?q=mp4&reading=words$/);
  await expect(page.getByText('Showing results for the words “mp4”.')).toBeVisible();
  await expect(page.getByText(/^Nothing matched well/)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Best results' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Search results' }).getByRole('button', { name: new RegExp(`^${CLIP.replace('.', '\\.')}`) })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: test.info().outputPath(`${touch ? 'phone' : 'desktop'}-reading-words.png`) });
  await expectAccessible(page);
  const asFilters = page.getByRole('link', { name: /^Search instead with / });
  await press(asFilters);
  await expect(page).toHaveURL(/\/search\?q=mp4&reading=filters$/);
  await expect(page.getByText('Showing results for the words')).toHaveCount(0);

  await page.goto('/search?q=Yuyuan+beach');
  await expect(page.getByRole('list', { name: 'Search results' }).getByRole('button', { name: /^ocr_03\.jpg/ })).toBeVisible();
  await expect(page.getByText(/^Nothing matched well/)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Best results' })).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
  await page.goto('/search?q=Yuyuan');
  await expect(page.getByRole('list', { name: 'Best results' }).getByRole('button', { name: /^ocr_03\.jpg/ })).toBeVisible();
  await expect(page.getByText(/^Nothing matched well/)).toHaveCount(0);
}

/** The sign's OCR line "Yuyuan Rd." as the API gives it (normalised box). */
async function signLine(page: Page, baseURL: string) {
  const r = await page.request.get(`${baseURL}/api/v1/assets/${ids['ocr_03.jpg']}?include_ocr=true`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await r.json()) as { data: { ocr_result: { text_items: { text_content: string; bounding_box: { x: number; y: number; width: number; height: number } }[] } } };
  const line = body.data.ocr_result.text_items.find((l) => /yuyuan/i.test(l.text_content));
  expect(line, `OCR lines: ${JSON.stringify(body.data.ocr_result.text_items.map((l) => l.text_content))}`).toBeTruthy();
  return line!;
}

/** The drawn box as a fraction of the photo as drawn (both measured on screen, transforms included). */
async function boxOnPhoto(page: Page) {
  const photo = (await viewer(page).getByRole('img', { name: 'ocr_03.jpg' }).boundingBox())!;
  const box = (await viewer(page).getByTestId('ocr-box').locator('polygon').boundingBox())!;
  // The photo's element may be letterboxed (object-fit: contain on phones): use the picture's own rectangle.
  const picture = await viewer(page)
    .getByRole('img', { name: 'ocr_03.jpg' })
    .evaluate((img: unknown) => {
      const i = img as { naturalWidth: number; naturalHeight: number; getBoundingClientRect(): { x: number; y: number; width: number; height: number } };
      const r = i.getBoundingClientRect();
      const s = Math.min(r.width / i.naturalWidth, r.height / i.naturalHeight);
      const w = i.naturalWidth * s;
      const h = i.naturalHeight * s;
      return { x: r.x + (r.width - w) / 2, y: r.y + (r.height - h) / 2, width: w, height: h };
    });
  expect(photo.width).toBeGreaterThan(0);
  return { x: (box.x - picture.x) / picture.width, y: (box.y - picture.y) / picture.height, width: box.width / picture.width, height: box.height / picture.height };
}

function expectSameBox(actual: { x: number; y: number; width: number; height: number }, expected: { x: number; y: number; width: number; height: number }) {
  // The stroke adds a pixel or two around the polygon: 2% of the photo is well within it and far below a wrong place.
  for (const k of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(actual[k] - expected[k]), `${k}: ${actual[k]} vs ${expected[k]}`).toBeLessThan(0.02);
}

async function openFromPhotos(page: Page, name: string, tap = false) {
  const tile = page.getByRole('list', { name: 'Photos and videos' }).getByRole('button', { name: new RegExp(`^${name.replace('.', '\\.')}`) });
  await (tap ? tile.tap() : tile.click());
  await expect(viewer(page)).toBeVisible();
  await expect(viewer(page)).toHaveAttribute('aria-label', name);
}

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the viewer shows the text read in a photo; a hovered line is boxed over the photo, zoomed or not; Copy copies it', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const expected = await signLine(page, baseURL!);
    await signIn(page);
    await openFromPhotos(page, 'ocr_03.jpg');
    const details = viewer(page).getByRole('complementary', { name: 'Details' });
    if (!(await details.isVisible())) await viewer(page).getByRole('button', { name: 'Details' }).click();
    const lines = details.getByRole('list', { name: 'Lines of text' });
    await expect(lines).toBeVisible();
    const line = lines.getByRole('button', { name: /yuyuan/i });
    await expect(line).toBeVisible();
    await expect(viewer(page).getByTestId('ocr-box')).toHaveCount(1);
    await expect(viewer(page).getByTestId('ocr-box').locator('polygon')).toHaveCount(0);

    await line.hover();
    await expect(viewer(page).getByTestId('ocr-box').locator('polygon')).toBeVisible();
    expectSameBox(await boxOnPhoto(page), expected.bounding_box);
    await page.screenshot({ path: test.info().outputPath('desktop-ocr-box.png') });
    await expectAccessible(page);

    // Zoomed in (+ twice) the box stays on its words: same place on the photo, larger on screen.
    const before = (await viewer(page).getByTestId('ocr-box').locator('polygon').boundingBox())!;
    await line.focus();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await expect.poll(async () => Number(await viewer(page).locator('.zoom').getAttribute('data-zoom'))).toBeGreaterThan(2);
    await expect.poll(async () => (await viewer(page).getByTestId('ocr-box').locator('polygon').boundingBox())!.width).toBeGreaterThan(before.width * 1.8);
    expectSameBox(await boxOnPhoto(page), expected.bounding_box);
    await page.screenshot({ path: test.info().outputPath('desktop-ocr-box-zoomed.png') });

    await line.blur();
    await page.mouse.move(5, 400);
    await expect(viewer(page).getByTestId('ocr-box').locator('polygon')).toHaveCount(0);

    await details.getByRole('button', { name: 'Copy the text' }).click();
    await expect(details.getByRole('status').filter({ hasText: 'Copied.' })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(await line.innerText());
  });

  test('the search field: / focuses it, suggestions offer tags and recent searches, Enter opens /search?q=…, Back returns', async ({ page }) => {
    await signIn(page);
    await expect(searchBox(page)).toBeVisible();
    await page.keyboard.press('/');
    await expect(searchBox(page)).toBeFocused();
    await page.keyboard.type('lightho');
    const options = page.getByRole('listbox', { name: 'Suggestions' });
    await expect(options.getByRole('option', { name: /Tag\s+lighthouse/ })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('desktop-suggestions.png') });
    await expectAccessible(page);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=lightho$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Search: lightho' })).toBeVisible();

    // A recent search is offered when its words are typed again.
    await searchBox(page).fill('');
    await searchBox(page).fill('light');
    await expect(options.getByRole('option', { name: /Recent\s+lightho/ })).toBeVisible();
    // Chosen with the keyboard: it is a search of its own.
    await page.keyboard.press('Escape');
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();

    // `/` while typing in another field types a slash there.
    await openFromPhotos(page, 'green.jpg');
    const details = viewer(page).getByRole('complementary', { name: 'Details' });
    if (!(await details.isVisible())) await viewer(page).getByRole('button', { name: 'Details' }).click();
    await details.getByLabel('New tag').fill('a');
    await details.getByLabel('New tag').press('/');
    await expect(details.getByLabel('New tag')).toHaveValue('a/');
  });

  // From here on the answers come from searchAssets / searchAssetsByImage (engineer C's branch).
  test('a query shows best results and all results, the matching photos first, each saying why on hover', async ({ page, playwright, hearth }) => {
    const req = await playwright.request.newContext({ baseURL: hearth.url });
    await indexed(req, ['semantic']);
    await req.dispose();
    await signIn(page);
    await searchBox(page).fill('red');
    await searchBox(page).press('Enter');
    await expect(page).toHaveURL(/\/search\?q=red$/);
    const best = page.getByRole('list', { name: 'Best results' });
    await expect(best.getByRole('listitem').first()).toBeVisible();
    // The two red photos (and the mostly red clip) come before the blue, the green and the sign.
    const firstThree = await best.getByRole('listitem').evaluateAll((els: unknown[]) =>
      els.slice(0, 3).map((e) => (e as { querySelector(s: string): { getAttribute(n: string): string | null } | null }).querySelector('button')?.getAttribute('aria-label') ?? ''),
    );
    for (const red of ['red-a.jpg', 'red-b.jpg']) expect(firstThree.some((l) => l.startsWith(red)), firstThree.join(' | ')).toBe(true);
    const all = page.getByRole('list', { name: 'Search results' });
    await expect(all.getByRole('listitem').first()).toBeVisible();

    // Why: hovering a result shows its phrases.
    const tile = best.getByRole('listitem').first();
    await tile.hover();
    const why = tile.getByRole('note');
    await expect(why).toBeVisible();
    expect((await why.innerText()).length).toBeGreaterThan(3);
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath('desktop-results.png') });
    await expectAccessible(page);

    // Back returns to the page the search started from.
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();
  });

  test('a parsed filter shows as a chip; the clip found by a frame opens there; removing the chip searches again with its words as text', async ({ page, playwright, hearth }) => {
    // The clip's frames are indexed after its web video is made: wait until the search finds it.
    const req = await playwright.request.newContext({ baseURL: hearth.url });
    const redVideos = async () =>
      (await call(req, 'post', '/api/v1/assets/search', token, { data: { query: 'red videos', pagination: { limit: 5, offset: 0 } } })) as unknown as {
        result_items: { media_item: { primary_asset: { asset_id: string } }; match: { frame_ts_ms: number | null } }[];
      };
    await expect.poll(async () => (await redVideos()).result_items.filter((i) => (i.match.frame_ts_ms ?? 0) > 0).length, { timeout: 180_000 }).toBe(1);
    // What the page is answered (the same search): the clip and the time of its matching frame.
    const answer = await redVideos();
    await req.dispose();
    await signIn(page);
    await searchBox(page).fill('red videos');
    // The suggestion for the text shows what the server understood in it.
    await expect(page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first()).toContainText('Videos');
    await searchBox(page).press('Enter');
    const chips = page.getByRole('list', { name: 'Filters understood in the search' });
    const remove = chips.getByRole('button', { name: /^Remove filter/ });
    await expect(remove.first()).toBeVisible();
    // Only the clip is a video: it is the one result, found by one of its red frames (not the first, blue, one).
    const all = page.getByRole('list', { name: 'Search results' });
    await expect(all.getByRole('listitem')).toHaveCount(1);
    await expect(all.getByRole('listitem').first().getByRole('button').first()).toHaveAccessibleName(new RegExp(`^${CLIP.replace('.', '\\.')}`));
    const clip = answer.result_items.find((i) => i.media_item.primary_asset.asset_id === ids[CLIP]);
    const frameMs = clip?.match.frame_ts_ms ?? 0;
    expect(frameMs, JSON.stringify(clip?.match)).toBeGreaterThan(0);
    await page.screenshot({ path: test.info().outputPath('desktop-chip.png') });

    await all.getByRole('listitem').first().getByRole('button').first().click();
    const video = viewer(page).locator('video');
    await expect(video).toHaveAttribute('data-start', String(frameMs / 1000));
    await expect.poll(() => video.evaluate((v: unknown) => (v as { currentTime: number }).currentTime)).toBeGreaterThanOrEqual(frameMs / 1000 - 0.05);
    await viewer(page).getByRole('button', { name: 'Close' }).click();
    await expect(viewer(page)).toBeHidden();

    await remove.first().click();
    await expect(page).toHaveURL(/[?&]ignore=/);
    const best = page.getByRole('list', { name: 'Best results' });
    await expect(best.getByRole('listitem').first()).toBeVisible();
    await expect(page.getByRole('button', { name: /^red-[ab]\.jpg/ }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Use the filters again' })).toBeVisible();
  });

  test('the page says which reading of the query it shows, offers the other, and says when nothing matched well', async ({ page }) => {
    await readingsAndWeakMatches(page, false);
  });

  test('an image dropped on the search page finds photos that look like it', async ({ page, hearth }) => {
    await signIn(page);
    await page.goto('/search');
    await expect(page.getByRole('region', { name: 'Search your library' })).toBeVisible();
    const bytes = fs.readFileSync(path.join(hearth.files, 'red-b.jpg')).toString('base64');
    const dataTransfer = await page.evaluateHandle((b64: string) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'query.jpg', { type: 'image/jpeg' }));
      return dt;
    }, bytes);
    await page.locator('.search-page').dispatchEvent('dragover', { dataTransfer });
    await page.locator('.search-page').dispatchEvent('drop', { dataTransfer });
    await expect(page).toHaveURL(/\/search\?image=/);
    await expect(page.getByRole('img', { name: 'Query image query.jpg' })).toBeVisible();
    const best = page.getByRole('list', { name: 'Best results' });
    await expect(best.getByRole('listitem').first().getByRole('button').first()).toHaveAccessibleName(/^red-[ab]\.jpg/);
    await page.screenshot({ path: test.info().outputPath('desktop-by-image.png') });
  });

  test('"Find similar" in the viewer opens photos like it, the near-identical one first', async ({ page }) => {
    await signIn(page);
    await openFromPhotos(page, 'red-a.jpg');
    await viewer(page).getByRole('button', { name: 'Find similar' }).click();
    await expect(page).toHaveURL(new RegExp(`/search\\?similar=${ids['red-a.jpg']}$`));
    await expect(page.getByRole('img', { name: 'The photo searched for' })).toBeVisible();
    // The results come after the photo searched for shows: wait for them before reading the list.
    const best = page.getByRole('list', { name: 'Best results' });
    await expect(best.getByRole('listitem').first()).toBeVisible();
    const names = await best
      .getByRole('listitem')
      .evaluateAll((els: unknown[]) => els.map((e) => (e as { querySelector(s: string): { getAttribute(n: string): string | null } | null }).querySelector('button')?.getAttribute('aria-label') ?? ''));
    // The stand-in sees colour only: the all-red clip is as near as the other red photo. Among the
    // photos, the near-identical one comes first, before the blue, the green and the sign.
    const photos = names.filter((n) => !n.startsWith('red-a.jpg') && !/, video/.test(n));
    expect(photos[0], names.join(' | ')).toMatch(/^red-b\.jpg/);
    expect(names.every((n) => !n.startsWith('red-a.jpg')), 'the photo itself is not among its look-alikes').toBe(true);
  });
});

test.describe('on a phone with touch', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('the text in a photo: a tapped line is boxed over the photo until tapped again; the top bar fits', async ({ page, baseURL }) => {
    const expected = await signLine(page, baseURL!);
    await signIn(page);
    await expect(searchBox(page)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    const field = (await page.getByRole('search', { name: 'Search photos' }).boundingBox())!;
    expect(field.width, 'the search field has room to type').toBeGreaterThan(120);
    await page.screenshot({ path: test.info().outputPath('phone-topbar.png') });

    await openFromPhotos(page, 'ocr_03.jpg', true);
    await viewer(page).getByRole('button', { name: 'Details' }).tap();
    const line = viewer(page).getByRole('list', { name: 'Lines of text' }).getByRole('button', { name: /yuyuan/i });
    await line.scrollIntoViewIfNeeded();
    await line.tap();
    await expect(line).toHaveAttribute('aria-pressed', 'true');
    await expect(viewer(page).getByTestId('ocr-box').locator('polygon')).toBeVisible();
    expectSameBox(await boxOnPhoto(page), expected.bounding_box);
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath('phone-ocr-box.png') });
    await expectAccessible(page);
    await line.tap();
    await expect(line).toHaveAttribute('aria-pressed', 'false');
    await expect(viewer(page).getByTestId('ocr-box').locator('polygon')).toHaveCount(0);
  });

  test('results say why on a tap of their "i"; "Find similar" is in the viewer\'s More menu', async ({ page }) => {
    await signIn(page);
    await searchBox(page).tap();
    await searchBox(page).fill('red');
    await searchBox(page).press('Enter');
    const best = page.getByRole('list', { name: 'Best results' });
    const tile = best.getByRole('listitem').first();
    await expect(tile).toBeVisible();
    const name = (await tile.getByRole('button').first().getAttribute('aria-label'))!.split(',')[0]!;
    const info = tile.getByRole('button', { name: `Why ${name} matches` });
    await info.tap();
    await expect(tile.getByRole('note')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath('phone-results-why.png') });
    await expectAccessible(page);
    await info.tap();
    await expect(tile.getByRole('note')).toBeHidden();

    await tile.getByRole('button').first().tap();
    await expect(viewer(page)).toBeVisible();
    await expect(page).toHaveURL(/\/search\/photos\/[^/?]+\?q=red$/);
    await viewer(page).getByRole('button', { name: 'More actions' }).tap();
    await viewer(page).getByRole('button', { name: 'Find similar' }).tap();
    await expect(page).toHaveURL(/\/search\?similar=/);
    await expect(page.getByRole('list', { name: 'Best results' }).getByRole('listitem').first()).toBeVisible();
  });

  test('the reading shown and "nothing matched well", tapped on a phone', async ({ page }) => {
    await readingsAndWeakMatches(page, true);
  });
});
