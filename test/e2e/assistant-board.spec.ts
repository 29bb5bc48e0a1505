/**
 * The assistant's Board of pins and the administrator's Assistant settings (issue 30, point 6), on a server of
 * its own seeded from the e2e-browse template (four photos and a video, three of them Canon's). The assistant is
 * turned on through the API; the pins are made through the API the way the chat panel makes them: a request to
 * the built-in planner (no model), and pinAgentRef on the ref its card shows.
 * Shown:
 * - on a 1280×800 desktop: Board in the navigation once the assistant is on; every pin a card with its title, its
 *   widget and "Live" or "Frozen" with what it means; a card opens its photos, and a photo opens in the viewer;
 *   dragging a pin's handle moves it on the grid and the place is saved (the API has it, a reload keeps it), and
 *   so do arrow keys on the handle; Options rename a pin, switch its card to Number, resize it, and delete another
 *   after a confirmation; the Board and the settings page pass axe (WCAG A and AA) at both sizes;
 * - on a 390×844 touch phone: the pins in one column in the layout's reading order, Move down by a tap swaps two
 *   (saved: a reload keeps the order), nothing wider than the screen;
 * - the settings page, with a loopback OpenAI-compatible fake started here: provider "another OpenAI-compatible
 *   server", its address and model, Test connection shows every check passing and that nothing leaves the house;
 *   a model the server does not have shows the problem in words; after Save the key field says "A key is saved"
 *   and the key is nowhere on the page, before or after a reload; the saved model then answers in the chat panel,
 *   streamed, and Stop ends its run; provider None says the planner still answers;
 *   turned off (last), the Board leaves the navigation and its address says the assistant is off.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { OpenAiFake } from '../server/helpers/openai-fake.ts';
import { RECIPES } from '../template/recipes.ts';
import { call, signIn as signInAs } from './household.ts';
import { withOwnServer } from './own-server.ts';

// The root tsconfig has no DOM library; these are the page globals used inside page.evaluate.
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

const ADMIN = RECIPES.e2eBrowse.admin;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const MODEL = 'hearth-test-model';
const KEY = 'sk-loopback-secret-4711';

const test = withOwnServer('assistant-board', [], { template: RECIPES.e2eBrowse });
test.describe.configure({ mode: 'serial' });
test.beforeEach(() => test.setTimeout(120_000));

let token = '';

/** Asks the planner in a new conversation and returns the ref its last card shows (read from the event stream). */
async function ask(req: APIRequestContext, query: string): Promise<{ thread_id: string; ref_id: string; count: number }> {
  const r = await req.post('/api/v1/agent/chat', { data: { query }, headers: { Authorization: `Bearer ${token}` } });
  expect(r.headers()['content-type']).toContain('text/event-stream');
  const events = (await r.text())
    .split(/\n\n/)
    .map((block) => ({ event: /^event: ?(.*)$/m.exec(block)?.[1], data: /^data: ?(.*)$/m.exec(block)?.[1] }))
    .filter((e) => e.event && e.data)
    .map((e) => ({ event: e.event!, data: JSON.parse(e.data!) }));
  const session = events.find((e) => e.event === 'session_info')!.data;
  const card = events.filter((e) => e.event === 'side_event' && e.data.type === 'widget_show').at(-1);
  expect(card, `a card for "${query}": ${JSON.stringify(events)}`).toBeTruthy();
  return { thread_id: session.thread_id, ref_id: card!.data.data.refId, count: card!.data.data.count };
}

async function pin(req: APIRequestContext, query: string, title: string, widget: string, mode: 'live' | 'frozen' = 'live'): Promise<string> {
  const { thread_id, ref_id } = await ask(req, query);
  return (await call(req, 'post', '/api/v1/agent/pins', token, { data: { thread_id, ref_id, title, widget, mode } })).pin_id as string;
}

type PinRow = { pin_id: string; title: string; widget: string; mode: string; layout: { x: number; y: number; w: number; h: number } };
async function pins(req: APIRequestContext): Promise<PinRow[]> {
  return (await call(req, 'get', '/api/v1/agent/pins', token)) as unknown as PinRow[];
}

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  token = (await call(req, 'post', '/api/v1/auth/login', null, { data: { username: ADMIN.username, password: ADMIN.password } })).token as string;
  const on = await req.patch('/api/v1/settings/system', { data: { llm: { agent_enabled: true } }, headers: { Authorization: `Bearer ${token}` } });
  expect(on.ok(), await on.text()).toBeTruthy();
  // Made in this order, each 4×4 below the one before (the server's default place): one column at the left.
  await pin(req, 'show videos', 'Videos', 'cover_card', 'frozen');
  await pin(req, 'show photos taken with a Canon', 'Canon photos', 'mosaic_card');
  await pin(req, 'show all photos', 'Everything', 'spark_card');
  expect((await pins(req)).map((p) => [p.title, p.layout.x, p.layout.y])).toEqual([
    ['Videos', 0, 0],
    ['Canon photos', 0, 4],
    ['Everything', 0, 8],
  ]);
  await req.dispose();
});

const signIn = (page: Page) => signInAs(page, ADMIN);
const card = (page: Page, title: string) => page.getByRole('list', { name: 'Pins' }).getByRole('listitem', { name: title, exact: true });

/** axe-core's WCAG 2.0/2.1 A and AA rules (contrast included): no serious or critical violation. */
async function expectAccessible(page: Page): Promise<void> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function openBoard(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.tap();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Board', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Board', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/board$/);
}

test.describe('the Board on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('shows every pin with its card and what live or frozen means; a card opens its photos and a photo the viewer', async ({ page }) => {
    await signIn(page);
    await openBoard(page);
    await expect(page.getByRole('list', { name: 'Pins' }).getByRole('listitem')).toHaveCount(3);
    const everything = card(page, 'Everything');
    await expect(everything.getByRole('img', { name: /^4 photos by (day|month|year)/ })).toBeVisible();
    await expect(everything).toContainText('Live');
    await expect(everything).toContainText('Re-runs its request each time you look');
    await expect(card(page, 'Videos')).toContainText('Frozen Keeps the photos it was pinned with.');
    // Mosaic: the Canon photos' thumbnails; cover: the video's.
    await expect(card(page, 'Canon photos').locator('.pin-widget--mosaic img')).toHaveCount(3);
    await expect(card(page, 'Videos').locator('.pin-widget--cover img')).toHaveCount(1);
    await page.screenshot({ path: test.info().outputPath('board-desktop.png'), fullPage: true });
    await expectAccessible(page);

    await card(page, 'Canon photos').getByRole('link', { name: 'Open the 3 photos of Canon photos' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Canon photos' })).toBeVisible();
    const grid = page.getByRole('list', { name: 'Photos of Canon photos' });
    await expect(grid.getByRole('listitem')).toHaveCount(3);
    await grid.getByRole('button', { name: /^Canon_40D\.jpg/ }).click();
    await expect(page.getByRole('dialog', { name: 'Canon_40D.jpg' })).toBeVisible();
    await expect(page).toHaveURL(/\/board\/[0-9a-f-]+\/photos\/[0-9a-f-]+$/);
    await page.getByRole('dialog', { name: 'Canon_40D.jpg' }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: '← Board' }).click();
    await expect(card(page, 'Everything')).toBeVisible();
  });

  test('a drag moves a pin on the grid; the place is saved and a reload keeps it', async ({ page, playwright, hearth }) => {
    await signIn(page);
    await openBoard(page);
    const everything = card(page, 'Everything');
    const before = (await everything.boundingBox())!;
    const videos = (await card(page, 'Videos').boundingBox())!;
    const board = (await page.getByRole('list', { name: 'Pins' }).boundingBox())!;
    // Hold the handle, carry it to the right two thirds of the way across and up to the first row, let go.
    const handle = everything.getByRole('button', { name: 'Move Everything' });
    const h = (await handle.boundingBox())!;
    const [fromX, fromY] = [h.x + h.width / 2, h.y + h.height / 2];
    await page.mouse.move(fromX, fromY);
    await page.mouse.down();
    await page.mouse.move(fromX + board.width * (8 / 12), fromY - (before.y - videos.y), { steps: 8 });
    await page.mouse.up();
    await expect(page.getByRole('status').filter({ hasText: 'Everything moved to row 1, column 9.' })).toBeAttached();

    const req = await playwright.request.newContext({ baseURL: hearth.url });
    await expect.poll(async () => (await pins(req)).find((p) => p.title === 'Everything')?.layout).toEqual({ x: 8, y: 0, w: 4, h: 4 });
    await req.dispose();

    await page.reload();
    await expect(card(page, 'Everything')).toBeVisible();
    const after = (await card(page, 'Everything').boundingBox())!;
    expect(Math.abs(after.y - videos.y), 'on the first row, beside Videos').toBeLessThan(2);
    expect(after.x).toBeGreaterThan(board.x + board.width / 2);
    // The page reads in the layout's order: Videos and Everything (row 1), then Canon photos.
    await expect(page.getByRole('list', { name: 'Pins' }).getByRole('heading', { level: 2 })).toHaveText(['Videos', 'Everything', 'Canon photos']);

    // Without a mouse: arrow keys on the handle move the pin a cell at a time, saved as well.
    await card(page, 'Everything').getByRole('button', { name: 'Move Everything' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('status').filter({ hasText: 'Everything moved to row 1, column 8.' })).toBeAttached();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('status').filter({ hasText: 'Everything moved to row 1, column 9.' })).toBeAttached();
    const again = await playwright.request.newContext({ baseURL: hearth.url });
    await expect.poll(async () => (await pins(again)).find((p) => p.title === 'Everything')?.layout).toEqual({ x: 8, y: 0, w: 4, h: 4 });
    await again.dispose();
  });

  test('Options rename a pin, switch its card, resize it, and delete another after a confirmation', async ({ page, playwright, hearth }) => {
    await signIn(page);
    await openBoard(page);
    await card(page, 'Canon photos').getByRole('button', { name: 'Options for Canon photos' }).click();
    let options = page.getByRole('dialog', { name: 'Options for Canon photos' });
    await options.getByLabel('Title').fill('Canon shots');
    await options.getByRole('button', { name: 'Rename' }).click();
    options = page.getByRole('dialog', { name: 'Options for Canon shots' });
    await expect(options).toBeVisible();
    await options.getByLabel('Card').selectOption({ label: 'Number' });
    await options.getByLabel('Size').selectOption({ label: 'Wide (6 × 4)' });
    await expect(page.getByRole('status').filter({ hasText: 'Canon shots is now 6 columns by 4 rows.' })).toBeAttached();
    await options.getByRole('button', { name: 'Done' }).click();
    await expect(options).toBeHidden();
    const canon = card(page, 'Canon shots');
    await expect(canon.getByRole('heading', { level: 2, name: 'Canon shots' })).toBeVisible();
    await expect(canon.locator('.pin-widget__number')).toHaveText('3');

    const req = await playwright.request.newContext({ baseURL: hearth.url });
    await expect.poll(async () => (await pins(req)).find((p) => p.title === 'Canon shots')).toMatchObject({ widget: 'number_card', layout: { w: 6, h: 4 } });

    const videos = card(page, 'Videos');
    await videos.getByRole('button', { name: 'Options for Videos' }).click();
    await page.getByRole('dialog', { name: 'Options for Videos' }).getByRole('button', { name: 'Delete pin' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the pin “Videos”?' });
    await expect(confirm).toContainText('Its photos stay in your library.');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(videos).toBeVisible();
    await videos.getByRole('button', { name: 'Options for Videos' }).click();
    await page.getByRole('dialog', { name: 'Options for Videos' }).getByRole('button', { name: 'Delete pin' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete pin' }).click();
    await expect(videos).toHaveCount(0);
    await expect.poll(async () => (await pins(req)).map((p) => p.title).sort()).toEqual(['Canon shots', 'Everything']);
    await req.dispose();
  });

  test('a long title is whole on two lines of a 4-column pin; with the assistant panel open the Board turns to one column', async ({ page, playwright, hearth }) => {
    const req = await playwright.request.newContext({ baseURL: hearth.url });
    const title = 'Our videos and photos of 2017';
    const id = await pin(req, 'show all photos', title, 'cover_card');
    try {
      await signIn(page);
      await openBoard(page);
      const heading = card(page, title).getByRole('heading', { level: 2, name: title });
      await expect(heading).toBeVisible();
      // Nothing of it is clipped (no ellipsis, no hidden line): a second line where one is too short.
      const fit = () => heading.evaluate((el) => ({ clipped: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1, lines: Math.round(el.clientHeight / parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).lineHeight)) }));
      await expect.poll(fit).toEqual({ clipped: false, lines: 2 });
      await expect(card(page, title).getByRole('button', { name: `Move ${title} down` })).toHaveCount(0);

      // The panel takes room from the Board: 12 columns would leave a pin too narrow for its title, so it reads as
      // one column, with Move up and Move down, every title whole.
      await page.getByRole('button', { name: 'Assistant', exact: true }).click();
      await expect(page.getByRole('complementary', { name: 'Assistant' })).toBeVisible();
      await expect(card(page, title).getByRole('button', { name: `Move ${title} up` })).toBeVisible();
      for (const h of await page.getByRole('list', { name: 'Pins' }).getByRole('heading', { level: 2 }).all()) {
        await expect.poll(() => h.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1)).toBe(true);
      }
      await page.screenshot({ path: test.info().outputPath('board-beside-panel.png') });
      await page.getByRole('button', { name: 'Close assistant' }).click();
      await expect(card(page, title).getByRole('button', { name: `Move ${title} up` })).toHaveCount(0);
    } finally {
      expect((await req.delete(`/api/v1/agent/pins/${id}`, { headers: { Authorization: `Bearer ${token}` } })).ok()).toBeTruthy();
      await req.dispose();
    }
  });
});

test.describe('the Board on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('one column in the reading order; Move down by a tap swaps two, and a reload keeps it', async ({ page, playwright, hearth }) => {
    await signIn(page);
    await openBoard(page);
    const titles = page.getByRole('list', { name: 'Pins' }).getByRole('heading', { level: 2 });
    // Everything sits on the first row since the desktop's drag, Canon shots below it.
    await expect(titles).toHaveText(['Everything', 'Canon shots']);
    const [a, b] = [(await card(page, 'Everything').boundingBox())!, (await card(page, 'Canon shots').boundingBox())!];
    expect(Math.abs(a.x - b.x), 'one column').toBeLessThan(2);
    expect(b.y).toBeGreaterThan(a.y + a.height - 1);
    // No drag handle on a phone: taps move the pins, and they are big enough for a finger.
    await expect(page.getByRole('button', { name: 'Move Everything', exact: true })).toHaveCount(0);
    const down = page.getByRole('button', { name: 'Move Everything down' });
    const box = (await down.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    await expect(page.getByRole('button', { name: 'Move Everything up' })).toBeDisabled();
    const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(size.scrollWidth, 'the page is wider than the screen').toBeLessThanOrEqual(size.innerWidth);
    await page.screenshot({ path: test.info().outputPath('board-phone.png'), fullPage: true });
    await expectAccessible(page);

    await down.tap();
    await expect(titles).toHaveText(['Canon shots', 'Everything']);
    const req = await playwright.request.newContext({ baseURL: hearth.url });
    await expect
      .poll(async () => {
        const rows = await pins(req);
        return [...rows].sort((p, q) => p.layout.y - q.layout.y || p.layout.x - q.layout.x).map((p) => p.title);
      })
      .toEqual(['Canon shots', 'Everything']);
    await req.dispose();
    await page.reload();
    await expect(titles).toHaveText(['Canon shots', 'Everything']);
    await expect(page.getByRole('button', { name: 'Move Canon shots up' })).toBeDisabled();
  });
});

test.describe('Assistant settings', () => {
  let fake: OpenAiFake;
  test.beforeAll(async () => {
    fake = await OpenAiFake.start({ models: ['llama3.2:latest', MODEL], apiKey: KEY });
  });
  test.afterAll(async () => {
    await fake.close();
  });

  for (const device of ['desktop', 'phone'] as const) {
    test.describe(`on a ${device}`, () => {
      if (device === 'phone') test.use({ viewport: PHONE, hasTouch: true, isMobile: true });
      else test.use({ viewport: DESKTOP });

      test('Test connection shows the checks, a wrong model the problem in words; a saved key is never shown; the saved model answers and Stop ends it', async ({ page }) => {
        await signIn(page);
        const menu = page.getByRole('button', { name: 'Menu' });
        if (await menu.isVisible()) await menu.tap();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Assistant', exact: true }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Assistant' })).toBeVisible();
        const form = page.getByRole('form', { name: 'Assistant settings' });
        await expect(form.getByRole('switch', { name: 'Turn the assistant on' })).toBeChecked();

        const provider = form.getByLabel('Model server');
        // A provider fills in its usual address (an address typed by hand would stay: cleared first on the phone,
        // where the desktop's test saved one).
        if (device === 'phone') await form.getByLabel('Address').fill('');
        await provider.selectOption('ollama');
        await expect(form.getByLabel('Address')).toHaveValue('http://127.0.0.1:11434/v1');
        await provider.selectOption('lmstudio');
        await expect(form.getByLabel('Address')).toHaveValue('http://127.0.0.1:1234/v1');

        await provider.selectOption('custom');
        await form.getByLabel('Address').fill(fake.url);
        await form.getByLabel('Model', { exact: true }).fill('no-such-model');
        const keyField = form.getByLabel('API key');
        if (device === 'desktop') await keyField.fill(KEY);
        else await expect(form.getByText('A key is saved.')).toBeVisible();

        // The wrong model first: the server answers, the model is missing, said in words with what to do.
        await form.getByRole('button', { name: 'Test connection' }).click();
        const result = page.getByRole('region', { name: 'Connection test' });
        await expect(result).toContainText('The assistant cannot use this model yet.');
        await expect(result).toContainText('The server answers: Passed.');
        await expect(result).toContainText('The model is there: Failed.');
        await expect(result).toContainText('The model can use tools: Not checked.');
        await expect(result.getByRole('alert')).toContainText('no-such-model');
        await expect(result.getByRole('alert')).toContainText(`Choose one it lists: llama3.2:latest, ${MODEL}.`);
        // The models the server listed are offered for the field.
        await expect(form.getByLabel('Model', { exact: true })).toHaveAccessibleDescription(new RegExp(`The server lists: llama3\\.2:latest, ${MODEL}\\.`));

        await form.getByLabel('Model', { exact: true }).fill(MODEL);
        fake.script({ toolCalls: [{ name: 'report_photo_count', arguments: { count: 3 } }] }, { text: 'Reported.' });
        await form.getByRole('button', { name: 'Test connection' }).click();
        await expect(result).toContainText('The assistant can use this model.');
        for (const check of ['Settings', 'The server answers', 'The model is there', 'The model can use tools']) await expect(result).toContainText(`${check}: Passed.`);
        await expect(form.locator('[data-locality="this_device"]')).toHaveText('This model runs on this computer: nothing leaves the house.');
        if (device === 'desktop') expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
        await page.screenshot({ path: test.info().outputPath(`settings-tested-${device}.png`), fullPage: true });
        await expectAccessible(page);

        await form.getByRole('button', { name: 'Save' }).click();
        await expect(form.getByText('Saved. The assistant is on for everyone in the household.')).toBeVisible();
        await expect(form.getByText('A key is saved.')).toBeVisible();
        await expect(form.getByRole('button', { name: 'Replace key' })).toBeVisible();
        await expect(page.getByLabel('API key')).toHaveCount(0);
        expect(await page.content()).not.toContain(KEY);
        await page.reload();
        await expect(form.getByText('A key is saved.')).toBeVisible();
        await expect(form.getByLabel('Model', { exact: true })).toHaveValue(MODEL);
        expect(await page.content()).not.toContain(KEY);
        // Replace shows an empty field, never the saved key.
        await form.getByRole('button', { name: 'Replace key' }).click();
        await expect(form.getByLabel('API key')).toHaveValue('');
        await form.getByRole('button', { name: 'Keep the saved key' }).click();

        if (device === 'desktop') {
          // The saved model answers in the chat panel: its words stream in as it sends them, and Stop ends a run
          // the model would keep going (it goes silent here after its first words).
          fake.script({ hangAfter: 'Looking through your photos' });
          await page.getByRole('button', { name: 'Assistant', exact: true }).click();
          const chatPanel = page.getByRole('complementary', { name: 'Assistant' });
          const field = chatPanel.getByRole('textbox', { name: 'Ask the assistant' });
          await field.fill('what do we have from the summer?');
          await field.press('Enter');
          await expect(chatPanel.getByText('Looking through your photos')).toBeVisible();
          await chatPanel.getByRole('button', { name: 'Stop', exact: true }).click();
          await expect(chatPanel.getByText('Stopped.')).toBeVisible();
          await expect(chatPanel.getByRole('textbox', { name: 'Ask the assistant' })).toBeEnabled();
          await page.getByRole('button', { name: 'Close assistant' }).click();
        }

        // None: no model, and the planner still answers.
        await provider.selectOption('none');
        await expect(form).toContainText('Without a model the assistant still answers the common requests');
        await expect(form.getByRole('button', { name: 'Test connection' })).toHaveCount(0);
        await page.screenshot({ path: test.info().outputPath(`settings-none-${device}.png`), fullPage: true });
        if (device === 'desktop') return;

        // Last: turned off, the Board leaves the navigation at once, and its address says the assistant is off.
        await form.getByRole('switch', { name: 'Turn the assistant on' }).uncheck();
        await form.getByRole('button', { name: 'Save' }).click();
        await expect(form.getByText('Saved. The assistant is off.')).toBeVisible();
        await page.getByRole('button', { name: 'Menu' }).tap();
        const nav = page.getByRole('navigation', { name: 'Main' });
        await expect(nav.getByRole('link', { name: 'Assistant', exact: true })).toBeVisible();
        await expect(nav.getByRole('link', { name: 'Board', exact: true })).toHaveCount(0);
        await page.goto('/board');
        await expect(page.getByRole('heading', { level: 2, name: 'The assistant is off' })).toBeVisible();
      });
    });
  }
});
