/**
 * iCloud Photos through the real UI (issue 28), against Apple's recorded answers (icloudpd's cassettes, see
 * ../shared/reference/icloud) replayed on loopback by test/server/helpers/icloud-replay.ts: the spec's server is
 * started with the replay's addresses (HEARTH_TEST_ICLOUD_ENDPOINTS, test only) and each step lays out what Apple
 * answers next. Each test is a member of their own, so each stands alone:
 * - on a desktop: Import → iCloud Photos → Apple Account and password → the verification-code step (a wrong code
 *   refused in plain words, the right one connects) → Start import → the counters reach Finished → Photos shows the
 *   photos and Albums the iCloud albums; a second run says nothing new;
 * - Apple's refusals the recordings hold, each a plain sentence beside the form: a wrong password, Apple down, web
 *   access off, Advanced Data Protection, an account whose codes go only where this sign-in cannot read them;
 * - a session near its end (about 90 days after the code) is announced on the account with the date, and "Sign in
 *   again" takes the password and the code;
 * - on a 390×844 touch phone, by taps: the sign-in with the code step, nothing wider than the screen.
 * axe-core (WCAG 2.0/2.1 A and AA) finds no serious or critical violation on the code step with its error.
 */
import path from 'node:path';
import { expect, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { CLIENT_ID, library, listingAnswers } from '../server/helpers/icloud-library.ts';
import { ICloudReplay, loadCassette, withBody, type Interaction } from '../server/helpers/icloud-replay.ts';
import { addMember, call } from './household.ts';
import { counter, device, expectAccessible, expectFingerSized, expectFinished, expectFits, openImport, runCard } from './import-page.ts';
import { withOwnServer } from './own-server.ts';

const ADMIN = { username: 'mnemosyne', password: 'memory-of-the-muses', display_name: 'Mnemosyne' };
const DESKTOP_MEMBER = { username: 'clio', password: 'history-keeps-all', display_name: 'Clio' };
const REFUSED_MEMBER = { username: 'melpomene', password: 'tragedy-in-three-acts', display_name: 'Melpomene' };
const EXPIRING_MEMBER = { username: 'polyhymnia', password: 'hymns-of-the-hearth', display_name: 'Polyhymnia' };
const PHONE_MEMBER = { username: 'thalia', password: 'comedy-on-the-go', display_name: 'Thalia' };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 } };
const PROVIDER = 'iCloud Photos';
/** The recordings' account and password (the code they accept is 654321; 901431 is refused). */
const APPLE = { username: 'JDoe@gmail.com', password: 'password1' };
const RIGHT_CODE = '654321';
const WRONG_CODE = '901431';

/** A wrong code, then the right one: the refusal's recording, then the rest of the accepted one (trust, accountLogin). */
const twoFactor = (): Interaction[] => [...loadCassette('2fa_flow_invalid_code'), ...loadCassette('2fa_flow_valid_code').slice(4)];
/** Apple's accountLogin answer (the recording of an account without two-factor) changed by `edit`. */
function accountLoginSaying(edit: (body: { dsInfo: Record<string, unknown>; iCDPEnabled?: boolean }) => void): Interaction[] {
  const cassette = loadCassette('auth_non_2fa');
  cassette[3] = withBody(cassette[3]!, edit);
  return cassette;
}

let replay: ICloudReplay;

const test = withOwnServer('icloud', [], {
  // The replay is started before the server, which is told its addresses; it lives in this worker, beside the tests.
  env: async () => {
    replay = await ICloudReplay.start([]);
    return { HEARTH_TEST_ICLOUD_ENDPOINTS: JSON.stringify({ ...replay.endpoints(), clientId: CLIENT_ID }) };
  },
  cleanup: () => void replay?.close(),
});

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const admin = await call(req, 'post', '/api/v1/auth/register', null, { data: ADMIN });
  for (const m of [DESKTOP_MEMBER, REFUSED_MEMBER, EXPIRING_MEMBER, PHONE_MEMBER]) await addMember(req, admin.token as string, m);
  await req.dispose();
});

const connectForm = (page: Page) => page.getByRole('form', { name: `Connect ${PROVIDER}` });
const codeForm = (scope: Page | Locator) => scope.getByRole('form', { name: 'Enter the verification code' });
const accounts = (page: Page) => page.getByRole('list', { name: 'Connected accounts' });

async function fillApple(form: Locator, password = APPLE.password) {
  await form.getByLabel('Apple Account (email)').fill(APPLE.username);
  await form.getByLabel('Password').fill(password);
}

test('desktop: Apple Account, the code (a wrong one first), import the library, see the photos; again: nothing new', async ({ browser, hearth }) => {
  test.setTimeout(180_000);
  const page = await device(browser, hearth.url, DESKTOP, DESKTOP_MEMBER);
  await openImport(page, 'click');
  const card = page.getByRole('listitem', { name: PROVIDER });
  await expect(card).toContainText('Your password is used once to sign in to Apple and is not stored.');

  await test.step('the Apple Account and password lead to the code step', async () => {
    replay.reset(twoFactor());
    await card.getByRole('button', { name: `Connect ${PROVIDER}` }).click();
    await fillApple(connectForm(page));
    await expect(connectForm(page).getByLabel('iCloud region')).toHaveValue('com');
    await expect(connectForm(page)).toContainText('Without one, the account is listed by the name it signs in with.');
    await connectForm(page).getByRole('button', { name: 'Test connection' }).click();
    const step = codeForm(page);
    await expect(step).toContainText('Apple sent a 6-digit code to your trusted Apple devices.');
    const code = step.getByLabel('Verification code');
    await expect(code).toBeFocused();
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(code).toHaveAttribute('inputmode', 'numeric');
  });

  await test.step('a wrong code is refused in plain words; the form stays', async () => {
    await codeForm(page).getByLabel('Verification code').fill(WRONG_CODE);
    await codeForm(page).getByRole('button', { name: 'Verify' }).click();
    await expect(codeForm(page).getByRole('alert')).toHaveText('The verification code is not right (or has expired): enter the latest code Apple sent.');
    await expectAccessible(page);
  });

  const lib = library();
  await test.step('the right code connects; the import setup opens on the account', async () => {
    await codeForm(page).getByLabel('Verification code').fill(RIGHT_CODE);
    await codeForm(page).getByRole('button', { name: 'Verify' }).click();
    await expect(codeForm(page)).toHaveCount(0);
    const account = accounts(page).getByRole('listitem');
    await expect(account).toHaveCount(1);
    await expect(account).toContainText(APPLE.username);
    await expect(account).toContainText('Connected');
    await expect(account).not.toContainText('Sign in again');
    await expect(page.getByRole('region', { name: `Import from ${APPLE.username}` })).toContainText('Imports the whole library');
    expect(replay.unmatched()).toEqual([]);
  });

  await test.step('Start import: the counters reach Finished', async () => {
    replay.reset(listingAnswers(lib), lib.media);
    await page.getByRole('button', { name: 'Start import' }).click();
    await expect(page).toHaveURL(/\/import\?run=[0-9a-f-]{36}$/);
    await expect(runCard(page)).toContainText(APPLE.username);
    const imported = lib.expected.length - 1;
    expect(await expectFinished(page)).toBe(`Done: ${imported} files imported. 1 skipped: see the report.`);
    await expect(counter(page, 'Found')).toHaveText(String(lib.expected.length));
    await expect(counter(page, 'Imported')).toHaveText(String(imported));
    await expect(counter(page, 'Failed')).toHaveText('0');
    expect(replay.unmatched()).toEqual([]);
  });

  await test.step('Photos shows them', async () => {
    await runCard(page).getByRole('link', { name: 'See them in Photos' }).click();
    const grid = page.getByRole('list', { name: 'Photos and videos' });
    // Four items: IMG_7408's JPEG standing for its DNG and playing its Live Photo video, the ProRAW DNG, the
    // non-ASCII JPEG and the hidden JPEG (tagged Archived). The Live Photo videos are no tiles of their own: each
    // plays on its still. IMG_7409's video and its non-ASCII twin's are the same bytes, one file: it joins whichever
    // of the two stills was in first, and the other stays a plain photo.
    const names = [/^IMG_7408\.JPG, live photo, with RAW$/, /^IMG_7409\.DNG,( live photo,)? with RAW$/, /^IMG_中文_7409\.JPG(, live photo)?$/, /^IMG_7407\.JPG$/];
    for (const name of names) await expect(grid.getByRole('button', { name })).toBeVisible({ timeout: 30_000 });
    await expect(grid.getByRole('button', { name: /^IMG_(7409\.DNG|中文_7409\.JPG), live photo/ })).toHaveCount(1);
    await expect(grid.getByRole('listitem')).toHaveCount(4);
  });

  await test.step('Albums shows the iCloud albums', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Albums', exact: true }).click();
    const albums = page.getByRole('list', { name: 'Albums' });
    for (const name of Object.keys(lib.albums)) await expect(albums.getByRole('link', { name })).toBeVisible();
    await expect(albums.getByRole('listitem')).toHaveCount(Object.keys(lib.albums).length);
  });

  await test.step('a second run: "Nothing new"', async () => {
    replay.reset(listingAnswers(lib), lib.media);
    await openImport(page, 'click');
    await accounts(page).getByRole('button', { name: /^Import from this account/ }).click();
    await page.getByRole('button', { name: 'Start import' }).click();
    expect(await expectFinished(page)).toBe(`Nothing new: ${lib.expected.length} files were imported before.`);
    await expect(counter(page, 'Imported')).toHaveText('0');
    expect(replay.received.filter((r) => r.played === 'media')).toEqual([]);
  });
  await page.context().close();
});

test('Apple’s refusals are plain sentences beside the form, and no account is made', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  const page = await device(browser, hearth.url, DESKTOP, REFUSED_MEMBER);
  await openImport(page, 'click');
  await page.getByRole('button', { name: `Connect ${PROVIDER}` }).click();
  const form = connectForm(page);

  const noCodeDelivery = loadCassette('2fa_flow_valid_code');
  const signInPage = noCodeDelivery[2]!;
  const html = signInPage.response.body.string!.replace('"hasTrustedDevices":true', '"hasTrustedDevices":false').replace(/"trustedPhoneNumbers":\[[^\]]*\]/, '"trustedPhoneNumbers":[]');
  noCodeDelivery[2] = { ...signInPage, response: { ...signInPage.response, body: { string: html } } };

  const cases: { name: string; answers: Interaction[]; password?: string; says: string | RegExp }[] = [
    { name: 'a wrong password', answers: loadCassette('failed_auth'), password: 'bad_password', says: 'The Apple Account or password is not right. Check both and try again.' },
    { name: 'Apple unavailable', answers: loadCassette('failed_auth_503'), says: "Apple's sign-in is busy or paused for maintenance right now. Try again in a few minutes." },
    {
      name: 'web access off',
      answers: accountLoginSaying((b) => void (b.dsInfo.isWebAccessAllowed = false)),
      says: /^Access to iCloud data on the web is turned off for this Apple Account\. On an iPhone or iPad open Settings → \[your name\] → iCloud, turn on "Access iCloud Data on the Web"/,
    },
    {
      name: 'Advanced Data Protection',
      answers: accountLoginSaying((b) => void (b.iCDPEnabled = true)),
      says: /^Advanced Data Protection is on for this Apple Account, so iCloud Photos cannot be read from the web\./,
    },
    { name: 'codes only for a device this sign-in cannot use', answers: noCodeDelivery, says: /^Apple can send this account's verification codes only to a device this sign-in cannot use .*Add a trusted phone number/ },
  ];
  for (const c of cases) {
    await test.step(c.name, async () => {
      replay.reset(c.answers);
      await fillApple(form, c.password);
      await form.getByRole('button', { name: 'Test connection' }).click();
      await expect(form.getByRole('alert')).toHaveText(c.says);
      await expect(form.getByRole('alert')).not.toContainText(/cloud_|HTTP \d/);
      await expect(accounts(page)).toHaveCount(0);
    });
  }
  await page.context().close();
});

test('a session near its end is announced with its date; "Sign in again" takes the password and the code', async ({ browser, hearth, playwright }) => {
  test.setTimeout(120_000);
  // Connected through the API (the desktop test does it through the page), then its session made to end in 10
  // days, as it would 80 days after the code: straight in the catalog, as the server's own clock cannot be moved.
  replay.reset(loadCassette('auth_non_2fa'));
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const token = (await call(req, 'post', '/api/v1/auth/login', null, { data: { username: EXPIRING_MEMBER.username, password: EXPIRING_MEMBER.password } })).token as string;
  const made = await call(req, 'post', '/api/v1/cloud/credentials', token, { data: { provider: 'icloud', inputs: { ...APPLE, domain: 'com' } } });
  await req.dispose();
  const id = (made.credential as { id: string }).id;
  const endAt = (when: number) => {
    const db = new Database(path.join(hearth.dataDir, 'catalog.sqlite3'));
    try {
      db.prepare('UPDATE cloud_credentials SET session_expires_at = ? WHERE credential_id = ?').run(when, id);
    } finally {
      db.close();
    }
  };
  // Dates as the page writes them ("Dec 10, 2026"), in this machine's time zone, which the browser shares.
  const dateOf = (when: number) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(when);
  const ends = Date.now() + 10 * 24 * 3600_000;
  endAt(ends);

  const page = await device(browser, hearth.url, DESKTOP, EXPIRING_MEMBER);
  await openImport(page, 'click');
  const account = accounts(page).getByRole('listitem');
  await expect(account).toContainText('Connected');
  await expect(account.getByRole('note')).toHaveText(`Sign in again before ${dateOf(ends)}: the sign-in to iCloud Photos ends then, and imports from it stop until you do.`);

  await test.step('a day after the end it says that it ended', async () => {
    const ended = Date.now() - 24 * 3600_000;
    endAt(ended);
    await page.reload();
    await expect(account.getByRole('note')).toHaveText(`The sign-in to iCloud Photos ended on ${dateOf(ended)}. Sign in again to import from it.`);
    endAt(ends);
    await page.reload();
    await expect(account.getByRole('note')).toContainText(`Sign in again before ${dateOf(ends)}`);
  });

  await test.step('Sign in again: the password, then the code; the announcement goes', async () => {
    replay.reset(loadCassette('2fa_flow_valid_code'));
    await account.getByRole('button', { name: `Sign in again to ${APPLE.username}` }).click();
    const again = account.getByRole('form', { name: `Sign in again to ${APPLE.username}` });
    await again.getByLabel('Password').fill(APPLE.password);
    await again.getByRole('button', { name: 'Sign in' }).click();
    await codeForm(account).getByLabel('Verification code').fill(RIGHT_CODE);
    await codeForm(account).getByRole('button', { name: 'Verify' }).click();
    await expect(account.getByRole('status')).toHaveText(`${APPLE.username} is connected again.`);
    await expect(account.getByRole('note')).toHaveCount(0);
    expect(replay.unmatched()).toEqual([]);
  });

  await test.step('Remove asks first, in words true of iCloud (no password is kept, no folders chosen)', async () => {
    await account.getByRole('button', { name: `Remove ${APPLE.username}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Remove ${APPLE.username}?` });
    await expect(dialog).toContainText('Hearth forgets this account: what it keeps to sign in, and what it imports from it.');
    await expect(dialog).toContainText('nothing is changed where they came from');
    await dialog.getByRole('button', { name: 'Remove account' }).click();
    await expect(accounts(page)).toHaveCount(0);
  });
  await page.context().close();
});

test('phone: the sign-in with the code step, by taps, nothing wider than the screen', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  replay.reset(twoFactor());
  const page = await device(browser, hearth.url, PHONE, PHONE_MEMBER);
  await openImport(page, 'tap');
  await expectFits(page);

  const connect = page.getByRole('button', { name: `Connect ${PROVIDER}` });
  await expectFingerSized(connect);
  await connect.tap();
  const form = connectForm(page);
  await expect(form.getByLabel('Apple Account (email)')).toHaveAttribute('type', 'email');
  await expect(form.getByLabel('Password')).toHaveAttribute('type', 'password');
  await fillApple(form);
  await expectFits(page);
  const send = form.getByRole('button', { name: 'Test connection' });
  await expectFingerSized(send);
  await send.tap();

  const step = codeForm(page);
  // The code step replaces the form, lower on the page than the account it adds above: the field is where the finger is.
  await expect(step.getByLabel('Verification code')).toBeFocused();
  await expect(step.getByLabel('Verification code')).toBeInViewport();
  await expectFits(page);
  await expectAccessible(page);
  await step.getByLabel('Verification code').fill(WRONG_CODE);
  const verify = step.getByRole('button', { name: 'Verify' });
  await expectFingerSized(verify);
  await verify.tap();
  await expect(step.getByRole('alert')).toContainText('The verification code is not right');
  await expectFits(page);
  await step.getByLabel('Verification code').fill(RIGHT_CODE);
  await verify.tap();
  await expect(step).toHaveCount(0);
  await expect(accounts(page).getByRole('listitem')).toContainText('Connected');
  const start = page.getByRole('button', { name: 'Start import' });
  await expect(start).toBeInViewport();
  await expectFingerSized(start);
  await expectFits(page);
  await page.context().close();
});
