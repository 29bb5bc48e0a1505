/**
 * People (issue 14 point 6, "open People, name a person, merge two, see their photos"), on a server of its
 * own with face recognition on (the face models Hearth ships in models/, found by default; the spec
 * switches the faces task on in the settings, the only ML task it needs). A member of the household
 * uploads six photos of the corpus's faces folder (copied at test time, labels.json): two of Obama
 * (face_001, face_002), Obama with Biden (face_012), Biden (face_007) and two of one person of the
 * deepface set (face_019, face_020): the real detection, embedding and clustering make three people; and
 * the Sydney Opera House (gps/), with no one in it but a place.
 * Shown:
 * - on a 1280×800 desktop: People from the navigation; the faces appear while they are found (the page
 *   polled); a person is named in place (Enter saves; the server has the name and the person is
 *   confirmed); their page lists their three photos; one opens in the viewer, where with the details
 *   open their face is boxed and named and the details list them; "Not this person" in the box's menu
 *   takes the face from them (box and details follow, the server agrees); one person dragged onto
 *   another asks which to keep and merges them; "Rebuild people" runs and keeps all of that; the
 *   details of a photo with GPS name its place ("Sydney, New South Wales, Australia");
 * - on a 390×844 touch phone: People from the Menu; a long press selects a person, a tap another,
 *   "Merge" with the survivor chosen; the person left opens with their photos, and one of them in the
 *   viewer with the details names them; "This is…" → "Someone new" moves a face; Hide takes them off People, "Show hidden people" lists them
 *   and Show brings them back;
 * - at both sizes axe-core (WCAG 2.0/2.1 A and AA) finds no serious or critical violation on People, and
 *   none in the viewer's face boxes, their menu and the details.
 * Screenshots are kept under test-results/e2e (the spec's output folder).
 */
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type CDPSession, type Locator, type Page } from '@playwright/test';
import { addMember, call, signIn as signInAs, uploadAndWait } from './household.ts';
import { withOwnServer } from './own-server.ts';

// The root tsconfig has no DOM library; these are the page globals used inside page.evaluate.
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

const ADMIN = { username: 'ines', password: 'runs-the-house' };
const MEMBER = { username: 'teo', password: 'knows-every-face', display_name: 'Teo' };
const OBAMA = ['face_001.jpg', 'face_002.jpg'];
const TOGETHER = 'face_012.jpg';
const BIDEN = 'face_007.jpg';
const PERSON_A = ['face_019.jpg', 'face_020.jpg'];
/** No face; its GPS names a place (test/server/places/corpus-places.ts). */
const PLACE = { file: 'sydney_opera_house.jpg', name: 'Sydney, New South Wales, Australia' };
const FILES = [...OBAMA, TOGETHER, BIDEN, ...PERSON_A, PLACE.file];

const test = withOwnServer('people', [...FILES.filter((f) => f !== PLACE.file).map((f) => path.join('faces', f)), path.join('gps', PLACE.file)]);
test.describe.configure({ mode: 'serial' });
// A shared 2-core machine: the face index, thumbnails and the first page loads take a while.
test.beforeEach(() => test.setTimeout(240_000));

let token = '';

type FaceRow = { face_id: number; person_id: number | null; person_name: string | null };
type Asset = { asset_id: string; original_filename: string };

async function assetIds(req: APIRequestContext): Promise<Record<string, string>> {
  const list = await call(req, 'post', '/api/v1/assets/query', token, { data: { pagination: { limit: 50 } } });
  const items = list.items as { media_item: { primary_asset: Asset } }[];
  return Object.fromEntries(items.map((i) => [i.media_item.primary_asset.original_filename, i.media_item.primary_asset.asset_id]));
}

async function facesOf(req: APIRequestContext, assetId: string): Promise<FaceRow[]> {
  const a = await call(req, 'get', `/api/v1/assets/${assetId}?include_faces=true`, token);
  return ((a.face_result as { faces: FaceRow[] } | null)?.faces ?? []) as FaceRow[];
}

async function person(req: APIRequestContext, id: number) {
  const r = await req.get(`/api/v1/people/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: r.status(), body: ((await r.json()) as { data: Record<string, unknown> | null }).data };
}

test.beforeAll(async ({ playwright, hearth }) => {
  test.setTimeout(300_000);
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const admin = (await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Inês' } })).token as string;
  // The browser specs' servers start with the ML tasks off (child-server.ts); People needs faces only.
  const on = await req.patch('/api/v1/settings/system', { data: { ml: { face_enabled: true } }, headers: { Authorization: `Bearer ${admin}` } });
  expect(on.ok(), await on.text()).toBeTruthy();
  await addMember(req, admin, MEMBER);
  token = (await call(req, 'post', '/api/v1/auth/login', null, { data: { username: MEMBER.username, password: MEMBER.password } })).token as string;
  await uploadAndWait(req, token, hearth.files, FILES);
  await req.dispose();
});

const signIn = (page: Page) => signInAs(page, MEMBER);
const peopleGrid = (page: Page) => page.getByRole('list', { name: 'People' });
const cardOf = (page: Page, personId: number) => page.locator(`.person-card[data-person-id="${personId}"]`);
const details = (page: Page) => page.getByRole('complementary', { name: 'Details' });

async function openPeople(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.tap();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'People', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/people$/);
}

/** axe-core's WCAG 2.0/2.1 A and AA rules (contrast included): no serious or critical violation. */
async function expectAccessible(page: Page, only: readonly string[] = []): Promise<void> {
  let axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of only) axe = axe.include(selector);
  const r = await axe.analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(size.scrollWidth, 'the page is wider than the screen').toBeLessThanOrEqual(size.innerWidth);
}

/** The person of the (first) face in `file`, read from the server. */
async function personIn(req: APIRequestContext, ids: Record<string, string>, file: string): Promise<number> {
  const faces = await facesOf(req, ids[file]!);
  expect(faces.length, `faces in ${file}`).toBeGreaterThan(0);
  const withPerson = faces.find((f) => f.person_id !== null);
  expect(withPerson, `a person in ${file}`).toBeTruthy();
  return withPerson!.person_id!;
}

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the faces appear, a person is named, their page lists their photos, the viewer boxes their face and "Not this person" takes it away; a drag merges two', async ({ page, playwright, hearth }) => {
    const req = await playwright.request.newContext({ baseURL: hearth.url });
    await signIn(page);
    await openPeople(page);

    await test.step('the three people appear as their faces are found', async () => {
      await expect(async () => {
        // The page refreshes itself while faces are read; a reload covers a machine slower than its polling.
        if ((await peopleGrid(page).getByRole('listitem').count()) < 3) await page.reload();
        await expect(peopleGrid(page).getByRole('listitem')).toHaveCount(3, { timeout: 5_000 });
      }).toPass({ timeout: 200_000, intervals: [2_000, 5_000] });
      await expect(peopleGrid(page).getByRole('button', { name: 'Add a name' })).toHaveCount(3);
      await page.screenshot({ path: test.info().outputPath('desktop-people.png'), fullPage: true });
      await expectAccessible(page);
    });

    const ids = await assetIds(req);
    const obama = await personIn(req, ids, OBAMA[0]!);
    const biden = await personIn(req, ids, BIDEN);
    const personA = await personIn(req, ids, PERSON_A[0]!);
    expect(new Set([obama, biden, personA]).size).toBe(3);
    await expect(cardOf(page, obama)).toContainText('3 photos');

    await test.step('a person is named in place: Enter saves, the person is confirmed', async () => {
      await cardOf(page, obama).getByRole('button', { name: 'Add a name' }).click();
      await cardOf(page, obama).getByRole('textbox', { name: 'Name of Unnamed person' }).fill('Barack');
      await page.keyboard.press('Enter');
      await expect(cardOf(page, obama).getByRole('heading', { name: 'Barack' })).toBeVisible();
      await expect(cardOf(page, obama).getByRole('checkbox', { name: 'Select Barack' })).toBeVisible();
      const saved = await person(req, obama);
      expect(saved.body).toMatchObject({ name: 'Barack', is_confirmed: true });
      // Named people come first.
      await expect(peopleGrid(page).getByRole('listitem').first()).toHaveAttribute('data-person-id', String(obama));
    });

    await test.step("their page lists their three photos", async () => {
      await cardOf(page, obama).getByRole('link', { name: 'Open Barack' }).click();
      await expect(page).toHaveURL(new RegExp(`/people/${obama}$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Barack' })).toBeVisible();
      await expect(page.getByText('3 photos', { exact: true })).toBeVisible();
      const grid = page.getByRole('list', { name: 'Photos of Barack' });
      for (const f of [...OBAMA, TOGETHER]) await expect(grid.getByRole('checkbox', { name: `Select ${f}` })).toBeAttached();
      await expect(grid.getByRole('checkbox', { name: `Select ${BIDEN}` })).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath('desktop-person.png'), fullPage: true });
    });

    await test.step('in the viewer with the details open, the face is boxed and named, and the details list the person', async () => {
      await page.getByRole('list', { name: 'Photos of Barack' }).getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: `Select ${OBAMA[0]}` }) }).getByRole('button').first().click();
      await expect(page).toHaveURL(new RegExp(`/people/${obama}/photos/${ids[OBAMA[0]!]}$`));
      const viewer = page.getByRole('dialog', { name: OBAMA[0] });
      await expect(viewer).toBeVisible();
      const detailsButton = viewer.getByRole('button', { name: 'Details' });
      if ((await detailsButton.getAttribute('aria-pressed')) !== 'true') await detailsButton.click();
      await expect(viewer.getByRole('button', { name: 'Face: Barack' })).toBeVisible();
      await expect(details(page).getByRole('region', { name: 'People in this photo' }).getByRole('link', { name: 'Barack' })).toHaveAttribute('href', `/people/${obama}`);
      await page.screenshot({ path: test.info().outputPath('desktop-viewer-faces.png') });
    });

    await test.step('"Not this person" takes the face from them: the box and the details follow, and so does the server', async () => {
      const viewer = page.getByRole('dialog', { name: OBAMA[0] });
      await viewer.getByRole('button', { name: 'Face: Barack' }).click();
      const menu = page.getByRole('dialog', { name: 'Face: Barack' });
      await expect(menu.getByRole('link', { name: 'Barack' })).toBeVisible();
      // This spec's parts of the viewer: the boxes, their menu and the people in the details.
      await expectAccessible(page, ['.face-boxes', '.face-menu', '.info']);
      await menu.getByRole('button', { name: 'Not this person' }).click();
      await expect(menu).toHaveCount(0);
      await expect(viewer.getByRole('button', { name: 'Face: Barack' })).toHaveCount(0);
      await expect(viewer.getByRole('button', { name: /^Face: / })).toHaveCount(1);
      await expect(details(page).getByRole('link', { name: 'Barack' })).toHaveCount(0);
      const faces = await facesOf(req, ids[OBAMA[0]!]!);
      expect(faces.map((f) => f.person_id)).not.toContain(obama);
      expect((await person(req, obama)).body).toMatchObject({ asset_count: 2 });
      await viewer.getByRole('button', { name: 'Close' }).click();
      await expect(page.getByText('2 photos', { exact: true })).toBeVisible();
    });

    await test.step('one person dragged onto another: the page asks which one stays, and merges them', async () => {
      await page.getByRole('link', { name: '← People' }).click();
      await expect(cardOf(page, personA)).toBeVisible();
      const from = (await cardOf(page, personA).getByRole('paragraph').first().boundingBox())!;
      const onto = (await cardOf(page, biden).getByRole('paragraph').first().boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height / 2, { steps: 4 });
      await page.mouse.move(onto.x + onto.width / 2, onto.y + onto.height / 2, { steps: 10 });
      await expect(cardOf(page, biden)).toHaveAttribute('data-drag', 'over');
      await page.mouse.up();
      const ask = page.getByRole('alertdialog', { name: 'Merge these two people?' });
      await expect(ask).toBeVisible();
      // The one dropped on is offered as the one who stays.
      await expect(ask.getByRole('radio', { checked: true })).toHaveCount(1);
      await expect(cardOf(page, personA)).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('desktop-merge.png') });
      await ask.getByRole('button', { name: 'Merge' }).click();
      await expect(ask).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: 'Merged 2 people' })).toBeVisible();
      await expect(peopleGrid(page).getByRole('listitem')).toHaveCount(2);
      await expect(cardOf(page, personA)).toHaveCount(0);
      expect((await person(req, personA)).status).toBe(404);
      expect((await person(req, biden)).body).toMatchObject({ asset_count: 4, is_confirmed: true });
    });

    await test.step('"Rebuild people" runs, says when it is done, and keeps the name, the merge and the face taken away', async () => {
      await page.getByRole('button', { name: 'Rebuild people' }).click();
      await expect(page.locator('.people-rebuild').getByRole('status')).toContainText('People rebuilt. Your names and corrections were kept.', { timeout: 120_000 });
      await expect(peopleGrid(page).getByRole('listitem')).toHaveCount(2);
      await expect(cardOf(page, obama).getByRole('heading', { name: 'Barack' })).toBeVisible();
      await expect(cardOf(page, obama)).toContainText('2 photos');
      await expect(cardOf(page, biden)).toContainText('4 photos');
      expect((await facesOf(req, ids[OBAMA[0]!]!)).map((f) => f.person_id)).not.toContain(obama);
    });

    await test.step("the details name a photo's place; a photo without people lists none", async () => {
      // The place is named a moment after processing (the gazetteer's first load): a reload shows it once it is.
      await expect(async () => {
        await page.goto(`/photos/${ids[PLACE.file]}`);
        await expect(details(page)).toContainText(PLACE.name, { timeout: 3_000 });
      }).toPass({ timeout: 90_000, intervals: [2_000, 5_000] });
      await expect(details(page).getByRole('region', { name: 'People in this photo' })).toHaveCount(0);
      await expect(page.getByRole('dialog', { name: PLACE.file }).getByRole('button', { name: /^Face: / })).toHaveCount(0);
    });
    await req.dispose();
  });
});

interface Point {
  x: number;
  y: number;
}

/** Touches through CDP (as phone-viewer.spec.ts): Chromium turns them into touch and pointer events. */
class Finger {
  constructor(private readonly cdp: CDPSession) {}

  static async on(page: Page): Promise<Finger> {
    return new Finger(await page.context().newCDPSession(page));
  }

  private send(type: 'touchStart' | 'touchEnd', points: Point[]) {
    return this.cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id })) });
  }

  /** Holds a finger on `p` until `held` is true (the page reacted), then lifts it. */
  async longPress(p: Point, held: () => Promise<void>): Promise<void> {
    await this.send('touchStart', [p]);
    await held();
    await this.send('touchEnd', []);
  }
}

async function centreOf(locator: Locator): Promise<Point> {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test.describe('on a phone with touch', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a long press selects a person, a tap another, Merge keeps the one chosen; their photos open in the viewer, which names them', async ({ page, playwright, hearth }) => {
    const req = await playwright.request.newContext({ baseURL: hearth.url });
    const ids = await assetIds(req);
    const barack = await personIn(req, ids, OBAMA[1]!);
    const other = await personIn(req, ids, BIDEN);
    await signIn(page);
    await openPeople(page);
    await expect(peopleGrid(page).getByRole('listitem')).toHaveCount(2);
    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: test.info().outputPath('phone-people.png'), fullPage: true });
    await expectAccessible(page);

    await test.step('a long press selects, a tap adds, Merge asks which one stays', async () => {
      const finger = await Finger.on(page);
      const first = cardOf(page, other);
      await finger.longPress(await centreOf(first.locator('.person-cover')), () => expect(first.getByRole('checkbox')).toBeChecked());
      await expect(page.getByRole('toolbar', { name: 'Selection' })).toContainText('1 selected');
      // While selecting, a tap on a face selects rather than opens.
      await cardOf(page, barack).getByRole('link', { name: 'Open Barack' }).tap();
      await expect(page).toHaveURL(/\/people$/);
      await expect(cardOf(page, barack).getByRole('checkbox', { name: 'Select Barack' })).toBeChecked();
      await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Merge' }).tap();
      const ask = page.getByRole('alertdialog', { name: 'Merge these two people?' });
      // The named person is offered first.
      await expect(ask.getByRole('radio', { name: /Barack/ })).toBeChecked();
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: test.info().outputPath('phone-merge.png') });
      await ask.getByRole('button', { name: 'Merge' }).tap();
      await expect(ask).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: 'Merged 2 people into Barack.' })).toBeVisible();
      // The selection ends with the merge.
      await expect(page.getByRole('toolbar', { name: 'Selection' })).toHaveCount(0);
      await expect(peopleGrid(page).getByRole('listitem')).toHaveCount(1);
      expect((await person(req, other)).status).toBe(404);
      // Barack's two photos (face_002, face_012) and the four of the other (face_007, face_012, face_019,
      // face_020): face_012 counts once.
      await expect(cardOf(page, barack)).toContainText('5 photos');
    });

    await test.step('the person left opens with their photos, and the viewer names them', async () => {
      await cardOf(page, barack).getByRole('link', { name: 'Open Barack' }).tap();
      await expect(page).toHaveURL(new RegExp(`/people/${barack}$`));
      const grid = page.getByRole('list', { name: 'Photos of Barack' });
      await expect(page.getByText('5 photos', { exact: true })).toBeVisible();
      // (A phone shows no selection checks until selecting starts: the tile is found by its check's name all the same.)
      await grid.getByRole('listitem').filter({ has: page.locator(`.tile__check[aria-label="Select ${BIDEN}"]`) }).getByRole('button').first().tap();
      const viewer = page.getByRole('dialog', { name: BIDEN });
      await expect(viewer).toBeVisible();
      await viewer.getByRole('button', { name: 'Details' }).tap();
      await expect(viewer.getByRole('button', { name: 'Face: Barack' })).toBeVisible();
      await expect(details(page).getByRole('link', { name: 'Barack' })).toBeVisible();
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: test.info().outputPath('phone-viewer-faces.png') });
    });

    await test.step('"This is…" moves the face to someone new: the box, the details, the person\'s page and the server follow', async () => {
      const viewer = page.getByRole('dialog', { name: BIDEN });
      await viewer.getByRole('button', { name: 'Face: Barack' }).tap();
      const menu = page.getByRole('dialog', { name: 'Face: Barack' });
      await expect(menu.getByRole('button', { name: 'Not this person' })).toBeVisible();
      await menu.getByRole('combobox', { name: 'This is…' }).selectOption({ label: 'Someone new' });
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: test.info().outputPath('phone-face-menu.png') });
      await expectAccessible(page, ['.face-boxes', '.face-menu']);
      await menu.getByRole('button', { name: 'Move face' }).tap();
      await expect(menu).toHaveCount(0);
      await expect(viewer.getByRole('button', { name: 'Face: Unnamed person' })).toBeVisible();
      await expect(details(page).getByRole('link', { name: 'Unnamed person' })).toBeVisible();
      await expect(details(page).getByRole('link', { name: 'Barack' })).toHaveCount(0);
      const [moved] = await facesOf(req, ids[BIDEN]!);
      expect(moved!.person_id).not.toBe(barack);
      expect((await person(req, moved!.person_id!)).body).toMatchObject({ asset_count: 1, is_confirmed: true });
      await viewer.getByRole('button', { name: 'Close' }).tap();
      await expect(viewer).toHaveCount(0);
      await expect(page.getByText('4 photos', { exact: true })).toBeVisible();
    });

    await test.step('Hide takes a person off People; "Show hidden people" lists them, and Show brings them back', async () => {
      await page.getByRole('link', { name: '← People' }).tap();
      await expect(peopleGrid(page).getByRole('listitem')).toHaveCount(2);
      await cardOf(page, barack).getByRole('button', { name: 'Hide Barack' }).tap();
      await expect(cardOf(page, barack)).toHaveCount(0);
      await expect(peopleGrid(page).getByRole('listitem')).toHaveCount(1);
      expect((await person(req, barack)).body).toMatchObject({ is_hidden: true });
      await page.getByRole('button', { name: 'Show hidden people' }).tap();
      await expect(cardOf(page, barack)).toContainText('4 photos · hidden');
      await expectAccessible(page);
      await cardOf(page, barack).getByRole('button', { name: 'Show Barack' }).tap();
      await expect(cardOf(page, barack)).not.toContainText('hidden');
      await page.getByRole('button', { name: 'Hide hidden people' }).tap();
      await expect(cardOf(page, barack)).toBeVisible();
      expect((await person(req, barack)).body).toMatchObject({ is_hidden: false });
    });
    await req.dispose();
  });
});
