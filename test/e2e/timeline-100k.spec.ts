/**
 * The Photos timeline with 100,000 photos: it stays virtualised (only the tiles near the viewport
 * are in the page) from the newest day down to the oldest, on a server of its own whose catalog
 * gets 100k synthetic photos straight in SQLite (timeline-catalog.ts: 15 years, several a day, no
 * thumbnails, so the tiles show their "No preview" placeholder).
 *
 * The timeline loads a page of items as its end comes near, so reaching the oldest day means
 * scrolling through all of them: the test keeps the window at the bottom (as holding End does)
 * until the oldest day's header shows, checking on the way that the page never holds more than a
 * bounded number of tiles. Then it jumps to the middle and back to the top with the keyboard.
 * Before that, a fling: scrolled at 4000 px/s, the tiles passing by are put in the page without a
 * thumbnail, and the ones on screen ask for theirs once it stops (fling-detector.ts).
 * No timing assertions: how fast it scrolls is measured by `npm run bench:timeline`.
 * Screenshots of each stage are kept under test-results/e2e.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { withOwnServer } from './own-server.ts';
import { FIRST_DAY, LAST_DAY, insertTimeline, makeTimeline, timeAt } from './timeline-catalog.ts';

const COUNT = 100_000;
/**
 * "Virtualised": far fewer tiles in the page than items, wherever the window is. At 1280×860 the
 * window shows ~35 tiles and the page holds ~75 (rows above and below are drawn ahead); the bound
 * leaves room for a larger overscan, and is 0.3% of the items.
 */
const MAX_TILES = 300;
const ADMIN = { username: 'hestia', password: 'keeper-of-the-hearth' };
const timeline = makeTimeline(COUNT);

const test = withOwnServer('timeline-100k', []);
// Days are read in the viewer's zone: UTC, like the synthetic capture times.
test.use({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 860 } });

/** The page globals used inside page.evaluate (the root tsconfig has no DOM library). */
interface El {
  textContent: string | null;
  matches(selector: string): boolean;
  querySelectorAll?(selector: string): ArrayLike<El>;
  getBoundingClientRect(): { top: number; bottom: number; left: number; width: number; height: number };
}
interface MutationRecordLike {
  addedNodes: ArrayLike<El>;
}
interface PageWindow {
  MutationObserver: new (callback: (records: MutationRecordLike[]) => void) => {
    observe(target: El, options: { childList: boolean; subtree: boolean }): void;
    takeRecords(): MutationRecordLike[];
    disconnect(): void;
  };
  innerHeight: number;
  performance: { now(): number };
  scrollY: number;
  scrollTo(x: number, y: number): void;
  requestAnimationFrame(callback: (t: number) => void): number;
  document: {
    activeElement: { blur?(): void } | null;
    documentElement: { scrollHeight: number };
    querySelector(s: string): El | null;
    querySelectorAll(s: string): ArrayLike<El>;
  };
}

/** Variant B envelopes: `{code, data, error, message}`. */
async function call(req: APIRequestContext, url: string, token: string | null, data: unknown) {
  const r = await req.post(url, { data, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const body = (await r.json()) as { data: Record<string, unknown> };
  expect(r.ok(), `${url}: ${JSON.stringify(body)}`).toBeTruthy();
  return body.data;
}

const utcDay = (ts: number) => Math.floor(ts / 86_400_000) * 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** "Tue, December 31, 2024" → that day (UTC ms). */
function parseDay(label: string): number {
  const m = /([A-Z][a-z]+) (\d{1,2}), (\d{4})$/.exec(label.trim());
  if (!m) throw new Error(`not a day header: ${label}`);
  return Date.UTC(Number(m[3]), MONTHS.indexOf(m[1]!), Number(m[2]));
}
const dayText = (ts: number) => {
  const d = new Date(ts);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
};

/** What the grid holds right now. */
async function gridState(page: Page) {
  return page.evaluate(() => {
    const w = globalThis as unknown as PageWindow;
    const grid = w.document.querySelector('[role="list"][aria-label="Photos and videos"]')!;
    const tiles = w.document.querySelectorAll('[role="list"][aria-label="Photos and videos"] [role="listitem"]');
    const box = grid.getBoundingClientRect();
    const first = tiles.length ? tiles[0]!.getBoundingClientRect() : null;
    // Headers on screen or above its middle: the last of them names the day of the tiles in the middle.
    const headers = Array.from(w.document.querySelectorAll('.timeline__day')).map((h) => ({ text: h.textContent ?? '', top: h.getBoundingClientRect().top }));
    return {
      tiles: tiles.length,
      height: box.height,
      width: box.width,
      tile: first?.width ?? 0,
      tileHeight: first?.height ?? 0,
      onScreen: Array.from(tiles).filter((t) => {
        const r = t.getBoundingClientRect();
        return r.bottom > 0 && r.top < w.innerHeight;
      }).length,
      headers,
      middleDay: headers.filter((h) => h.top < w.innerHeight / 2).at(-1)?.text ?? null,
    };
  });
}

/**
 * The most tiles a row holds: rows are justified (timeline-layout.ts) and every synthetic photo is
 * 4:3, so a full row's tiles are about as wide as the first one; one more for rows whose days'
 * gaps make them a little smaller.
 */
function perRow(state: { width: number; tile: number }): number {
  const gap = 4;
  return Math.ceil((state.width + gap) / (state.tile + gap)) + 1;
}

/** The least height a grid of `count` tiles can have (every row full, no headers, tiles at least 4/5 of the first one's height). */
function leastHeight(state: { width: number; tile: number; tileHeight: number }, count: number): number {
  return Math.ceil(count / perRow(state)) * (state.tileHeight * 0.8 + 4) - 4;
}

/**
 * Scrolls down at 4000 px/s for 2.5 s, position from time as a finger's fling, and checks that the tiles
 * put in the page on the way asked for (almost) no thumbnail, and that once it stops every tile on
 * screen asks for its own. `stalls`: extra ms of busy main thread in each frame, as a cycle; fewer
 * than one tile in `leak` may get its thumbnail during the fling.
 */
async function flingAndSettle(page: Page, name: string, stalls: number[], leak = 5) {
  const fling = await page.evaluate(
    async ({ speed, ms, stalls }) => {
      const w = globalThis as unknown as PageWindow;
      const grid = w.document.querySelector('.timeline')!;
      // Every tile and every thumbnail image put in the grid during the fling.
      let tiles = 0;
      let images = 0;
      const count = (records: MutationRecordLike[]) => {
        for (const r of records) {
          for (const n of Array.from(r.addedNodes)) {
            if (!n.querySelectorAll) continue;
            if (n.matches('[role="listitem"]')) tiles++;
            images += (n.matches('img.tile__image') ? 1 : 0) + n.querySelectorAll('img.tile__image').length;
          }
        }
      };
      const observer = new w.MutationObserver(count);
      observer.observe(grid, { childList: true, subtree: true });
      let maxTiles = 0;
      let frames = 0;
      const y0 = w.scrollY;
      await new Promise<void>((done) => {
        let start: number | null = null;
        const tick = (t: number) => {
          start ??= t;
          // Position from time, as a finger's fling: a late frame jumps further, it does not slow down.
          w.scrollTo(0, y0 + (speed * (t - start)) / 1000);
          // A busy main thread: this frame takes `stalls[frame]` ms more (a cycle; none when empty).
          const stall = stalls.length ? stalls[frames++ % stalls.length]! : 0;
          for (const until = w.performance.now() + stall; w.performance.now() < until; );
          maxTiles = Math.max(maxTiles, w.document.querySelectorAll('.timeline [role="listitem"]').length);
          if (t - start < ms) w.requestAnimationFrame(tick);
          else done();
        };
        w.requestAnimationFrame(tick);
      });
      count(observer.takeRecords());
      observer.disconnect();
      return { tiles, images, maxTiles, distance: w.scrollY - y0 };
    },
    { speed: 4000, ms: 2500, stalls },
  );
  console.log(`${name}: ${Math.round(fling.distance)} px, ${fling.tiles} tiles put in the page, ${fling.images} with a thumbnail, at most ${fling.maxTiles} at once`);
  expect(fling.distance).toBeGreaterThan(5000);
  expect(fling.tiles).toBeGreaterThan(100);
  expect(fling.maxTiles).toBeLessThan(MAX_TILES);
  // Each tile is made once while it is in range, not again whenever the window moves a row: the
  // tiles put in the page are at most those of the rows the fling went past (headers take room
  // too, so fewer) and of the screenful drawn at the start.
  const state = await gridState(page);
  const columns = perRow(state);
  expect(fling.tiles).toBeLessThanOrEqual((Math.ceil(fling.distance / (state.tileHeight * 0.8 + 4)) + fling.maxTiles / columns) * columns);
  // The first frame of the fling is not known as one yet: a row or two may load.
  expect(fling.images).toBeLessThan(fling.tiles / leak);
  // Stopped: every tile on screen asks for its thumbnail (none exists here, so each ends on its placeholder).
  await expect
    .poll(() =>
      page.evaluate(() => {
        const w = globalThis as unknown as PageWindow;
        const tiles = Array.from(w.document.querySelectorAll('.timeline [role="listitem"]')).filter((t) => {
          const r = t.getBoundingClientRect();
          return r.bottom > 0 && r.top < w.innerHeight;
        });
        return { onScreen: tiles.length, waiting: tiles.filter((t) => !(t.textContent ?? '').includes('No preview')).length };
      }),
    )
    .toEqual(expect.objectContaining({ waiting: 0 }));
  expect((await gridState(page)).onScreen).toBeGreaterThan(10);
}

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const session = await call(req, '/api/v1/auth/register', null, { ...ADMIN, display_name: 'Hestia' });
  const token = session.token as string;
  const userId = (session.user as { user_id: number }).user_id;
  insertTimeline(hearth.dataDir, userId, timeline);
  // The server sees another connection's write and lists all of them.
  const list = await call(req, '/api/v1/assets/query', token, { sort_by: 'date_captured', pagination: { limit: 1 } });
  expect(list.total_visible).toBe(COUNT);
  await req.dispose();
});

test('100k photos: the timeline stays virtualised from the newest day to the oldest and back', async ({ page }) => {
  // Generous: on a slow or busy machine paging through 100k photos takes minutes; a hang still fails.
  test.setTimeout(600_000);
  const grid = page.getByRole('list', { name: 'Photos and videos' });

  await test.step('the top: the total and the newest day', async () => {
    await page.goto('/');
    await page.getByLabel('User name').fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();
    await expect(page.getByText('100,000 photos and videos, by the day they were taken.')).toBeVisible();
    // The newest day's label (under the month header).
    const newest = grid.locator('.timeline__day').first();
    await expect(newest).toHaveText(new RegExp(`${dayText(LAST_DAY)}$`));
    await expect(newest).toBeInViewport();
    // Tiles without thumbnails still lay out, with their placeholder.
    await expect(grid.getByRole('listitem').first().getByText('No preview')).toBeVisible();
    const top = await gridState(page);
    expect(top.onScreen).toBeGreaterThan(10);
    expect(top.tiles).toBeLessThan(MAX_TILES);
    await page.screenshot({ path: test.info().outputPath('timeline-100k-top.png') });
  });

  await test.step('a fling: tiles passing by ask for no thumbnail; those on screen load theirs once it stops', async () => {
    await flingAndSettle(page, 'fling', []);
    await page.screenshot({ path: test.info().outputPath('timeline-100k-after-fling.png') });
  });

  await test.step('a fling on a busy device, its frames of uneven length: still no thumbnail until it stops', async () => {
    // A short frame, a longer one, a long one, again and again, as when the grid renders new rows on a
    // slow phone. A scroll event reports the previous frame's move at this frame's time, so measured
    // from one event to the next this fling crawled twice in each round and ended halfway (CI, 2026-11-30);
    // its start was seen frames late, and the window stood at the end of the loaded rows waiting for a page
    // (CI, 2026-12-01: 115 thumbnails of 240 tiles).
    // And a slow device: the page's CPU four times slower (Chromium's throttling), as a phone's.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    try {
      await flingAndSettle(page, 'busy fling', [0, 60, 250], 10);
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
  });

  await test.step('the end: held at the bottom until the oldest day shows, never many tiles in the page', async () => {
    const oldest = dayText(FIRST_DAY);
    const run = await page.evaluate(
      async ({ oldest, budget }) => {
        const w = globalThis as unknown as PageWindow;
        const started = Date.now();
        const deadline = started + budget;
        let maxTiles = 0;
        let rounds = 0;
        while (Date.now() < deadline) {
          w.scrollTo(0, w.document.documentElement.scrollHeight);
          rounds++;
          // Once a frame: the layout is fresh then, so reading the page's height costs no extra layout.
          await new Promise((r) => w.requestAnimationFrame(r));
          maxTiles = Math.max(maxTiles, w.document.querySelectorAll('.timeline [role="listitem"]').length);
          if (Array.from(w.document.querySelectorAll('.timeline__day')).some((h) => (h.textContent ?? '').endsWith(oldest))) {
            return { reached: true, maxTiles, rounds, seconds: (Date.now() - started) / 1000 };
          }
        }
        return { reached: false, maxTiles, rounds, seconds: (Date.now() - started) / 1000 };
      },
      { oldest, budget: 420_000 },
    );
    test.info().annotations.push({ type: 'paging to the end', description: `${run.seconds} s, ${run.rounds} scrolls, at most ${run.maxTiles} tiles` });
    console.log(`paging to the end: ${run.seconds} s, ${run.rounds} scrolls, at most ${run.maxTiles} tiles in the page`);
    expect(run.reached, `the oldest day (${oldest}) did not show`).toBe(true);
    expect(run.maxTiles).toBeLessThan(MAX_TILES);
    await page.evaluate(() => {
      const w = globalThis as unknown as PageWindow;
      w.scrollTo(0, w.document.documentElement.scrollHeight);
    });
    await expect(grid.getByRole('heading', { level: 2, name: new RegExp(`${oldest}$`) })).toBeInViewport();
    // The oldest photo of all is the last tile: every page has loaded.
    await expect(grid.getByRole('listitem').last().getByRole('button')).toHaveAccessibleName(/^IMG_0001\.jpg/);
    const end = await gridState(page);
    expect(end.tiles).toBeLessThan(MAX_TILES);
    expect(end.onScreen).toBeGreaterThan(0);
    // The grid lays out all 100k (its height), while the page holds a few hundred of them.
    expect(end.height).toBeGreaterThanOrEqual(leastHeight(end, COUNT));
    await page.screenshot({ path: test.info().outputPath('timeline-100k-end.png') });
  });

  await test.step('the middle: a jump shows tiles under a day from the middle years', async () => {
    // Nothing focused that would take keys for itself (a filter field): the page scrolls.
    await page.evaluate(() => (globalThis as unknown as PageWindow).document.activeElement?.blur?.());
    await page.evaluate(() => {
      const w = globalThis as unknown as PageWindow;
      const box = w.document.querySelector('.timeline')!.getBoundingClientRect();
      w.scrollTo(0, w.scrollY + box.top + box.height / 2 - w.innerHeight / 2);
    });
    await expect.poll(async () => (await gridState(page)).onScreen).toBeGreaterThan(10);
    let middle = await gridState(page);
    expect(middle.tiles).toBeLessThan(MAX_TILES);
    // A busy day can be taller than the screen: page up until its header is in the page.
    for (let i = 0; i < 6 && middle.middleDay === null; i++) {
      await page.keyboard.press('PageUp');
      await expect.poll(async () => (await gridState(page)).onScreen).toBeGreaterThan(10);
      middle = await gridState(page);
    }
    expect(middle.middleDay, 'a day header above the middle of the screen').not.toBeNull();
    expect(middle.tiles).toBeLessThan(MAX_TILES);
    const header = grid.getByRole('heading', { level: 2, name: middle.middleDay!, exact: true });
    await header.scrollIntoViewIfNeeded();
    await expect(header).toBeInViewport();
    const day = parseDay(middle.middleDay!);
    // Half way down the grid is about half way through the list: between 35% and 65% of the photos.
    expect(day).toBeLessThanOrEqual(utcDay(timeAt(timeline, 0.35)));
    expect(day).toBeGreaterThanOrEqual(utcDay(timeAt(timeline, 0.65)));
    // Every tile there asks for its thumbnail and, none existing, ends on its placeholder: on a busy
    // machine a screenful of answered requests can take longer than the usual 10 s.
    await expect(grid.getByText('No preview').first()).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: test.info().outputPath('timeline-100k-middle.png') });
  });

  await test.step('back to the top with the keyboard', async () => {
    await page.keyboard.press('Home');
    await expect(grid.locator('.timeline__day').first()).toHaveText(new RegExp(`${dayText(LAST_DAY)}$`));
    await expect(grid.locator('.timeline__day').first()).toBeInViewport();
    const top = await gridState(page);
    expect(top.tiles).toBeLessThan(MAX_TILES);
    expect(top.height).toBeGreaterThanOrEqual(leastHeight(top, COUNT));
    await page.screenshot({ path: test.info().outputPath('timeline-100k-back-to-top.png') });
  });
});
