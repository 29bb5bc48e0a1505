/**
 * Two-step sign-in (TOTP) through the real UI, on a desktop and on a touch phone: turning it on from
 * Account → Security with the key the page shows (the test computes the codes, as an authenticator app
 * would), the recovery codes shown once and downloaded, signing in on another device with a code, and
 * with a recovery code, making new codes, and turning it off. Each device is a browser context of its
 * own, so "another device" is one.
 *
 * Codes: a code is accepted once, and from one step before to one after the server's clock. Turning
 * on uses the current step's code, the sign-in the next step's (accepted as drift): no wait for the
 * clock. Later proofs use recovery codes.
 */
import fs from 'node:fs';
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { addMember, call } from './household.ts';
import { withOwnServer } from './own-server.ts';

const ADMIN = { username: 'janus', password: 'two-faces-one-door', display_name: 'Janus' };
const MEMBER = { username: 'iris', password: 'rainbow-messenger', display_name: 'Iris' };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 } };

const test = withOwnServer('two-step', []);

/** The code an authenticator app shows `steps` 30-second steps from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const admin = await call(req, 'post', '/api/v1/auth/register', null, { data: ADMIN });
  await addMember(req, admin.token as string, MEMBER);
  await req.dispose();
});

async function openDevice(browser: Browser, baseURL: string, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext({ ...options, baseURL, locale: 'en-US' });
  return context.newPage();
}

/** Password first; returns the page on whichever step the server answers with. */
async function signInWithPassword(page: Page, account: { username: string; password: string }) {
  await page.goto('/');
  await page.getByLabel('User name').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const photos = (page: Page) => page.getByRole('heading', { level: 1, name: 'Photos', exact: true });

/** Nothing on the page is wider than the window (a phone scrolls only down). */
async function expectFits(page: Page) {
  const overflow = await page.evaluate(() => {
    const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return d.scrollWidth - d.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(0);
}

async function turnOn(page: Page, account: { password: string }, press: 'click' | 'tap') {
  const security = page.getByRole('region', { name: 'Two-step sign-in' });
  await expect(security.getByText('Two-step sign-in is off.')).toBeVisible();
  await security.getByRole('button', { name: 'Turn on two-step sign-in' })[press]();
  // Step-up: without a second factor yet, the password proves it is you.
  await security.getByLabel('Your password').fill('not-it');
  await security.getByRole('button', { name: 'Continue' })[press]();
  await expect(security.getByLabel('Your password')).toHaveAccessibleDescription('The password is not right.');
  await security.getByLabel('Your password').fill(account.password);
  await security.getByRole('button', { name: 'Continue' })[press]();
  await expect(security.getByRole('img', { name: /^QR code to add Hearth/ })).toBeVisible();
  const secret = (await security.getByLabel('Key').inputValue()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await security.getByLabel('Code from your authenticator app').fill('000000' === (await codeAt(secret)) ? '111111' : '000000');
  await security.getByRole('button', { name: 'Turn on', exact: true })[press]();
  await expect(security.getByLabel('Code from your authenticator app')).toHaveAccessibleDescription(/That code is not right/);
  await security.getByLabel('Code from your authenticator app').fill(await codeAt(secret));
  await security.getByRole('button', { name: 'Turn on', exact: true })[press]();
  await expect(security.getByText('Two-step sign-in is on. Your other devices have been signed out.')).toBeVisible();
  const codes = await security.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  return { security, secret, codes: codes.map((c) => c.trim()) };
}

test('desktop: turn on with the shown key, sign in elsewhere with a code and with a recovery code, new codes, turn off', async ({ page, browser, hearth }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 860 });
  await signInWithPassword(page, ADMIN);
  await expect(photos(page)).toBeVisible();
  await page.goto('/account');

  const { security, secret, codes } = await turnOn(page, ADMIN, 'click');
  await test.step('the codes download as a text file, then leave the page for good', async () => {
    const download = page.waitForEvent('download');
    await security.getByRole('button', { name: 'Download as a text file' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`hearth-recovery-codes-${ADMIN.username}.txt`);
    const text = fs.readFileSync(await file.path(), 'utf8');
    for (const code of codes) expect(text).toContain(code);
    await security.getByRole('button', { name: 'I have saved them' }).click();
    await expect(security.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0);
    await expect(security.getByText('10 recovery codes left', { exact: false })).toBeVisible();
    // This device stays signed in on its new session.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  });

  await test.step('another device: the password alone is not enough; a wrong code is refused; the next code signs in', async () => {
    const other = await openDevice(browser, hearth.url, DESKTOP);
    await signInWithPassword(other, ADMIN);
    await expect(other.getByRole('heading', { level: 1, name: 'Two-step sign-in' })).toBeVisible();
    const field = other.getByLabel('Code from your authenticator app');
    const next = await codeAt(secret, 1);
    await field.fill(next === '123456' ? '654321' : '123456');
    await other.getByRole('button', { name: 'Verify' }).click();
    await expect(field).toHaveAccessibleDescription(/That code is not right/);
    await field.fill(next);
    await other.getByRole('button', { name: 'Verify' }).click();
    await expect(photos(other)).toBeVisible();
    await other.context().close();
  });

  await test.step('a third device signs in with a recovery code; the same code does not work twice', async () => {
    const other = await openDevice(browser, hearth.url, DESKTOP);
    await signInWithPassword(other, ADMIN);
    await other.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await other.getByLabel('Recovery code').fill(codes[0]!);
    await other.getByRole('button', { name: 'Verify' }).click();
    await expect(photos(other)).toBeVisible();
    await other.context().close();

    const again = await openDevice(browser, hearth.url, DESKTOP);
    await signInWithPassword(again, ADMIN);
    await again.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await again.getByLabel('Recovery code').fill(codes[0]!);
    await again.getByRole('button', { name: 'Verify' }).click();
    await expect(again.getByLabel('Recovery code')).toHaveAccessibleDescription(/That code is not right/);
    await again.context().close();
  });

  let fresh: string[] = [];
  await test.step('new recovery codes, confirmed with a recovery code: the old ones stop working', async () => {
    await page.reload();
    await expect(security.getByText('9 recovery codes left', { exact: false })).toBeVisible();
    await security.getByRole('button', { name: 'New recovery codes' }).click();
    await security.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await security.getByLabel('Recovery code').fill(codes[1]!);
    await security.getByRole('button', { name: 'Make new recovery codes' }).click();
    await expect(security.getByText(/^New recovery codes are made/)).toBeVisible();
    fresh = (await security.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
    await security.getByRole('button', { name: 'I have saved them' }).click();
    await expect(security.getByText('10 recovery codes left', { exact: false })).toBeVisible();
  });

  await test.step('turn off, confirmed with a new recovery code (an old one is refused)', async () => {
    await security.getByRole('button', { name: 'Turn off' }).click();
    await security.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await security.getByLabel('Recovery code').fill(codes[2]!);
    await security.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
    await expect(security.getByLabel('Recovery code')).toHaveAccessibleDescription(/That code is not right/);
    await security.getByLabel('Recovery code').fill(fresh[0]!);
    await security.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
    await expect(security.getByText('Two-step sign-in is off. Your recovery codes no longer work.')).toBeVisible();
    // The password alone signs in again.
    const other = await openDevice(browser, hearth.url, DESKTOP);
    await signInWithPassword(other, ADMIN);
    await expect(photos(other)).toBeVisible();
    await other.context().close();
  });
});

test('phone 390×844 with touch: turn on, sign in on another phone with a code; the administrator sees it and resets it', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  const page = await openDevice(browser, hearth.url, PHONE);
  await signInWithPassword(page, MEMBER);
  await expect(photos(page)).toBeVisible();
  await page.getByRole('navigation', { name: /tab/i }).getByRole('link', { name: 'Account' }).tap();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();

  const { security, secret } = await turnOn(page, MEMBER, 'tap');
  await expectFits(page);
  await page.screenshot({ path: test.info().outputPath('two-step-phone-codes.png'), fullPage: true });
  await security.getByRole('button', { name: 'I have saved them' }).tap();
  await expect(security.getByText('10 recovery codes left', { exact: false })).toBeVisible();

  const other = await openDevice(browser, hearth.url, PHONE);
  await signInWithPassword(other, MEMBER);
  await expect(other.getByRole('heading', { level: 1, name: 'Two-step sign-in' })).toBeVisible();
  await expectFits(other);
  await other.getByLabel('Code from your authenticator app').fill(await codeAt(secret, 1));
  await other.getByRole('button', { name: 'Verify' }).tap();
  await expect(photos(other)).toBeVisible();
  await other.context().close();
  await page.context().close();

  await test.step('the administrator sees it on, and a reset of access turns it off: the temporary password alone signs in', async () => {
    const admin = await openDevice(browser, hearth.url, DESKTOP);
    await signInWithPassword(admin, ADMIN);
    await expect(photos(admin)).toBeVisible();
    await admin.goto('/admin');
    const row = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: MEMBER.display_name }) });
    await expect(row.getByText(/two-step sign-in on/)).toBeVisible();
    await row.getByRole('button', { name: `Reset access for ${MEMBER.display_name}` }).click();
    await expect(row.getByText(/Their two-step sign-in is turned off/)).toBeVisible();
    await row.getByRole('button', { name: 'Reset access', exact: true }).click();
    const temporary = await row.getByRole('textbox', { name: `Temporary password for ${MEMBER.display_name}` }).inputValue();
    await row.getByRole('button', { name: 'Done' }).click();
    await expect(row.getByText(/password only/)).toBeVisible();
    await admin.context().close();

    const phone = await openDevice(browser, hearth.url, PHONE);
    await signInWithPassword(phone, { username: MEMBER.username, password: temporary });
    await expect(phone.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    await phone.context().close();
  });
});

test('phone 390×844 with touch: where the household asks for a second factor, a new account is made with its authenticator app', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  const INVITE = 'staged-invite-2026';
  const NEWCOMER = { username: 'hebe', password: 'cupbearer-of-olympus' };
  const admin = await openDevice(browser, hearth.url, DESKTOP);
  await signInWithPassword(admin, ADMIN);
  await expect(photos(admin)).toBeVisible();
  await admin.goto('/admin');
  await admin.getByRole('radio', { name: /People with the invite code/ }).check();
  await admin.getByRole('textbox', { name: /invite code/i }).first().fill(INVITE);
  await admin.getByRole('checkbox', { name: /New accounts need a second factor/ }).check();
  await admin.getByRole('button', { name: 'Save registration settings' }).click();
  await expect(admin.getByText('New accounts need an authenticator app or a passkey.', { exact: false })).toBeVisible();
  await admin.context().close();

  const phone = await openDevice(browser, hearth.url, PHONE);
  await phone.goto('/create-account');
  await phone.getByLabel('Invite code').fill(INVITE);
  await phone.getByLabel('User name').fill(NEWCOMER.username);
  await phone.getByLabel('Password', { exact: true }).fill(NEWCOMER.password);
  await phone.getByLabel('Confirm password').fill(NEWCOMER.password);
  await phone.getByRole('button', { name: 'Create account' }).tap();
  await expect(phone.getByRole('heading', { level: 1, name: 'Set up your second factor' })).toBeVisible();
  // Passkeys cannot work at this numeric address: the page says so and offers the app.
  await expect(phone.getByText('Passkeys are not available here', { exact: false })).toBeVisible();
  await phone.getByRole('button', { name: 'Use an authenticator app' }).tap();
  await expect(phone.getByRole('img', { name: /^QR code to add Hearth \(hebe\)/ })).toBeVisible();
  const secret = (await phone.getByLabel('Key').inputValue()).replace(/\s/g, '');
  await phone.getByLabel('Code from your authenticator app').fill(await codeAt(secret));
  await phone.getByRole('button', { name: 'Create account' }).tap();
  await expect(phone.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await expectFits(phone);
  await phone.getByRole('button', { name: 'I have saved them' }).tap();
  await expect(photos(phone)).toBeVisible();
  await phone.context().close();

  // The new account has two-step sign-in from its first minute.
  const again = await openDevice(browser, hearth.url, PHONE);
  await signInWithPassword(again, NEWCOMER);
  await expect(again.getByRole('heading', { level: 1, name: 'Two-step sign-in' })).toBeVisible();
  await again.context().close();
});
