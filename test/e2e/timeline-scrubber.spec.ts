/**
 * The timeline's justified rows, its date scrubber and its thumbnail size (issue 12 point 3), on a
 * server of its own holding 3,000 synthetic photos over 15 years (test/e2e/timeline-catalog.ts:
 * many days with a single photo, every month with some):
 * - desktop 1280×800: a day with one photo shares its row with the next day's photos, each day
 *   labelled over its first tile, months under headers of their own, full rows reaching the right
 *   edge; the scrubber's years jump to the start of that year (paging through the list until it is
 *   loaded), hovering shows a month and year, and a drag lands on the month it showed; the size
 *   slider in the header makes tiles larger and the size is still there after a reload;
 * - phone 390×844 with touch (CDP Input.dispatchTouchEvent): a two-finger pinch on the grid makes
 *   tiles larger, then smaller; dragging the scrubber's handle with a finger jumps to another year.
 * - at both sizes (issue 24 point 3): Favourites, three photos of 2012, get a scrubber of 2012 alone,
 *   not the library's 15 years: a scrubber's years are those of the list it scrolls.
 * No timing assertions. Screenshots are kept under test-results/e2e.
 */
import { expect, type CDPSession, type Locator, type Page } from '@playwright/test';
import { call } from './household.ts';
import { withOwnServer } from './own-server.ts';
import { insertTimeline, makeTimeline } from './timeline-catalog.ts';

const COUNT = 3000;
const ADMIN = { username: 'chronos', password: 'keeper-of-the-years' };
const timeline = makeTimeline(COUNT, 31);
const PHONE = { width: 390, height: 844 };
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const test = withOwnServer('timeline-scrubber', []);
test.describe.configure({ mode: 'serial' });
// Days are read in the viewer's zone: UTC, like the synthetic capture times.
test.use({ locale: 'en-US', timezoneId: 'UTC' });

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const session = await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Chronos' } });
  const token = session.token as string;
  const ids = insertTimeline(hearth.dataDir, (session.user as { user_id: number }).user_id, timeline);
  // Favourites: three photos of 2012.
  const of2012 = ids.filter((_, i) => new Date(timeline.times[i]!).getUTCFullYear() === 2012).slice(0, 3);
  for (const id of of2012) {
    const r = await req.put(`/api/v1/assets/${id}/like`, { data: { liked: true }, headers: { Authorization: `Bearer ${token}` } });
    expect(r.ok(), await r.text()).toBeTruthy();
  }
  const list = await call(req, 'post', '/api/v1/assets/query', token, { data: { sort_by: 'date_captured', pagination: { limit: 1 } } });
  expect(list.total_visible).toBe(COUNT);
  // The scrubber's scale: the statistics know the 15 years.
  const years = await call(req, 'get', '/api/v1/stats/available-years', token);
  expect((years.years as unknown[]).length).toBe(15);
  await req.dispose();
});

async function signIn(page: Page) {
  await page.goto('/');
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`${COUNT.toLocaleString('en-US')} photos and videos, by the day they were taken.`)).toBeVisible();
}

const grid = (page: Page) => page.getByRole('list', { name: 'Photos and videos' });
const box = async (l: Locator) => (await l.boundingBox())!;
const utc = (ts: number) => new Date(ts);
const dayKey = (ts: number) => Math.floor(ts / 86_400_000);
/** The first tile's height (all tiles of a row share it). */
const tileHeight = async (page: Page) => (await box(grid(page).getByRole('listitem').first())).height;

/** The page globals used inside page.evaluate (the root tsconfig has no DOM library). */
interface PageDoc {
  innerHeight: number;
  document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null; getBoundingClientRect(): { top: number; bottom: number } }> };
}

/** The month headers and day labels in the window, top to bottom (read at once: the grid changes as it loads). */
async function inView(page: Page) {
  return page.evaluate(() => {
    const w = globalThis as unknown as PageDoc;
    const all = (selector: string) =>
      Array.from(w.document.querySelectorAll(`[aria-label="Photos and videos"] ${selector}`))
        .map((h) => ({ text: h.textContent ?? '', top: h.getBoundingClientRect().top, bottom: h.getBoundingClientRect().bottom }))
        .filter((h) => h.bottom > 0 && h.top < w.innerHeight)
        .sort((a, b) => a.top - b.top);
    return { months: all('.timeline__month'), days: all('.timeline__day') };
  });
}

/** After a jump: the top of the window shows `month` (e.g. "December 2016") and days of its year. */
async function expectMonthAtTop(page: Page, month: string) {
  await expect(grid(page).locator('.timeline__month', { hasText: month })).toBeInViewport();
  const { months, days } = await inView(page);
  expect(months[0]?.text, 'the first month header in the window').toBe(month);
  expect(months[0]!.top, 'near the top of the window').toBeLessThan(200);
  const year = month.split(' ')[1]!;
  const below = days.filter((d) => d.top > months[0]!.top);
  expect(below.length).toBeGreaterThan(0);
  expect(below[0]!.text, "the month's first day").toMatch(new RegExp(`${month.split(' ')[0]} \\d{1,2}, ${year}$`));
}

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('justified rows: a day with one photo shares its row with the next days; headers inline', async ({ page }) => {
    await signIn(page);
    // The newest month's first day with a single photo followed by another day of the same month.
    const { times, paths } = timeline;
    let k = -1;
    for (let i = 0; i + 1 < times.length; i++) {
      const single = (i === 0 || dayKey(times[i - 1]!) !== dayKey(times[i]!)) && dayKey(times[i + 1]!) !== dayKey(times[i]!);
      if (single && utc(times[i + 1]!).getUTCMonth() === utc(times[i]!).getUTCMonth()) {
        k = i;
        break;
      }
    }
    expect(k, 'the synthetic timeline has a day with a single photo').toBeGreaterThanOrEqual(0);
    const name = (i: number) => paths[i]!.split('/').pop()!;
    const tile = (i: number) => grid(page).getByRole('button', { name: new RegExp(`^${name(i).replace('.', '\\.')}`) }).first();
    await expect(tile(k)).toBeVisible();
    const lone = await box(tile(k));
    const next = await box(tile(k + 1));
    expect(Math.abs(lone.y - next.y), 'the next day on the same row').toBeLessThan(1);
    expect(next.x).toBeGreaterThan(lone.x + lone.width);
    // The two days' labels: above their first tiles, at their left edges.
    const label = (ts: number) => `${MONTHS[utc(ts).getUTCMonth()]} ${utc(ts).getUTCDate()}, ${utc(ts).getUTCFullYear()}`;
    for (const i of [k, k + 1]) {
      const l = await box(grid(page).locator('.timeline__day', { hasText: label(times[i]!) }));
      const t = await box(tile(i));
      expect(Math.abs(l.x - t.x), 'label over the first tile').toBeLessThan(1);
      expect(l.y + l.height).toBeLessThanOrEqual(t.y + 1);
    }
    // A month header of its own, above the month's days, wider than any day's label.
    const month = grid(page).locator('.timeline__month').first();
    await expect(month).toHaveText(`${MONTHS[utc(times[0]!).getUTCMonth()]} ${utc(times[0]!).getUTCFullYear()}`);
    expect((await box(month)).y).toBeLessThan(lone.y);
    // The row is justified: its last tile ends at the grid's right edge (tiles are 4:3 here).
    const g = await box(grid(page));
    const tops = new Map<number, number>();
    for (const t of await grid(page).getByRole('listitem').all()) {
      const b = (await t.boundingBox())!;
      if (Math.abs(b.y - lone.y) < 1) tops.set(b.x, b.x + b.width);
    }
    expect(Math.max(...tops.values())).toBeCloseTo(g.x + g.width, 0);
    expect(lone.width / lone.height).toBeCloseTo(4 / 3, 1);
    await page.screenshot({ path: test.info().outputPath('desktop-justified.png') });
  });

  test('the scrubber: a year jumps to its start; hovering shows a month; a drag lands there', async ({ page }) => {
    await signIn(page);
    const scrubber = page.getByRole('navigation', { name: 'Timeline dates' });
    await expect(scrubber.getByRole('button', { name: 'Jump to 2024' })).toBeVisible();
    await expect(scrubber.getByRole('button', { name: 'Jump to 2010' })).toBeVisible();

    await test.step('a year: the start of 2016, loaded page by page', async () => {
      await scrubber.getByRole('button', { name: 'Jump to 2016' }).click();
      await expectMonthAtTop(page, 'December 2016');
      await page.screenshot({ path: test.info().outputPath('desktop-scrubber-2016.png') });
    });

    await test.step('hover shows a month and year; a drag lands on the month shown', async () => {
      const bar = scrubber.getByRole('slider', { name: 'Jump to a month' });
      const b = await box(bar);
      const x = b.x + b.width / 2;
      await page.mouse.move(x, b.y + b.height * 0.3);
      const label = scrubber.locator('.scrubber__label');
      await expect(label).toHaveText(/^[A-Z][a-z]+ 20\d\d$/);
      await page.mouse.down();
      await page.mouse.move(x, b.y + b.height * 0.55, { steps: 5 });
      const shown = (await label.textContent())!;
      await page.screenshot({ path: test.info().outputPath('desktop-scrubber-drag.png') });
      await page.mouse.up();
      await expectMonthAtTop(page, shown);
      // The handle follows the window.
      const handle = await box(scrubber.locator('.scrubber__handle'));
      expect(Math.abs(handle.y - (b.y + b.height * 0.55))).toBeLessThan(b.height * 0.05);
    });

    await test.step('back to the newest year', async () => {
      await scrubber.getByRole('button', { name: 'Jump to 2024' }).click();
      await expectMonthAtTop(page, 'December 2024');
    });
  });

  test('the size slider makes tiles larger, and the size is remembered', async ({ page }) => {
    await signIn(page);
    const slider = page.getByRole('slider', { name: 'Thumbnail size' });
    await expect(slider).toBeVisible();
    const before = await tileHeight(page);
    await slider.fill('5');
    await expect.poll(() => tileHeight(page)).toBeGreaterThan(before * 1.4);
    const larger = await tileHeight(page);
    await page.screenshot({ path: test.info().outputPath('desktop-size-large.png') });
    await slider.fill('0');
    await expect.poll(() => tileHeight(page)).toBeLessThan(before * 0.7);
    await slider.fill('5');
    await expect.poll(() => tileHeight(page)).toBeCloseTo(larger, 0);
    await page.reload();
    await expect(grid(page).getByRole('listitem').first()).toBeVisible();
    await expect(page.getByRole('slider', { name: 'Thumbnail size' })).toHaveValue('5');
    expect(await tileHeight(page)).toBeCloseTo(larger, 0);
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

  /** Two fingers around (x, y), from `startGap` apart to `endGap` apart. */
  async pinch(x: number, y: number, startGap: number, endGap: number, steps = 10): Promise<void> {
    const at = (gap: number) => [
      { x: x - gap / 2, y },
      { x: x + gap / 2, y },
    ];
    await this.send('touchStart', at(startGap));
    for (let i = 1; i <= steps; i++) await this.send('touchMove', at(startGap + ((endGap - startGap) * i) / steps));
    await this.send('touchEnd', []);
  }

  async drag(from: { x: number; y: number }, to: { x: number; y: number }, steps = 10): Promise<void> {
    await this.send('touchStart', [from]);
    for (let i = 1; i <= steps; i++) await this.send('touchMove', [{ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }]);
    await this.send('touchEnd', []);
  }
}

test.describe('on a phone with touch', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('a pinch changes the thumbnail size; the scrubber handle drags to another year', async ({ page }) => {
    await signIn(page);
    await expect(page.getByRole('slider', { name: 'Thumbnail size' }), 'phones pinch instead').toBeHidden();
    const finger = await Finger.on(page);
    // Two fingers on the tiles (below the filters: the grid scrolled up to the screen's middle).
    const first = grid(page).getByRole('listitem').first();
    await first.scrollIntoViewIfNeeded();
    const t = await box(first);
    const centre = { x: PHONE.width / 2, y: t.y + t.height / 2 };

    await test.step('spread two fingers: larger tiles; pinch them: smaller', async () => {
      const before = await tileHeight(page);
      await finger.pinch(centre.x, centre.y, 80, 260);
      await expect.poll(() => tileHeight(page)).toBeGreaterThan(before * 1.2);
      await page.screenshot({ path: test.info().outputPath('phone-pinched-larger.png') });
      const larger = await tileHeight(page);
      await finger.pinch(centre.x, centre.y, 300, 60);
      await expect.poll(() => tileHeight(page)).toBeLessThan(larger * 0.8);
      await page.screenshot({ path: test.info().outputPath('phone-pinched-smaller.png') });
    });

    await test.step('drag the scrubber handle down with a finger: another year', async () => {
      const handle = page.locator('.scrubber__handle');
      await expect(handle).toBeVisible();
      const h = await box(handle);
      const bar = await box(page.getByRole('slider', { name: 'Jump to a month' }));
      const from = { x: h.x + h.width / 2, y: h.y + h.height / 2 };
      await finger.drag(from, { x: from.x, y: bar.y + bar.height * 0.6 });
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY), { timeout: 30_000 }).toBeGreaterThan(2000);
      const { months } = await inView(page);
      expect(months.length).toBeGreaterThan(0);
      expect(Number(months[0]!.text.split(' ')[1])).toBeLessThan(2024);
      await page.screenshot({ path: test.info().outputPath('phone-scrubbed.png') });
    });
  });
});

/** Favourites of one year: their scrubber offers that year alone (issue 24 point 3). */
async function favouritesScrubberCoversTheirYear(page: Page) {
  await signIn(page);
  await page.goto('/favourites');
  await expect(page.getByRole('heading', { level: 1, name: 'Favourites' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Favourites' }).getByRole('listitem')).toHaveCount(3);
  const scrubber = page.getByRole('navigation', { name: 'Timeline dates' });
  await expect(scrubber.getByRole('slider', { name: 'Jump to a month' })).toBeVisible();
  // Its years (a phone shows them while the handle is dragged; they are in the page all the same).
  await expect(scrubber.locator('.scrubber__year')).toHaveText(['2012']);
  await page.screenshot({ path: test.info().outputPath(`favourites-scrubber-${page.viewportSize()!.width}.png`) });
  // The timeline's own scrubber still has the 15 years.
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Timeline dates' }).locator('.scrubber__year', { hasText: '2010' })).toBeAttached();
}

for (const [size, use] of [
  ['on a desktop', { viewport: { width: 1280, height: 800 } }],
  ['on a phone with touch', { viewport: PHONE, hasTouch: true, isMobile: true }],
] as const) {
  test.describe(`a list's scrubber, ${size}`, () => {
    test.use(use);
    test("Favourites: the scrubber has the favourites' years, not the library's", async ({ page }) => favouritesScrubberCoversTheirYear(page));
  });
}
