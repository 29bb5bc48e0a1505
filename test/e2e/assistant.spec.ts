/**
 * The assistant's panel (issue 30 point 6), on a server of its own seeded from the e2eBrowse template (its
 * administrator, four photos and a video taken on 2017-02-22), with the assistant turned on through the API
 * and no language model (the deterministic planner answers):
 * - on a desktop: the header's Assistant button opens a side panel beside the page; "show videos from 2017"
 *   streams its tool steps and a card, the card opens its photo in a grid and the viewer; Pin makes a pin (read
 *   back through the API) and the Board shows it; "make an album called … of them" (the videos just shown) asks first and,
 *   after a reload, the reopened panel shows the conversation read from the server with the confirmation still
 *   waiting: Approve makes the album and it is in Albums; "like videos from 2017" Declined changes nothing (the API says the video is not liked); `#`
 *   offers the new album and the chosen mention is resolved; a mention typed by hand that names nobody is
 *   shown as dropped; "Ask about this" in the viewer's toolbar asks about that photo; the panel passes axe's scan;
 *   the Conversations view lists the conversation, Forget (asked first) removes it and its pin stays on the Board;
 * - on a 390×844 touch phone: the panel is a full-screen sheet with a close button; the same question, card,
 *   photos, pin (on the Board), "an album of them" waiting through a reload then approved, and "tag them" declined by taps;
 *   the Conversations view inside the sheet, Forget by taps; "Ask about this" from the viewer's More menu.
 * Not here: Stop during a run. The built-in planner answers in milliseconds, so no run lasts long enough to
 * stop from a browser without a timing bet; Stop is shown with a model that goes silent (assistant-board.spec.ts,
 * the settings test) and by the server tests (test/server/agent/).
 * Why 2017 and not the 2019: the seeded library's one video was taken in 2017.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { call, signIn as signInAs } from './household.ts';
import { withOwnServer } from './own-server.ts';
import { RECIPES } from '../template/recipes.ts';

// The root tsconfig has no DOM library; the page global used inside page.evaluate.
declare const document: { documentElement: { scrollWidth: number } };

const ADMIN = RECIPES.e2eBrowse.admin;
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

const test = withOwnServer('assistant', [], { template: RECIPES.e2eBrowse });
test.describe.configure({ mode: 'serial' });

let token = '';
let videoId = '';

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  token = (await call(req, 'post', '/api/v1/auth/login', null, { data: { username: ADMIN.username, password: ADMIN.password } })).token as string;
  // Off until an administrator turns it on (the whole agent group answers 404 until then).
  const on = await req.patch('/api/v1/settings/system', { data: { llm: { agent_enabled: true } }, headers: { Authorization: `Bearer ${token}` } });
  expect(on.ok(), await on.text()).toBeTruthy();
  videoId = hearth.template!.assets.with_gps!;
  await req.dispose();
});

const panel = (page: Page) => page.getByRole('complementary', { name: 'Assistant' });

async function openPanel(page: Page, tap: boolean): Promise<Locator> {
  const button = page.getByRole('button', { name: 'Assistant', exact: true });
  await (tap ? button.tap() : button.click());
  await expect(panel(page)).toBeVisible();
  return panel(page);
}

/** Asks in words, by Enter on a desktop and by the Send button on a phone. */
async function ask(p: Locator, words: string, tap: boolean): Promise<void> {
  const field = p.getByRole('textbox', { name: 'Ask the assistant' });
  await field.fill(words);
  if (tap) await p.getByRole('button', { name: 'Send' }).tap();
  else await field.press('Enter');
}

/** The last turn of the conversation (resolved anew at each use: an answer to a confirmation is a turn of its own). */
const lastTurn = (p: Locator) => p.locator('.assistant-turn').last();

/** A pin's card on the Board (features/assistant-board). */
const boardPin = (page: Page, title: string) => page.getByRole('list', { name: 'Pins' }).getByRole('listitem', { name: title, exact: true });

/** The Conversations view's line of a conversation (its open button; its Forget button is beside it). */
const conversation = (p: Locator, title: string) => p.getByRole('list', { name: 'Conversations' }).getByRole('listitem').filter({ hasText: title });

/** Forgets a conversation from the Conversations view: asked first, then gone from the list. */
async function forget(page: Page, p: Locator, title: string, tap: boolean): Promise<void> {
  const line = conversation(p, title);
  const button = line.getByRole('button', { name: `Forget ${title}` });
  await (tap ? button.tap() : button.click());
  const question = page.getByRole('alertdialog', { name: 'Forget this conversation?' });
  await expect(question).toContainText('stays on the Board');
  const yes = question.getByRole('button', { name: 'Forget', exact: true });
  await (tap ? yes.tap() : yes.click());
  await expect(question).toBeHidden();
  await expect(line).toHaveCount(0);
}

async function pinsViaApi(request: APIRequestContext): Promise<{ title: string; count: number }[]> {
  return (await call(request, 'get', '/api/v1/agent/pins', token)) as unknown as { title: string; count: number }[];
}

async function likedViaApi(request: APIRequestContext): Promise<boolean> {
  return (await call(request, 'get', `/api/v1/assets/${videoId}`, token)).liked as boolean;
}

/** Shows a card's photos, opens the one photo in the viewer, and goes back to the panel. */
async function openCardPhotos(page: Page, p: Locator, tap: boolean): Promise<void> {
  const open = p.getByRole('button', { name: 'Open Videos from 2017 (1 item)' }).last();
  await (tap ? open.tap() : open.click());
  const photos = page.getByRole('dialog', { name: 'Videos from 2017' });
  await expect(photos.getByText('1 item', { exact: true })).toBeVisible();
  const tile = photos.getByRole('list', { name: 'Photos of Videos from 2017' }).getByRole('button', { name: 'with-gps.mp4' });
  await (tap ? tile.tap() : tile.click());
  const viewer = page.getByRole('dialog', { name: 'with-gps.mp4' });
  await expect(viewer).toBeVisible();
  await viewer.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(viewer).toBeHidden();
  await photos.getByRole('button', { name: 'Close photos' }).click();
  await expect(photos).toBeHidden();
}

test('desktop: a side panel; a card that opens its photos and pins to the Board; an album approved after a reload, a like declined; mentions; Ask about this; Conversations and Forget', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await signInAs(page, ADMIN);
  const p = await openPanel(page, false);
  // Beside the page, which stays usable: the panel is at the right, the page's heading still on screen to its left.
  const box = (await p.boundingBox())!;
  expect(box.x).toBeGreaterThan(600);
  const heading = (await page.getByRole('heading', { level: 1, name: 'Photos', exact: true }).boundingBox())!;
  expect(heading.x + heading.width).toBeLessThanOrEqual(box.x);

  await ask(p, 'show videos from 2017', false);
  const turn = lastTurn(p);
  await expect(turn.getByText('I found 1 item.')).toBeVisible();
  // The tool steps, collapsed to one line; opened, each with its outcome and duration.
  const steps = turn.locator('details.assistant-steps');
  await expect(steps.locator('summary')).toHaveText('2 steps');
  await expect(steps.getByText('filter assets')).toBeHidden();
  await steps.locator('summary').click();
  await expect(steps.getByRole('listitem').filter({ hasText: 'filter assets' })).toContainText(/done in \d/);
  await expect(steps.getByRole('listitem').filter({ hasText: /^show/ })).toContainText('done');

  await openCardPhotos(page, p, false);

  await turn.getByRole('button', { name: 'Pin Videos from 2017' }).click();
  await expect(turn.getByRole('button', { name: 'Pinned Videos from 2017' })).toBeDisabled();
  expect(await pinsViaApi(request)).toEqual([expect.objectContaining({ title: 'Videos from 2017', count: 1 })]);
  // The Board shows the pin, the panel open beside it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Board', exact: true }).click();
  await expect(boardPin(page, 'Videos from 2017')).toBeVisible();
  await expect(p).toBeVisible();

  // An album: asked first, what would change shown.
  await ask(p, 'make an album called Trip clips of them', false);
  const confirm = p.getByRole('region', { name: 'Confirm: Make the album “Trip clips” of 1 item' });
  await expect(confirm.getByText('Trip clips', { exact: true })).toBeVisible();
  // Left waiting through a reload: the reopened panel reads the conversation from the server, the card (its ref
  // still lives) and the confirmation with it; Approve makes the album.
  await page.reload();
  await openPanel(page, false);
  await expect(p.getByRole('log', { name: 'Conversation' }).getByText('show videos from 2017', { exact: true })).toBeVisible();
  await expect(p.getByText('I found 1 item.')).toBeVisible();
  await expect(p.getByRole('button', { name: 'Open Videos from 2017 (1 item)' })).toBeVisible();
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expect(confirm.getByText('Made the album "Trip clips" with 1 item.')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Albums', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Albums', exact: true })).toBeVisible();
  await expect(page.getByRole('main').getByText('Trip clips')).toBeVisible();

  // Another change, declined: nothing changes.
  await ask(p, 'like videos from 2017', false);
  const like = p.getByRole('region', { name: 'Confirm: Like 1 item' });
  await like.getByRole('button', { name: 'Decline' }).click();
  await expect(like.getByText('Declined: nothing was changed.')).toBeVisible();
  expect(await likedViaApi(request)).toBe(false);

  // `#` offers the member's albums; the chosen one goes by id and is what the question is about.
  const field = p.getByRole('textbox', { name: 'Ask the assistant' });
  await field.fill('how many ');
  await field.pressSequentially('#Tr');
  await p.getByRole('listbox', { name: 'Albums' }).getByRole('option', { name: '#Trip clips' }).click();
  await expect(field).toHaveValue('how many #Trip clips ');
  await field.press('Enter');
  await expect(lastTurn(p).getByText(/1 in all: 1 video on 2017-02-22/)).toBeVisible();
  await expect(p.getByText('About #Trip clips')).toBeVisible();

  // A mention typed by hand that names nobody: the server drops it, and the panel says so.
  await ask(p, 'how many @Nobodyhere', false);
  await expect(lastTurn(p).getByRole('note')).toHaveText(/@Nobodyhere \(not found\)/);

  // Ask about this, from the viewer's toolbar: the viewer closes, the panel asks about that photo.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Photos', exact: true }).click();
  await page.getByRole('list', { name: 'Photos and videos' }).getByRole('button', { name: /^big_ben\.jpg/ }).click();
  const viewer = page.getByRole('dialog', { name: 'big_ben.jpg' });
  await viewer.getByRole('button', { name: 'Ask about this' }).click();
  await expect(viewer).toBeHidden();
  await expect(p.getByText('About big_ben.jpg')).toBeVisible();
  await ask(p, 'describe this', false);
  await expect(lastTurn(p).getByText(/^1 in all: 1 photo/)).toBeVisible();
  await expect(lastTurn(p).getByRole('button', { name: 'Open 1 item (1 item)' })).toBeVisible();

  // The panel with its steps, cards, confirmations and notes passes the scan the a11y spec makes of each screen.
  await lastTurn(p).locator('details.assistant-steps summary').click();
  const scan = await new AxeBuilder({ page }).include('#assistant-panel').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(scan.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);

  // The Conversations view lists it, the latest first, and passes the scan too; Forget removes it, the pin stays.
  await p.getByRole('button', { name: 'Conversations' }).click();
  await expect(conversation(p, 'show videos from 2017').getByRole('button', { name: /^show videos from 2017/ })).toHaveAttribute('aria-current', 'true');
  const listScan = await new AxeBuilder({ page }).include('#assistant-panel').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(listScan.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
  await forget(page, p, 'show videos from 2017', false);
  await expect(p.getByText('No conversations yet.')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Board', exact: true }).click();
  await expect(boardPin(page, 'Videos from 2017')).toBeVisible();

  // New chat starts afresh.
  await p.getByRole('button', { name: 'New chat' }).click();
  await expect(p.getByText('Ask about your photos in words.')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('assistant-desktop.png') });
});

test('phone: a full-screen sheet; the same answers by touch, a confirmation through a reload; Conversations and Forget; Ask about this from More', async ({ browser, hearth }) => {
  const context = await browser.newContext({ ...PHONE, baseURL: hearth.url });
  const page = await context.newPage();
  await signInAs(page, ADMIN);
  const p = await openPanel(page, true);
  // The whole screen, and nothing wider than it.
  const box = (await p.boundingBox())!;
  expect(box.x).toBe(0);
  expect(box.width).toBe(390);
  expect(box.height).toBe(844);
  await expect(p.getByRole('button', { name: 'Close assistant' })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await ask(p, 'show videos from 2017', true);
  const turn = lastTurn(p);
  await expect(turn.getByText('I found 1 item.')).toBeVisible();
  await openCardPhotos(page, p, true);
  await turn.getByRole('button', { name: 'Pin Videos from 2017' }).tap();
  await expect(turn.getByRole('button', { name: 'Pinned Videos from 2017' })).toBeDisabled();
  expect((await pinsViaApi(page.request)).filter((x) => x.title === 'Videos from 2017')).toHaveLength(2);

  // A confirmation left waiting through a reload, approved by a tap in the reopened sheet.
  await ask(p, 'make an album of them called Phone clips', true);
  const confirm = p.getByRole('region', { name: 'Confirm: Make the album “Phone clips” of 1 item' });
  await expect(confirm).toBeVisible();
  await page.reload();
  await openPanel(page, true);
  await expect(p.getByText('I found 1 item.')).toBeVisible();
  // The reopened card knows it was pinned (from the Board's list), not Pin again.
  await expect(p.getByRole('button', { name: 'Pinned Videos from 2017' })).toBeDisabled();
  await confirm.getByRole('button', { name: 'Approve' }).tap();
  await expect(confirm.getByText('Made the album "Phone clips" with 1 item.')).toBeVisible();

  await ask(p, 'tag them as beach', true);
  const tag = p.getByRole('region', { name: 'Confirm: Tag 1 item with beach' });
  await expect(tag.getByText('beach', { exact: true })).toBeVisible();
  await tag.getByRole('button', { name: 'Decline' }).tap();
  await expect(tag.getByText('Declined: nothing was changed.')).toBeVisible();
  const tags = (await call(page.request, 'get', `/api/v1/assets/${videoId}?include_tags=true`, token)).tags as { name?: string }[] | undefined;
  expect((tags ?? []).map((t) => t.name ?? t)).not.toContain('beach');

  // The Conversations view inside the sheet: the conversation is there; Forget by taps.
  await p.getByRole('button', { name: 'Conversations' }).tap();
  await expect(conversation(p, 'show videos from 2017')).toBeVisible();
  // The header's four buttons fit the sheet's width, each whole.
  for (const name of ['Back to the chat', 'New chat', 'Close assistant']) await expect(p.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('assistant-phone-conversations.png') });
  await forget(page, p, 'show videos from 2017', true);

  // Closed, the page is back; both pins are still on the Board; the album is in Albums.
  await p.getByRole('button', { name: 'Close assistant' }).tap();
  await expect(p).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).tap();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Board', exact: true }).tap();
  await expect(boardPin(page, 'Videos from 2017')).toHaveCount(2);
  await page.getByRole('button', { name: 'Menu' }).tap();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Albums', exact: true }).tap();
  await expect(page.getByRole('main').getByText('Phone clips')).toBeVisible();

  // Ask about this, from the phone viewer's More menu.
  await page.getByRole('button', { name: 'Menu' }).tap();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Photos', exact: true }).tap();
  await page.getByRole('list', { name: 'Photos and videos' }).getByRole('button', { name: /^big_ben\.jpg/ }).tap();
  const viewer = page.getByRole('dialog', { name: 'big_ben.jpg' });
  await viewer.getByRole('button', { name: 'More actions' }).tap();
  await viewer.getByRole('button', { name: 'Ask about this' }).tap();
  await expect(viewer).toBeHidden();
  await expect(p.getByText('About big_ben.jpg')).toBeVisible();
  await ask(p, 'describe this', true);
  await expect(lastTurn(p).getByText(/^1 in all: 1 photo/)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('assistant-phone.png') });
  await context.close();
});
