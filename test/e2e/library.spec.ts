/**
 * The library end to end, on its own fresh server (a child process on a random port and a temporary
 * data folder, so it does not depend on what first-run.spec.ts did): create the administrator,
 * upload a few corpus photos and a video through the Upload page, watch every file reach "Done",
 * see their thumbnails load in the Photos grid, open one, check desktop and phone layouts; then an
 * upload interrupted by a reload resumes from the chunks the server already has; and the admin
 * Repositories page shows the primary repository and runs a scan to completion; last, an upload whose
 * session answer was lost on the way back resumes that very session when tried again.
 *
 * Screenshots are kept as artifacts under test-results/e2e.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { withOwnServer } from './own-server.ts';

// The root tsconfig has no DOM library; these are the page globals used inside page.evaluate.
declare const document: {
  documentElement: { scrollWidth: number };
  querySelectorAll(s: string): ArrayLike<{ complete: boolean; naturalWidth: number }>;
};
declare const window: { innerWidth: number; scrollTo(x: number, y: number): void };
declare const localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };

const ADMIN = { username: 'hestia', displayName: 'Hestia', password: 'keep-the-fire-burning' };
const PHONE = { width: 390, height: 844 };
const PHOTOS = ['gps/DSCN0010.jpg', 'gps/big_ben.jpg', 'exif/orientation_landscape_1.jpg', 'gps/thompson-springs.jpg'];
const VIDEO = 'video/with-gps.mp4';
/** Stored, but not a readable image: ends as a failed asset. */
const CORRUPT = 'exif/corrupted.jpg';
/** Larger than a few 64 KiB chunks, for the resume test. */
const RESUMED = 'exif/Canon_SD300_canon_tags.jpg';
/** Sent once more after the answer to its session request was lost on the way back. */
const ANSWER_LOST = 'exif/Nikon_D70.jpg';

const test = withOwnServer('library', [...PHOTOS, VIDEO, CORRUPT, RESUMED, ANSWER_LOST]);

/** `npm run host -- …` on the home machine (the tray's "Pause indexing"): the real script over the server's host channel. */
function host(dataDir: string, verb: 'pause' | 'resume'): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const r = spawnSync(path.join(root, 'node_modules/.bin/node'), ['--import', 'tsx', 'scripts/host.ts', verb, '--data', dataDir], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run host -- ${verb} failed (${r.status}): ${r.stderr}${r.stdout}`);
}

test.describe.configure({ mode: 'serial' });

async function snap(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true, animations: 'disabled' });
}

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(size.scrollWidth, 'page is wider than the viewport').toBeLessThanOrEqual(size.innerWidth);
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Follows a navigation link; at phone width through the Menu button. */
async function go(page: Page, link: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await mainNav(page).getByRole('link', { name: link, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: link, exact: true })).toBeVisible();
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();
}

function uploadRow(page: Page, name: string) {
  return page.getByRole('list', { name: 'Upload queue' }).getByRole('listitem', { name, exact: true });
}

test('upload photos and a video, see them in Photos, on desktop and phone', async ({ page, hearth }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 860 });

  await test.step('create the administrator on the fresh install; Photos is empty', async () => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Hearth' })).toBeVisible();
    await page.getByLabel('User name').fill(ADMIN.username);
    await page.getByLabel('Display name').fill(ADMIN.displayName);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('Confirm password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create administrator account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Photos' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Upload from this device' })).toBeVisible();
  });

  const names = [...PHOTOS, VIDEO].map((p) => path.basename(p));
  const corrupt = path.basename(CORRUPT);
  await test.step('upload four photos, a video and a broken file with the file picker; each reaches its end', async () => {
    const sessions: string[] = [];
    const chunks: string[] = [];
    const streams: string[] = [];
    const polls: string[] = [];
    page.on('request', (r) => {
      const url = r.url();
      if (r.method() === 'POST' && url.endsWith('/api/v1/uploads/sessions')) sessions.push(url);
      if (r.method() === 'POST' && url.endsWith('/api/v1/uploads/batch')) chunks.push(url);
      if (url.includes('/api/v1/uploads/receipts/stream?')) streams.push(url);
      else if (url.includes('/api/v1/uploads/receipts?')) polls.push(url);
    });
    await go(page, 'Upload');
    await expect(page.getByRole('region', { name: 'Add files' })).toBeVisible();
    await page.getByLabel('Choose files').setInputFiles([...names, corrupt].map((n) => path.join(hearth.files, n)));
    const queue = page.getByRole('list', { name: 'Upload queue' });
    await expect(queue.getByRole('listitem')).toHaveCount(names.length + 1);
    for (const name of names) {
      const row = uploadRow(page, name);
      await expect(row.getByText('Done', { exact: true })).toBeVisible({ timeout: 90_000 });
      await expect(row.getByRole('progressbar', { name: `Progress of ${name}` })).toHaveAttribute('aria-valuenow', '100');
    }
    const broken = uploadRow(page, corrupt);
    // Told in plain words; trying again cannot mend a damaged file, so it offers to remove it instead.
    await expect(broken.getByText('This file is damaged and cannot be shown.')).toBeVisible({ timeout: 60_000 });
    await expect(broken.getByRole('button', { name: `Remove ${corrupt} from the list` })).toBeVisible();
    await expect(broken.getByRole('button', { name: `Retry ${corrupt}` })).toHaveCount(0);
    const overall = page.getByRole('region', { name: 'Overall progress' });
    await expect(overall.getByText(`${names.length} of ${names.length + 1} done, 1 failed`)).toBeVisible();
    await expect(overall.getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuenow', '100');
    expect(sessions.length, 'one upload session per file').toBe(names.length + 1);
    expect(chunks.length, 'small files go in one chunk each').toBe(names.length + 1);
    expect(streams.length, 'receipts are followed over the event stream').toBeGreaterThanOrEqual(1);
    expect(polls, 'no fallback polling while the stream works').toEqual([]);
    await snap(page, 'desktop-upload');
  });

  await test.step('the Photos grid shows them with loaded thumbnails, the video with its duration, the broken file as failed', async () => {
    // Every thumbnail asked for, by asset id: the broken file's never is.
    const thumbnailAsks: string[] = [];
    const onRequest = (r: { url(): string }) => {
      const m = /^\/api\/v1\/assets\/([^/]+)\/thumbnail$/.exec(new URL(r.url()).pathname);
      if (m) thumbnailAsks.push(decodeURIComponent(m[1]!));
    };
    page.on('request', onRequest);
    await go(page, 'Photos');
    const grid = page.getByRole('list', { name: 'Photos and videos' });
    await expect(grid.getByRole('listitem')).toHaveCount(names.length + 1);
    await expect
      .poll(() => page.evaluate(() => Array.from(document.querySelectorAll('.timeline img')).filter((i) => i.complete && i.naturalWidth > 0).length), {
        timeout: 30_000,
      })
      .toBe(names.length);
    await expect(grid.getByRole('button', { name: /^with-gps\.mp4, video \d+:\d\d$/ })).toBeVisible();
    await expect(grid.locator('.tile__badge--video')).toHaveCount(1);
    // The broken file tells one story (issue 24): "Can't be shown" with the reason, no thumbnail asked
    // for, no second "Failed" badge.
    const failed = grid.getByRole('button', { name: /^corrupted\.jpg, can't be shown: .+/ });
    await expect(failed).toBeVisible();
    await expect(failed).toHaveAttribute('title', /^corrupted\.jpg: can't be shown\. .+/);
    await expect(failed).toContainText("Can't be shown");
    await expect(failed.locator('img')).toHaveCount(0);
    await expect(grid.locator('.tile__badge--failed')).toHaveCount(0);
    await failed.click();
    const viewer = page.getByRole('dialog', { name: corrupt });
    await expect(viewer.getByText("Can't be shown.")).toBeVisible();
    await expect(viewer.getByRole('button', { name: 'Try processing again' })).toBeVisible();
    const id = /\/photos\/([^/?#]+)/.exec(new URL(page.url()).pathname)![1]!;
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    expect(thumbnailAsks.length, 'the other tiles asked for theirs').toBeGreaterThan(0);
    expect(thumbnailAsks.filter((a) => a === id), 'thumbnail requests for the broken file').toEqual([]);
    page.off('request', onRequest);
    await expect(page.getByText(`${names.length + 1} photos and videos, by the day they were taken.`)).toBeVisible();
    await snap(page, 'desktop-photos-grid');
  });

  await test.step('a click opens the large thumbnail in an overlay; Escape closes it', async () => {
    await page.getByRole('button', { name: 'big_ben.jpg', exact: true }).click();
    const overlay = page.getByRole('dialog', { name: 'big_ben.jpg' });
    await expect(overlay).toBeVisible();
    const large = overlay.getByRole('img', { name: 'big_ben.jpg' });
    await expect(large).toHaveAttribute('src', /size=large&mt=/);
    await expect.poll(() => large.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(overlay.getByRole('link', { name: 'Open original' })).toHaveAttribute('href', /\/original\?mt=/);
    await snap(page, 'desktop-overlay');
    await page.keyboard.press('Escape');
    await expect(overlay).toBeHidden();
  });

  await test.step('at phone width the grid and the upload page fit', async () => {
    await page.setViewportSize(PHONE);
    await expect(page.getByRole('list', { name: 'Photos and videos' }).getByRole('listitem')).toHaveCount(names.length + 1);
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-photos-grid');
    await go(page, 'Upload');
    await expect(uploadRow(page, names[0]!).getByText('Done', { exact: true })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-upload');
  });
});

test('an upload cut off by a reload resumes with only the missing chunks', async ({ page, hearth }) => {
  test.setTimeout(120_000);
  const name = path.basename(RESUMED);
  const size = fs.statSync(path.join(hearth.files, name)).size;
  const CHUNK = 64 * 1024;
  const total = Math.ceil(size / CHUNK);
  expect(total).toBeGreaterThan(4);
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);

  // Small chunks, two at a time, so that the file takes several requests.
  await page.route('**/api/v1/uploads/config', (route) =>
    route.fulfill({ json: { chunk_size: CHUNK, max_concurrent: 2, max_in_flight_requests: 32, memory_buffer: 4 * CHUNK, merge_concurrency: 2 } }),
  );
  // The connection "drops" after three chunks: later chunk requests fail at the network level.
  let stored = 0;
  await page.route('**/api/v1/uploads/batch', async (route) => {
    if (stored >= 3) return route.abort('connectionreset');
    stored++;
    return route.continue();
  });

  await test.step('three chunks get through, then the page is reloaded', async () => {
    await go(page, 'Upload');
    let answered = 0;
    page.on('response', (r) => {
      if (r.url().endsWith('/api/v1/uploads/batch') && r.status() === 200) answered++;
    });
    await page.getByLabel('Choose files').setInputFiles(path.join(hearth.files, name));
    // Stored on the server (answered), not merely sent: a reload would cut off a chunk still on its way.
    await expect.poll(() => answered).toBe(3);
    expect(stored).toBe(3);
    await expect(uploadRow(page, name).getByText(/^Uploading \d+%$/)).toBeVisible();
    // The connection stays "down" until the page is gone: the uploader tries a lost chunk again after a second,
    // and on a slow machine that retry could otherwise slip through before the reload.
    await page.reload();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  await test.step('after the reload the upload waits, paused, for its file', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Upload' })).toBeVisible();
    const row = uploadRow(page, name);
    await expect(row.getByText('Paused: add the file again to resume.')).toBeVisible();
    await expect(page.getByText('One upload was interrupted before it finished.', { exact: false })).toBeVisible();
    const stored = await page.evaluate(() => {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i)!;
        if (k.startsWith('hearth.uploads.v1.')) return JSON.parse(localStorage.getItem(k)!) as { sessionId: string; totalChunks: number }[];
      }
      return [];
    });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.totalChunks).toBe(total);
    await expect(row.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow', '0');
    await snap(page, 'desktop-upload-paused');
  });

  await test.step('adding the same file again sends only the chunks the server is missing', async () => {
    const batches: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/v1/uploads/batch')) batches.push(r.url());
    });
    const resumed = page.waitForResponse((r) => r.url().endsWith('/api/v1/uploads/sessions') && r.request().method() === 'POST');
    await page.getByLabel('Choose files').setInputFiles(path.join(hearth.files, name));
    const answer = (await (await resumed).json()) as { received_chunks: number[] };
    expect(answer.received_chunks).toHaveLength(3);
    const row = uploadRow(page, name);
    await expect(row.getByText('Done', { exact: true })).toBeVisible({ timeout: 60_000 });
    expect(batches).toHaveLength(total - 3);
    await expect(page.getByRole('list', { name: 'Upload queue' }).getByRole('listitem')).toHaveCount(1);
    const left = await page.evaluate(() => localStorage.length);
    expect(left, 'a finished upload is forgotten').toBe(0);
    await go(page, 'Photos');
    await expect(page.getByRole('list', { name: 'Photos and videos' }).getByRole('listitem')).toHaveCount(7);
  });
});

test('administration: the primary repository is listed and "Scan now" completes; jobs are shown', async ({ page, hearth }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);

  await test.step('Repositories lists the primary repository with its path', async () => {
    await go(page, 'Repositories');
    const repos = page.getByRole('list', { name: 'Repositories' });
    const primary = repos.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Primary/ }) });
    await expect(primary).toHaveCount(1);
    await expect(primary.locator('.badge', { hasText: 'Primary' })).toBeVisible();
    await expect(primary.getByText('Reachable')).toBeVisible();
    await expect(primary.locator('.repo__path')).toHaveText(/hearth-e2e-library-/);
  });

  await test.step('"Scan now" runs a scan to completion and shows its counts', async () => {
    const primary = page.getByRole('list', { name: 'Repositories' }).getByRole('listitem').first();
    const scanned = page.waitForResponse((r) => /\/api\/v1\/repositories\/[^/]+\/scans$/.test(r.url()) && r.request().method() === 'POST');
    await primary.getByRole('button', { name: 'Scan Primary now' }).click();
    expect([200, 202]).toContain((await scanned).status());
    const latest = primary.getByRole('region', { name: 'Latest scan of Primary' });
    await expect(latest.getByTestId('scan-status')).toHaveText('Completed', { timeout: 60_000 });
    await expect(latest.getByText(/^requested ·/)).toBeVisible();
    // Seven uploaded files are in the repository; the scan finds them all already indexed.
    await expect(latest.locator('.scan__counts div').filter({ hasText: 'Files seen' }).locator('dd')).toHaveText('7');
    await expect(latest.locator('.scan__counts div').filter({ hasText: 'Failed' }).locator('dd')).toHaveText('0');
    await expect(primary.getByRole('button', { name: 'Scan Primary now' })).toBeEnabled();
    await snap(page, 'desktop-repositories');
  });

  await test.step('Jobs shows the queues, and the failed processing of the broken file with "Reprocess"', async () => {
    await go(page, 'Jobs');
    const queues = page.getByRole('list', { name: 'Queues' });
    await expect(queues.getByRole('listitem', { name: 'Queue media' })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Gave up' })).toBeChecked();
    const gaveUp = page.getByRole('list', { name: 'Jobs that gave up' });
    const job = gaveUp.getByRole('listitem').filter({ hasText: 'assets.process-asset' });
    await expect(job).toHaveCount(1);
    await expect(job.locator('.job__error')).not.toBeEmpty();
    // The administrator uploaded it: their own photo is named by its file name, not by its id.
    await expect(job).toContainText(path.basename(CORRUPT));
    await expect(job).not.toContainText(/ · asset [0-9a-f-]{8,}/);
    await snap(page, 'desktop-jobs');
    await job.getByRole('button', { name: 'Reprocess' }).click();
    await expect(job.getByRole('button', { name: 'Queued' })).toBeDisabled();
    await page.getByRole('radio', { name: 'Will retry' }).check();
    await expect(page.getByText('None. Everything is fine.')).toBeVisible();
  });

  await test.step('indexing paused on the home machine: the media queue says why its jobs wait; resumed, it says nothing', async () => {
    const media = page.getByRole('list', { name: 'Queues' }).getByRole('listitem', { name: 'Queue media' });
    await expect(media.getByRole('status')).toHaveCount(0);
    host(hearth.dataDir, 'pause');
    // The page refreshes by itself (every few seconds): no reload.
    await expect(media.getByRole('status')).toHaveText('Paused on the home machine: waiting jobs start when indexing is resumed.', { timeout: 15_000 });
    host(hearth.dataDir, 'resume');
    await expect(media.getByRole('status')).toHaveCount(0, { timeout: 15_000 });
  });

  await test.step('the administration pages fit a phone', async () => {
    await page.setViewportSize(PHONE);
    await page.getByRole('radio', { name: 'Gave up' }).check();
    await expect(page.getByRole('list', { name: 'Jobs that gave up' }).getByRole('listitem').first()).toContainText(path.basename(CORRUPT));
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-jobs');
    await go(page, 'Repositories');
    await expect(page.getByRole('list', { name: 'Repositories' }).getByRole('listitem')).toHaveCount(1);
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-repositories');
  });
});

test('a session answer lost on the way back: the retry resumes that session, not a second one', async ({ page, hearth }) => {
  test.setTimeout(90_000);
  const name = path.basename(ANSWER_LOST);
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page);
  // The first session request reaches the server (which makes the session), but its answer never reaches the page.
  const asked: string[] = [];
  await page.route('**/api/v1/uploads/sessions', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    asked.push((route.request().postDataJSON() as { session_id: string }).session_id);
    if (asked.length > 1) return route.continue();
    const answer = await route.fetch();
    expect(answer.status(), 'the server made the session').toBe(201);
    return route.abort('connectionreset');
  });
  await go(page, 'Upload');
  await page.getByLabel('Choose files').setInputFiles(path.join(hearth.files, name));
  const row = uploadRow(page, name);
  await row.getByRole('button', { name: `Retry ${name}` }).click();
  await expect(row.getByText('Done', { exact: true })).toBeVisible({ timeout: 60_000 });
  expect(asked).toHaveLength(2);
  expect(asked[1], 'the retry names the session the server already made').toBe(asked[0]);
});
