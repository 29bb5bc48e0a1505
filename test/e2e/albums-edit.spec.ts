/**
 * Editing an album from inside it (issue 12 point 4), on a server of its own seeded through the API
 * with five corpus photos and a short video:
 * - desktop (1280×800): "New album" opens the new album; a name already used asks "create
 *   another?" first (Cancel makes nothing, "Create another" makes the second); photos are added from
 *   inside through the picker, in the order picked; the name and description are edited in place
 *   (Enter and leaving the field save, Escape cancels, an empty name is refused beside the field)
 *   and survive a reload; a mouse drag in reorder mode moves a photo, arrow keys and the buttons
 *   too, and the order survives a reload; the slideshow advances by itself, pauses, steps with the
 *   keys, plays the video through, closes with Escape, and does not cross-fade with reduced motion;
 * - from the timeline: "Add to album" with a name already used offers that album instead;
 * - phone (390×844, touch): the picker fills the screen and adds a tapped photo; in reorder mode a
 *   touch-and-hold drag moves a photo, and the buttons move one a place; nothing is wider than the
 *   screen.
 * Screenshots are kept under test-results/e2e (the spec's output folder).
 */
import { expect, type APIRequestContext, type CDPSession, type Locator, type Page } from '@playwright/test';
import { call, signIn as signInAs, uploadAndWait } from './household.ts';
import { withOwnServer } from './own-server.ts';

// The root tsconfig has no DOM library; these are the page globals used inside page.evaluate.
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

const ADMIN = { username: 'daphne', password: 'laurel-and-light' };
const PHOTOS = ['gps/DSCN0010.jpg', 'gps/big_ben.jpg', 'exif/Canon_40D.jpg', 'exif/Nikon_D70.jpg', 'exif/Pentax_K10D.jpg'];
const VIDEO = 'video/with-gps.mp4';
const FILES = [...PHOTOS, VIDEO];
const base = (f: string) => f.slice(f.lastIndexOf('/') + 1);
const PHONE = { width: 390, height: 844 };

const test = withOwnServer('albums-edit', FILES);
// A shared 2-core machine: a step can wait on others' test runs.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

let token = '';
let api: APIRequestContext;

test.beforeAll(async ({ playwright, hearth }) => {
  api = await playwright.request.newContext({ baseURL: hearth.url, extraHTTPHeaders: { 'X-Api-Variant': 'B' } });
  const session = await call(api, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Daphne' } });
  token = session.token as string;
  await uploadAndWait(api, token, hearth.files, FILES);
});
test.afterAll(async () => {
  await api.dispose();
});

interface AlbumRow {
  album_id: number;
  album_name: string;
  description: string | null;
}
const albums = async () => (await call(api, 'get', '/api/v1/albums?limit=100', token)).albums as AlbumRow[];
const albumOrder = async (id: number) => ((await call(api, 'get', `/api/v1/albums/${id}/assets`, token)).assets as { original_filename: string }[]).map((a) => a.original_filename);
const assetIdsByName = async () =>
  new Map(
    ((await call(api, 'post', '/api/v1/assets/query', token, { data: { pagination: { limit: 50 } } })).items as { media_item: { primary_asset: { asset_id: string; original_filename: string } } }[]).map((i) => [
      i.media_item.primary_asset.original_filename,
      i.media_item.primary_asset.asset_id,
    ]),
  );
/** An album made through the API holding `files` in this order (for the tests that do not build one by hand). */
async function albumOf(name: string, files: readonly string[]): Promise<number> {
  const ids = await assetIdsByName();
  const album = await call(api, 'post', '/api/v1/albums', token, { data: { album_name: name } });
  for (const f of files) await call(api, 'post', `/api/v1/albums/${album.album_id as number}/assets/${ids.get(base(f))}`, token, { data: {} });
  return album.album_id as number;
}
const albumIdOf = (page: Page) => Number(/\/albums\/(\d+)/.exec(new URL(page.url()).pathname)?.[1]);

const signIn = (page: Page) => signInAs(page, ADMIN);
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const albumGrid = (page: Page, name: string) => page.getByRole('list', { name: `Album ${name}` });
/** The names in the album grid, in order (from each tile's check, drawn even where it is hidden until selecting). */
const gridNames = (page: Page, name: string) =>
  albumGrid(page, name)
    .locator('input.tile__check')
    .evaluateAll((els) => els.map((e) => (e as unknown as { ariaLabel: string }).ariaLabel.replace(/^Select /, '')));
const reorderList = (page: Page) => page.getByRole('list', { name: 'Album order' });
/** The names in reorder mode, in order ("name, place i of n"). */
const reorderNames = (page: Page) =>
  reorderList(page)
    .locator('.reorder__tile')
    .evaluateAll((els) => els.map((e) => (e as unknown as { ariaLabel: string }).ariaLabel.replace(/, place \d+ of \d+$/, '')));

async function goToAlbums(page: Page): Promise<void> {
  await page.goto('/albums');
  await expect(heading(page, 'Albums')).toBeVisible();
}

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(size.scrollWidth, 'page is wider than the viewport').toBeLessThanOrEqual(size.innerWidth);
}

async function centreOf(locator: Locator): Promise<{ x: number; y: number }> {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

let albumId = 0;
const ALBUM = 'Lake';
const RENAMED = 'Lake Constance';

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('"New album" opens the new album; a name already used asks before making a second', async ({ page }) => {
    await signIn(page);
    await goToAlbums(page);
    await page.getByLabel('New album name').fill(ALBUM);
    await page.getByRole('button', { name: 'Create album' }).click();
    await expect(heading(page, ALBUM)).toBeVisible();
    await expect(page).toHaveURL(/\/albums\/\d+$/);
    albumId = albumIdOf(page);
    await expect(page.getByText('This album is empty')).toBeVisible();

    await goToAlbums(page);
    await page.getByLabel('New album name').fill('  lake ');
    await page.getByRole('button', { name: 'Create album' }).click();
    const warning = page.getByRole('group', { name: 'An album of this name exists' });
    await expect(warning.getByRole('alert')).toHaveText(`You already have an album called “${ALBUM}” — create another?`);
    await page.screenshot({ path: test.info().outputPath('duplicate-name.png') });
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await expect(warning).toBeHidden();
    expect((await albums()).map((a) => a.album_name)).toEqual([ALBUM]);

    await page.getByRole('button', { name: 'Create album' }).click();
    await warning.getByRole('button', { name: 'Create another' }).click();
    await expect(heading(page, 'lake')).toBeVisible();
    expect(albumIdOf(page)).not.toBe(albumId);
    expect((await albums()).map((a) => a.album_name).sort()).toEqual([ALBUM, 'lake']);
  });

  test('photos are added from inside the album, in the order picked', async ({ page }) => {
    await signIn(page);
    await page.goto(`/albums/${albumId}`);
    await expect(heading(page, ALBUM)).toBeVisible();
    await page.getByRole('button', { name: 'Add photos' }).click();
    const picker = page.getByRole('dialog', { name: `Add photos to “${ALBUM}”` });
    await expect(picker).toBeVisible();
    const picked = [base(PHOTOS[2]!), base(PHOTOS[0]!), base(VIDEO), base(PHOTOS[4]!)];
    for (const name of picked) await picker.getByRole('button', { name, exact: true }).click();
    await expect(picker.getByRole('button', { name: picked[0], exact: true })).toHaveAttribute('aria-pressed', 'true');
    // A second click takes a photo back.
    await picker.getByRole('button', { name: base(PHOTOS[1]!), exact: true }).click();
    await picker.getByRole('button', { name: base(PHOTOS[1]!), exact: true }).click();
    await expect(picker.getByText('4 photos chosen')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('picker.png') });
    await picker.getByRole('button', { name: 'Add 4 to album' }).click();
    await expect(picker).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Added 4 photos to the album.' })).toBeVisible();
    await expect.poll(() => gridNames(page, ALBUM)).toEqual(picked);
    expect(await albumOrder(albumId)).toEqual(picked);

    // Opened again, the members are marked and cannot be picked twice.
    await page.getByRole('button', { name: 'Add photos' }).click();
    await expect(picker.getByRole('button', { name: `${picked[0]}, already in the album` })).toHaveAttribute('aria-disabled', 'true');
    await picker.getByRole('button', { name: 'Close' }).click();
    await expect(picker).toBeHidden();
  });

  test('the name and description are edited in place and kept after a reload', async ({ page }) => {
    await signIn(page);
    await page.goto(`/albums/${albumId}`);
    await expect(heading(page, ALBUM)).toBeVisible();

    // Escape puts the name back.
    await page.getByRole('button', { name: 'Rename album' }).click();
    const name = page.getByRole('textbox', { name: 'Album name' });
    await expect(name).toBeFocused();
    await name.fill('Not this');
    await name.press('Escape');
    await expect(heading(page, ALBUM)).toBeVisible();

    // An empty name is refused beside the field, and nothing is saved.
    await page.getByRole('button', { name: 'Rename album' }).click();
    await name.fill('   ');
    await name.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'An album needs a name.' })).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await page.screenshot({ path: test.info().outputPath('rename-refused.png') });

    await name.fill(RENAMED);
    await name.press('Enter');
    await expect(heading(page, RENAMED)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Rename album' })).toBeFocused();

    // The description: typed, then saved by leaving the field.
    await page.getByRole('button', { name: 'Add a description' }).click();
    const description = page.getByRole('textbox', { name: 'Description' });
    await description.fill('Two weeks in July.');
    await description.press('Shift+Enter');
    await description.pressSequentially('Rain on the last day.');
    await description.press('Tab');
    await expect(page.getByText('Two weeks in July.')).toBeVisible();
    await expect.poll(async () => (await albums()).find((a) => a.album_id === albumId)?.description).toBe('Two weeks in July.\nRain on the last day.');

    await page.reload();
    await expect(heading(page, RENAMED)).toBeVisible();
    await expect(page.getByText('Rain on the last day.')).toBeVisible();
    await expect(page).toHaveTitle(`${RENAMED} · Hearth`);
    await page.screenshot({ path: test.info().outputPath('renamed.png') });
  });

  test('a mouse drag reorders the album, arrow keys and buttons too; the order is kept after a reload', async ({ page }) => {
    await signIn(page);
    await page.goto(`/albums/${albumId}`);
    await expect(heading(page, RENAMED)).toBeVisible();
    const before = await albumOrder(albumId);
    expect(before).toHaveLength(4);

    await page.getByRole('button', { name: 'Reorder' }).click();
    await expect(reorderList(page)).toBeVisible();
    expect(await reorderNames(page)).toEqual(before);

    // Drag the third photo onto the first place.
    const tiles = reorderList(page).locator('.reorder__tile');
    const from = await centreOf(tiles.nth(2));
    const to = await centreOf(tiles.nth(0));
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / 12, from.y + ((to.y - from.y) * i) / 12);
    await expect(page.locator('.reorder__ghost')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('reorder-dragging.png') });
    await page.mouse.up();
    const dragged = [before[2]!, before[0]!, before[1]!, before[3]!];
    await expect.poll(() => reorderNames(page)).toEqual(dragged);
    await expect.poll(() => albumOrder(albumId)).toEqual(dragged);

    // The keyboard: the first photo one place later, then the last one first (Home).
    await tiles.nth(0).focus();
    await page.keyboard.press('ArrowRight');
    const keyed = [dragged[1]!, dragged[0]!, dragged[2]!, dragged[3]!];
    await expect.poll(() => reorderNames(page)).toEqual(keyed);
    await expect(reorderList(page).getByRole('button', { name: `${dragged[0]}, place 2 of 4` })).toBeFocused();
    await tiles.nth(3).focus();
    await page.keyboard.press('Home');
    const homed = [keyed[3]!, keyed[0]!, keyed[1]!, keyed[2]!];
    await expect.poll(() => reorderNames(page)).toEqual(homed);
    // The buttons: the second photo one place earlier.
    await reorderList(page).getByRole('button', { name: `Move ${homed[1]} earlier` }).click();
    const final = [homed[1]!, homed[0]!, homed[2]!, homed[3]!];
    await expect.poll(() => reorderNames(page)).toEqual(final);
    await expect.poll(() => albumOrder(albumId)).toEqual(final);
    await expect(page.getByRole('status').filter({ hasText: 'Reordering' })).toBeVisible();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => gridNames(page, RENAMED)).toEqual(final);

    await page.reload();
    await expect(heading(page, RENAMED)).toBeVisible();
    await expect.poll(() => gridNames(page, RENAMED)).toEqual(final);
    await page.screenshot({ path: test.info().outputPath('reordered.png') });
  });

  test('the slideshow advances by itself, pauses, steps, plays the video through and closes', async ({ page }) => {
    test.setTimeout(120_000);
    const showId = await albumOf('Slides', [PHOTOS[0]!, PHOTOS[1]!, VIDEO, PHOTOS[2]!]);
    await signIn(page);
    await page.goto(`/albums/${showId}`);
    await expect(heading(page, 'Slides')).toBeVisible();
    const order = await albumOrder(showId);
    const n = order.length;

    await page.getByRole('button', { name: 'Play slideshow' }).click();
    const show = page.getByRole('dialog', { name: 'Slideshow' });
    await expect(show).toBeVisible();
    const status = show.locator('.slideshow__status');
    await expect(status).toContainText(`1 of ${n}`);
    await expect(status).toContainText(order[0]!);
    await expect(show).toHaveAttribute('data-transition', 'fade');
    // On its own, within a few slide times.
    await expect(status).toContainText(`2 of ${n}`, { timeout: 20_000 });
    await page.screenshot({ path: test.info().outputPath('slideshow.png') });

    await show.getByRole('button', { name: 'Pause slideshow' }).click();
    await expect(show).toHaveAttribute('data-playing', 'false');
    await expect(show.getByRole('button', { name: 'Resume slideshow' })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(status).toContainText(`3 of ${n}`);
    await page.keyboard.press('ArrowLeft');
    await expect(status).toContainText(`2 of ${n}`);
    // Paused, it stays (longer than a slide's time).
    await page.waitForTimeout(6_500);
    await expect(status).toContainText(`2 of ${n}`);

    // The video plays through, and the show goes on after it (it is a fraction of a second long).
    const videoAt = order.indexOf(base(VIDEO));
    for (let i = 0; i < (((videoAt - 1) % n) + n) % n; i++) await page.keyboard.press('ArrowRight');
    await expect(status).toContainText(`${videoAt + 1} of ${n}`);
    await expect(show.locator('video')).toBeVisible();
    await page.keyboard.press(' ');
    await expect(show).toHaveAttribute('data-playing', 'true');
    await expect(status).toContainText(`${((videoAt + 1) % n) + 1} of ${n}`, { timeout: 20_000 });

    await page.keyboard.press('Escape');
    await expect(show).toBeHidden();
    await expect(heading(page, 'Slides')).toBeVisible();
  });

  test('with reduced motion the slideshow changes photos without a cross-fade; a selection plays alone', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const showId = await albumOf('Calm slides', [PHOTOS[3]!, PHOTOS[4]!, PHOTOS[0]!]);
    await signIn(page);
    await page.goto(`/albums/${showId}`);
    await expect(heading(page, 'Calm slides')).toBeVisible();
    const n = (await albumOrder(showId)).length;
    const show = page.getByRole('dialog', { name: 'Slideshow' });
    const status = show.locator('.slideshow__status');
    await page.getByRole('button', { name: 'Play slideshow' }).click();
    await expect(show).toHaveAttribute('data-transition', 'cut');
    await show.getByRole('button', { name: 'Next photo' }).click();
    await expect(status).toContainText(`2 of ${n}`);
    await expect(show.locator('.slideshow__slide')).toHaveCount(1);
    await show.getByRole('button', { name: 'Close slideshow' }).click();
    await expect(show).toBeHidden();

    // Two photos selected: "Play" shows those two only.
    const grid = albumGrid(page, 'Calm slides');
    await grid.getByRole('checkbox').nth(0).check();
    await grid.getByRole('checkbox').nth(1).check();
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Play' }).click();
    await expect(status).toContainText('1 of 2');
    await page.keyboard.press('ArrowRight');
    await expect(status).toContainText('2 of 2');
    await page.keyboard.press('Escape');
    await expect(show).toBeHidden();
  });
});

test.describe('from the timeline on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('"Add to album" with a name already used offers that album instead of a second one', async ({ page }) => {
    const existing = await albumOf('Garden', [PHOTOS[0]!]);
    await signIn(page);
    const grid = page.getByRole('list', { name: 'Photos and videos' });
    await grid.getByRole('checkbox', { name: `Select ${base(PHOTOS[3]!)}` }).check();
    const bar = page.getByRole('toolbar', { name: 'Selection' });
    await bar.getByRole('button', { name: 'Add to album' }).click();
    const menu = page.getByRole('dialog', { name: 'Add to album' });
    await menu.getByLabel('New album name').fill('garden');
    await menu.getByRole('button', { name: 'Create and add' }).click();
    await expect(menu.getByRole('alert')).toHaveText('You already have an album called “Garden” — create another?');
    await page.screenshot({ path: test.info().outputPath('menu-duplicate-name.png') });
    await menu.getByRole('button', { name: 'Add to “Garden”' }).click();
    await expect(bar).toBeHidden();
    expect(await albumOrder(existing)).toEqual([base(PHOTOS[0]!), base(PHOTOS[3]!)]);
    expect((await albums()).filter((a) => a.album_name.toLowerCase() === 'garden')).toHaveLength(1);
  });
});

/** Touches through CDP: Chromium turns them into touch and pointer events, as from a screen. */
class Finger {
  constructor(private readonly cdp: CDPSession) {}

  static async on(page: Page): Promise<Finger> {
    return new Finger(await page.context().newCDPSession(page));
  }

  private send(type: 'touchStart' | 'touchMove' | 'touchEnd', points: { x: number; y: number }[]) {
    return this.cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id })) });
  }

  /** Touch and hold at `from` until `lifted` holds, then drag to `to` and let go. */
  async holdAndDrag(from: { x: number; y: number }, to: { x: number; y: number }, lifted: () => Promise<void>, steps = 10): Promise<void> {
    await this.send('touchStart', [from]);
    await lifted();
    for (let i = 1; i <= steps; i++) await this.send('touchMove', [{ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }]);
    await this.send('touchEnd', []);
  }
}

test.describe('on a phone with touch', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('the picker fills the screen and adds a tapped photo; touch-and-hold drags and the buttons reorder', async ({ page }) => {
    const phoneAlbum = 'On the sofa';
    const phoneAlbumId = await albumOf(phoneAlbum, [PHOTOS[0]!, PHOTOS[1]!, PHOTOS[2]!, PHOTOS[4]!]);
    await signIn(page);
    await page.goto(`/albums/${phoneAlbumId}`);
    await expect(heading(page, phoneAlbum)).toBeVisible();
    await expectNoHorizontalOverflow(page);

    await page.getByRole('button', { name: 'Add photos' }).tap();
    const picker = page.getByRole('dialog', { name: `Add photos to “${phoneAlbum}”` });
    await expect(picker).toBeVisible();
    const box = (await picker.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(PHONE.width - 1);
    expect(box.height).toBeGreaterThanOrEqual(PHONE.height - 1);
    const added = base(PHOTOS[3]!);
    await picker.getByRole('button', { name: added, exact: true }).tap();
    await expect(picker.getByText('1 photo chosen')).toBeVisible();
    const add = picker.getByRole('button', { name: 'Add to album' });
    await expect(add).toBeInViewport();
    await page.screenshot({ path: test.info().outputPath('phone-picker.png') });
    await add.tap();
    await expect(picker).toBeHidden();
    await expect.poll(async () => (await albumOrder(phoneAlbumId)).at(-1)).toBe(added);
    const before = await albumOrder(phoneAlbumId);
    expect(before).toHaveLength(5);

    await page.getByRole('button', { name: 'Reorder' }).tap();
    await expect(reorderList(page)).toBeVisible();
    await expect.poll(() => reorderNames(page)).toEqual(before);
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath('phone-reorder.png') });

    // Touch and hold the last photo, then drag it to the first place.
    const tiles = reorderList(page).locator('.reorder__tile');
    const to = await centreOf(tiles.nth(0));
    const from = await centreOf(tiles.nth(4));
    const finger = await Finger.on(page);
    await finger.holdAndDrag(from, to, () => expect(page.locator('.reorder__ghost')).toBeVisible());
    const dragged = [before[4]!, ...before.slice(0, 4)];
    await expect.poll(() => reorderNames(page)).toEqual(dragged);
    await expect.poll(() => albumOrder(phoneAlbumId)).toEqual(dragged);

    // The buttons: the first photo one place later.
    await reorderList(page).getByRole('button', { name: `Move ${dragged[0]} later` }).tap();
    const final = [dragged[1]!, dragged[0]!, ...dragged.slice(2)];
    await expect.poll(() => albumOrder(phoneAlbumId)).toEqual(final);
    await page.getByRole('button', { name: 'Done' }).tap();
    await page.reload();
    await expect(heading(page, phoneAlbum)).toBeVisible();
    await expect.poll(() => gridNames(page, phoneAlbum)).toEqual(final);
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath('phone-album.png') });
  });
});
