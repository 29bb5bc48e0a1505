/**
 * Sharing in the household (issue 12 point 1), on a server of its own seeded through the API: the
 * administrator (Hestia) with three photos and a video in the album "Holiday", and a second member
 * (Ariadne).
 * - On a 390×844 touch phone (hasTouch, isMobile): Hestia shares the album with Ariadne from the
 *   album's "Share" dialog; Ariadne signs in in her own browser context and sees the album marked
 *   "Shared by Hestia" with its photos (each with the initials of who added it) and no editing
 *   controls. Hestia makes a public link in the UI (an expiry in the past is refused next to its
 *   field); a FRESH context without any account opens it: the title, the count, the photos, one
 *   photo opened and swiped, the video playing, the zip offered (downloads allowed), and no call to
 *   any account operation. A password link asks its password (a wrong one said under the field,
 *   a lockout said in plain words).
 *   Partner sharing (issue 24): Ariadne shares with Hestia; Hestia's Photos says so and one tap shows
 *   the shared photos; Ariadne's Account page says whether Hestia shows them.
 * - On a desktop: the members dialog (roles changed there), a link from the selection bar, and
 *   partner sharing from the Account page: the partner's Photos says so (one click shows them in
 *   the timeline, with initials), and the sharer sees them shown.
 * Screenshots are kept under test-results/e2e (the spec's output folder).
 */
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { addMember, call, signIn, uploadAndWait } from './household.ts';
import { withOwnServer } from './own-server.ts';

declare const document: { querySelector(s: string): { naturalWidth?: number; readyState?: number; currentTime?: number } | null };

const ADMIN = { username: 'hestia', password: 'keeper-of-the-hearth', display_name: 'Hestia' };
const MEMBER = { username: 'ariadne', password: 'follow-the-thread', display_name: 'Ariadne' };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const FILES = ['exif/Canon_40D.jpg', 'gps/DSCN0010.jpg', 'exif/Nikon_D70.jpg', 'video/iphone5_gps.mov'];

const test = withOwnServer('sharing', FILES);
// Several browser contexts per test on a shared 2-core machine: generous time, no timing assertions.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

let adminToken = '';
let albumId = 0;
/** The public link made in the UI (set by the phone test, used by the fresh-context test). */
let linkUrl = '';

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  adminToken = (await call(req, 'post', '/api/v1/auth/register', null, { data: ADMIN })).token as string;
  await uploadAndWait(req, adminToken, hearth.files, FILES);
  await addMember(req, adminToken, MEMBER);
  albumId = (await call(req, 'post', '/api/v1/albums', adminToken, { data: { album_name: 'Holiday' } })).album_id as number;
  const list = await call(req, 'post', '/api/v1/assets/query', adminToken, { data: { sort_by: 'date_captured', pagination: { limit: 50 } } });
  for (const item of list.items as { media_item: { primary_asset: { asset_id: string } } }[]) {
    await call(req, 'post', `/api/v1/albums/${albumId}/assets/${item.media_item.primary_asset.asset_id}`, adminToken, { data: {} });
  }
  await req.dispose();
});

async function contextFor(browser: Browser, baseURL: string, options: BrowserContextOptions) {
  const context = await browser.newContext({ ...options, baseURL });
  return { context, page: await context.newPage() };
}

/** Every request the page makes to an account operation (anything under /api/v1 but a link's own). */
function accountCalls(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/') && !path.startsWith('/api/v1/shared/')) seen.push(path);
  });
  return seen;
}

async function openAlbum(page: Page) {
  await page.goto(`/albums/${albumId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Holiday' })).toBeVisible();
}

async function touchSwipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  const send = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: { x: number; y: number }[]) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id })) });
  await send('touchStart', [from]);
  for (let i = 1; i <= 8; i++) await send('touchMove', [{ x: from.x + ((to.x - from.x) * i) / 8, y: from.y + ((to.y - from.y) * i) / 8 }]);
  // The finger rests before it lifts. A quick lift would leave Chrome a fling under way, and Chrome
  // swallows the next tap as "stop the fling" (as a phone does): the test's next tap would then
  // open nothing, depending on how fast the machine is.
  await page.waitForTimeout(200);
  await send('touchMove', [to]);
  await send('touchEnd', []);
  await cdp.detach();
}

test.describe('on a phone', () => {
  test('the administrator shares an album; the member sees it and its photos in her own browser', async ({ browser, hearth }) => {
    const admin = await contextFor(browser, hearth.url, PHONE);
    await signIn(admin.page, ADMIN);
    await openAlbum(admin.page);
    await admin.page.getByRole('button', { name: 'Share', exact: true }).tap();
    const dialog = admin.page.getByRole('dialog', { name: 'Share “Holiday”' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Member', { exact: true }).selectOption({ label: 'Ariadne' });
    await dialog.getByLabel('Role', { exact: true }).selectOption('viewer');
    await dialog.getByRole('button', { name: 'Add to album' }).tap();
    const members = dialog.getByRole('list', { name: 'Album members' });
    await expect(members.getByRole('listitem').filter({ hasText: 'Ariadne' })).toBeVisible();
    await expect(members.getByLabel('Role of Ariadne')).toHaveValue('viewer');
    await admin.page.screenshot({ path: test.info().outputPath('phone-album-share-dialog.png') });
    await dialog.getByRole('button', { name: 'Close' }).tap();
    await admin.context.close();

    const member = await contextFor(browser, hearth.url, PHONE);
    await signIn(member.page, MEMBER);
    await member.page.goto('/albums');
    const card = member.page.getByRole('link', { name: /Holiday/ });
    await expect(card).toContainText('Shared by Hestia');
    await member.page.screenshot({ path: test.info().outputPath('phone-member-albums.png') });
    await card.tap();
    await expect(member.page.getByRole('heading', { level: 1, name: 'Holiday' })).toBeVisible();
    const grid = member.page.getByRole('list', { name: 'Album Holiday' });
    await expect(grid.getByRole('listitem')).toHaveCount(FILES.length);
    // Who added each photo: the initials on the tile, in words for assistive technology.
    await expect(grid.getByRole('button', { name: /Canon_40D\.jpg, from Hestia/ })).toBeVisible();
    await expect(grid.locator('.tile__owner').first()).toHaveText('H');
    // A viewer changes nothing: no delete, no share, no link; she can see who is in it and leave.
    await expect(member.page.getByRole('button', { name: 'Delete album' })).toHaveCount(0);
    await expect(member.page.getByRole('button', { name: 'Create link' })).toHaveCount(0);
    await expect(member.page.getByRole('button', { name: 'Members' })).toBeVisible();
    await member.page.screenshot({ path: test.info().outputPath('phone-member-album.png') });
    await grid.getByRole('button', { name: /Canon_40D\.jpg/ }).tap();
    const viewer = member.page.getByRole('dialog', { name: 'Canon_40D.jpg' });
    await expect(viewer).toBeVisible();
    await expect(viewer.locator('img.overlay__media')).toHaveJSProperty('complete', true);
    await expect(viewer).toContainText('from Hestia');
    await member.context.close();
  });

  test('a public link made in the UI: an expiry in the past is refused at its field, then the link is made', async ({ browser, hearth }) => {
    const admin = await contextFor(browser, hearth.url, PHONE);
    await signIn(admin.page, ADMIN);
    await openAlbum(admin.page);
    await admin.page.getByRole('button', { name: 'Create link' }).tap();
    const dialog = admin.page.getByRole('dialog', { name: 'Create link' });
    const expiry = dialog.getByLabel('Works until');
    // The default: 30 days from today.
    const in30 = new Date(Date.now() + 30 * 86_400_000);
    expect(await expiry.inputValue()).toBe(`${in30.getFullYear()}-${String(in30.getMonth() + 1).padStart(2, '0')}-${String(in30.getDate()).padStart(2, '0')}`);
    await expiry.fill('2001-01-01');
    await dialog.getByRole('button', { name: 'Create link' }).tap();
    await expect(expiry).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.locator('.field--invalid .field__error')).toHaveText('The expiry must be in the future.');
    await admin.page.screenshot({ path: test.info().outputPath('phone-link-expiry-refused.png') });
    await expiry.fill(`${in30.getFullYear()}-${String(in30.getMonth() + 1).padStart(2, '0')}-${String(in30.getDate()).padStart(2, '0')}`);
    await expect(dialog.getByLabel('Allow downloads (the original files and a zip of them)')).toBeChecked();
    await dialog.getByRole('button', { name: 'Create link' }).tap();
    const field = dialog.getByLabel('Link', { exact: true });
    await expect(field).toHaveValue(/\/s\/[A-Za-z0-9_-]{22}$/);
    linkUrl = await field.inputValue();
    expect(new URL(linkUrl).origin).toBe(hearth.url);
    await admin.page.screenshot({ path: test.info().outputPath('phone-link-created.png') });
    await admin.context.close();
  });

  test('the link opens in a fresh browser without signing in: photos, viewer, video, zip', async ({ browser, hearth }) => {
    expect(linkUrl, 'made by the previous test').not.toBe('');
    const visitor = await contextFor(browser, hearth.url, PHONE);
    const calls = accountCalls(visitor.page);
    await visitor.page.goto(linkUrl);
    await expect(visitor.page.getByRole('heading', { level: 1, name: 'Holiday' })).toBeVisible();
    await expect(visitor.page.getByText(`${FILES.length} photos`)).toBeVisible();
    const grid = visitor.page.getByRole('list', { name: 'Photos' });
    await expect(grid.getByRole('button')).toHaveCount(FILES.length);
    const zip = visitor.page.getByRole('link', { name: 'Download all (zip)' });
    await expect(zip).toBeVisible();
    const zipAnswer = await visitor.page.request.get(new URL((await zip.getAttribute('href'))!, hearth.url).href);
    expect(zipAnswer.status()).toBe(200);
    expect(zipAnswer.headers()['content-type']).toBe('application/zip');
    await expect.poll(() => grid.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as unknown as { naturalWidth: number }).naturalWidth > 0).length)).toBe(FILES.length);
    await visitor.page.screenshot({ path: test.info().outputPath('phone-public-link.png') });

    await grid.getByRole('button', { name: 'Photo Canon_40D.jpg' }).tap();
    let viewer = visitor.page.getByRole('dialog');
    await expect(viewer).toHaveAttribute('aria-label', 'Canon_40D.jpg');
    await expect.poll(() => visitor.page.evaluate(() => document.querySelector('dialog img.overlay__media')?.naturalWidth ?? 0)).toBeGreaterThan(0);
    await expect(viewer.getByRole('link', { name: 'Download Canon_40D.jpg' })).toBeVisible();
    await visitor.page.screenshot({ path: test.info().outputPath('phone-public-viewer.png') });
    // A swipe to the left steps to another photo of the link; Back closes the viewer and stays on the page.
    await touchSwipe(visitor.page, { x: 330, y: 420 }, { x: 60, y: 420 });
    await expect(viewer).not.toHaveAttribute('aria-label', 'Canon_40D.jpg');
    await visitor.page.goBack();
    await expect(visitor.page.getByRole('dialog')).toHaveCount(0);
    await expect(visitor.page.getByRole('heading', { level: 1, name: 'Holiday' })).toBeVisible();

    // The video plays in the page.
    await grid.getByRole('button', { name: 'Video iphone5_gps.mov' }).tap();
    viewer = visitor.page.getByRole('dialog', { name: 'iphone5_gps.mov' });
    await expect(viewer.locator('video')).toBeVisible();
    await expect.poll(() => visitor.page.evaluate(() => document.querySelector('dialog video')?.readyState ?? 0), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await visitor.page.screenshot({ path: test.info().outputPath('phone-public-video.png') });

    expect(calls, 'the public page calls no account operation').toEqual([]);
    expect((await visitor.context.cookies()).length, 'no session cookie').toBe(0);
    await visitor.context.close();
  });

  test('a password link asks for its password; wrong ones are said at the field, a lockout in plain words', async ({ browser, hearth, playwright }) => {
    const admin = await contextFor(browser, hearth.url, PHONE);
    await signIn(admin.page, ADMIN);
    await openAlbum(admin.page);
    await admin.page.getByRole('button', { name: 'Create link' }).tap();
    const dialog = admin.page.getByRole('dialog', { name: 'Create link' });
    await dialog.getByLabel('Password').fill('open sesame');
    await dialog.getByLabel('Allow downloads (the original files and a zip of them)').uncheck();
    await dialog.getByRole('button', { name: 'Create link' }).tap();
    const lockedField = dialog.getByLabel('Link', { exact: true });
    await expect(lockedField).toHaveValue(/\/s\/[A-Za-z0-9_-]{22}$/);
    const locked = await lockedField.inputValue();
    await admin.context.close();

    const visitor = await contextFor(browser, hearth.url, PHONE);
    const calls = accountCalls(visitor.page);
    await visitor.page.goto(locked);
    await expect(visitor.page.getByText('This link is protected. Type the password you were given.')).toBeVisible();
    await expect(visitor.page.getByRole('list', { name: 'Photos' })).toHaveCount(0);
    await visitor.page.getByLabel('Password').fill('not the words');
    await visitor.page.getByRole('button', { name: 'Open' }).tap();
    await expect(visitor.page.locator('.field__error')).toHaveText('That is not the password of this link. Check it and try again.');
    await visitor.page.screenshot({ path: test.info().outputPath('phone-public-password-wrong.png') });
    await visitor.page.getByLabel('Password').fill('open sesame');
    await visitor.page.getByRole('button', { name: 'Open' }).tap();
    await expect(visitor.page.getByRole('list', { name: 'Photos' }).getByRole('button')).toHaveCount(FILES.length);
    await expect(visitor.page.getByRole('link', { name: 'Download all (zip)' }), 'downloads are off').toHaveCount(0);
    expect(calls).toEqual([]);
    await visitor.context.close();

    // Another password link, guessed at until the server locks this address out (429).
    const req = await playwright.request.newContext({ baseURL: hearth.url });
    const guarded = await call(req, 'post', '/api/v1/share-links', adminToken, { data: { album_id: albumId, password: 'right words' } });
    await req.dispose();
    const guesser = await contextFor(browser, hearth.url, PHONE);
    await guesser.page.goto(`/s/${guarded.key as string}`);
    for (let i = 0; i < 5; i++) {
      await guesser.page.getByLabel('Password').fill(`guess ${i}`);
      await guesser.page.getByRole('button', { name: 'Open' }).tap();
      await expect(guesser.page.locator('.field__error')).toBeVisible();
    }
    await guesser.page.getByLabel('Password').fill('right words');
    await guesser.page.getByRole('button', { name: 'Open' }).tap();
    await expect(guesser.page.getByRole('alert')).toContainText(/Too many wrong passwords were tried\. .* wait (a minute|\d+ minutes) and try again\./);
    await guesser.page.screenshot({ path: test.info().outputPath('phone-public-password-locked.png') });
    await guesser.context.close();
  });

  test('partner sharing: Photos tells the partner, one tap shows the shared photos; the sharer sees it shown', async ({ browser, hearth }) => {
    // Ariadne shares her (empty) library with Hestia, who has photos of her own: the notice must
    // still be found above a full timeline, not only instead of "No photos yet".
    const sharer = await contextFor(browser, hearth.url, PHONE);
    await signIn(sharer.page, MEMBER);
    await sharer.page.goto('/account');
    await sharer.page.getByLabel('Share my library with').selectOption({ label: 'Hestia' });
    await sharer.page.getByRole('button', { name: 'Share my library' }).tap();
    const given = sharer.page.getByRole('list', { name: 'Libraries you share' });
    await expect(given).toContainText("Not shown in Hestia's timeline yet");

    const partner = await contextFor(browser, hearth.url, PHONE);
    await signIn(partner.page, ADMIN);
    const notice = partner.page.getByRole('list', { name: 'Photos shared with you' });
    await expect(notice).toContainText('Ariadne shares their photos with you.');
    const show = notice.getByRole('button', { name: 'Show in my timeline' });
    const box = (await show.boundingBox())!;
    expect(box.height, 'a touch-sized button').toBeGreaterThanOrEqual(44);
    await partner.page.screenshot({ path: test.info().outputPath('phone-shared-with-you-notice.png') });
    await show.tap();
    await expect(notice).toHaveCount(0);
    await partner.page.goto('/account');
    await expect(partner.page.getByRole('list', { name: 'Libraries shared with you' }).getByRole('switch', { name: 'Show in my timeline' })).toBeChecked();
    await partner.context.close();

    await sharer.page.reload();
    await expect(given).toContainText("Shown in Hestia's timeline");
    await sharer.page.screenshot({ path: test.info().outputPath('phone-account-shown.png'), fullPage: true });
    await sharer.context.close();
  });
});

test.describe('on a desktop', () => {
  test('the members dialog changes roles; a link from a selection is managed on the Account page', async ({ browser, hearth, playwright }) => {
    // Ariadne is in the album (the phone test added her through the UI; on its own, this test adds her).
    const req = await playwright.request.newContext({ baseURL: hearth.url });
    const me = await call(req, 'get', '/api/v1/auth/me', adminToken);
    const ariadne = (await call(req, 'get', '/api/v1/sharing/members', adminToken)).members as { user_id: number; display_name: string }[];
    expect(me.username).toBe(ADMIN.username);
    const add = await req.post(`/api/v1/albums/${albumId}/members`, { data: { user_id: ariadne[0]!.user_id, role: 'viewer' }, headers: { Authorization: `Bearer ${adminToken}` } });
    expect([201, 409]).toContain(add.status());
    await req.dispose();
    const admin = await contextFor(browser, hearth.url, DESKTOP);
    await signIn(admin.page, ADMIN);
    await openAlbum(admin.page);
    await admin.page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Share “Holiday”' });
    const members = dialog.getByRole('list', { name: 'Album members' });
    await expect(members.getByRole('listitem')).toHaveCount(2);
    await expect(members.getByRole('listitem').first()).toContainText('Hestia (you)');
    await expect(members.getByRole('listitem').first()).toContainText('Owner');
    await members.getByLabel('Role of Ariadne').selectOption('contributor');
    await expect(members.getByLabel('Role of Ariadne')).toHaveValue('contributor');
    await expect(dialog.getByLabel('Member', { exact: true }).locator('option')).toHaveCount(1); // Only "Choose a member…": Ariadne is in.
    await admin.page.screenshot({ path: test.info().outputPath('desktop-members-dialog.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(admin.page.getByText('Shared with 1 member')).toBeVisible();

    // A link from a selection of the timeline.
    await admin.page.goto('/');
    const tile = admin.page.getByRole('list', { name: 'Photos and videos' }).getByRole('listitem').first();
    await tile.hover();
    await tile.getByRole('checkbox').check();
    await admin.page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Create link' }).click();
    const linkDialog = admin.page.getByRole('dialog', { name: 'Create link' });
    await expect(linkDialog).toContainText('see 1 photo');
    await linkDialog.getByRole('button', { name: 'Create link' }).click();
    await expect(linkDialog.getByLabel('Link', { exact: true })).toHaveValue(/\/s\//);
    await linkDialog.getByRole('button', { name: 'Done' }).click();

    // The Account page lists the links; one is withdrawn there.
    await admin.page.goto('/account');
    const links = admin.page.getByRole('list', { name: 'Your links' });
    await links.getByRole('button', { name: 'Withdraw 1 photo' }).click();
    await expect(links.getByRole('listitem').filter({ hasText: '1 photo' }).getByText('Withdrawn')).toBeVisible();
    await admin.page.screenshot({ path: test.info().outputPath('desktop-account-links.png'), fullPage: true });
    await admin.context.close();
  });

  test('partner sharing: the member shows the shared library in her timeline, with initials, and filters by who shared', async ({ browser, hearth }) => {
    const admin = await contextFor(browser, hearth.url, DESKTOP);
    await signIn(admin.page, ADMIN);
    await admin.page.goto('/account');
    await admin.page.getByLabel('Share my library with').selectOption({ label: 'Ariadne' });
    await admin.page.getByRole('button', { name: 'Share my library' }).click();
    const given = admin.page.getByRole('list', { name: 'Libraries you share' });
    await expect(given).toContainText('Ariadne');
    await expect(given).toContainText("Not shown in Ariadne's timeline yet");

    // Ariadne has no photos: Photos says who shares with her, and one click shows them.
    const member = await contextFor(browser, hearth.url, DESKTOP);
    await signIn(member.page, MEMBER);
    await expect(member.page.getByRole('list', { name: 'Photos and videos' })).toHaveCount(0);
    const notice = member.page.getByRole('list', { name: 'Photos shared with you' });
    await expect(notice).toContainText('Hestia shares their photos with you.');
    await member.page.screenshot({ path: test.info().outputPath('desktop-shared-with-you-notice.png') });
    await notice.getByRole('button', { name: 'Show in my timeline' }).click();
    await expect(notice).toHaveCount(0);
    const grid = member.page.getByRole('list', { name: 'Photos and videos' });
    await expect(grid.getByRole('listitem')).toHaveCount(FILES.length);
    await expect(grid.locator('.tile__owner')).toHaveCount(FILES.length);
    await expect(grid.locator('.tile__owner').first()).toHaveText('H');
    // "Shared by" is one of the filters behind the Filters button; a chip names the choice.
    await member.page.getByRole('button', { name: /^Filters/ }).click();
    const filters = member.page.getByRole('search', { name: 'Filters' });
    await filters.getByLabel('Shared by').selectOption({ label: 'Me' });
    await expect(member.page.getByText('Nothing matches')).toBeVisible();
    await filters.getByLabel('Shared by').selectOption({ label: 'Hestia' });
    await expect(grid.getByRole('listitem')).toHaveCount(FILES.length);
    await member.page.keyboard.press('Escape');
    await expect(member.page.getByRole('list', { name: 'Filters set' })).toContainText('Hestia');
    await member.page.screenshot({ path: test.info().outputPath('desktop-partner-timeline.png') });
    await member.page.goto('/account');
    await expect(member.page.getByRole('list', { name: 'Libraries shared with you' }).getByRole('switch', { name: 'Show in my timeline' })).toBeChecked();
    await member.page.screenshot({ path: test.info().outputPath('desktop-account-sharing.png'), fullPage: true });
    await member.context.close();

    await admin.page.reload();
    await expect(given).toContainText("Shown in Ariadne's timeline");
    await admin.context.close();
  });
});
