/**
 * Passkeys through the real UI with Chromium's virtual authenticator (the DevTools protocol's WebAuthn
 * domain: a platform authenticator with user verification that answers at once), at `localhost`, the one
 * plain-HTTP address browsers allow passkeys at: add one on Account → Security, sign out, sign in with
 * it, remove it (confirmed with the passkey itself). The same server opened at its numeric address
 * (127.0.0.1, as a LAN address would be) says in words why passkeys are not offered there.
 */
import { expect, type Page } from '@playwright/test';
import { call } from './household.ts';
import { withOwnServer } from './own-server.ts';

const ADMIN = { username: 'vesta', password: 'keeper-of-the-flame', display_name: 'Vesta' };

const test = withOwnServer('passkeys', []);

const INVITE = 'hearth-passkey-invite';

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const admin = await call(req, 'post', '/api/v1/auth/register', null, { data: ADMIN });
  // New accounts need a second factor (staged registration), by invite code.
  const r = await req.patch('/api/v1/settings/system', {
    data: { registration: { mode: 'invite_code', invite_code: INVITE, require_second_factor: true } },
    headers: { Authorization: `Bearer ${admin.token as string}` },
  });
  expect(r.ok(), await r.text()).toBeTruthy();
  await req.dispose();
});

/** A platform authenticator in this page's browser, as a laptop's fingerprint reader would be. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

const photos = (page: Page) => page.getByRole('heading', { level: 1, name: 'Photos', exact: true });

test('at localhost: add a passkey, sign out, sign in with it, remove it', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  const localhost = hearth.url.replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL: localhost, viewport: { width: 1280, height: 860 }, locale: 'en-US' });
  const page = await context.newPage();
  const authenticator = await addVirtualAuthenticator(page);

  await page.goto('/');
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(photos(page)).toBeVisible();

  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('No passkeys yet.')).toBeVisible();
  await section.getByLabel('Name for the passkey').fill('Test laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByText('The passkey “Test laptop” is added.', { exact: false })).toBeVisible();
  const list = section.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByText('works at localhost', { exact: false })).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  // No name typed: the browser offers the passkey it holds for this address.
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(photos(page)).toBeVisible();

  await page.goto('/account');
  await expect(list.getByText(/last used/)).toBeVisible();
  await list.getByRole('button', { name: 'Remove the passkey Test laptop' }).click();
  await section.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(section.getByText('The passkey “Test laptop” is removed.', { exact: false })).toBeVisible();
  await expect(section.getByText('No passkeys yet.')).toBeVisible();
  // Still signed in here, on the session the removal answered with.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await context.close();
});

test('at a numeric address over HTTP: the sign-in page says why passkeys are not offered, and the password works', async ({ browser, hearth }) => {
  const context = await browser.newContext({ baseURL: hearth.url, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('note')).toContainText('Passkeys are not available here: this page is open at a numeric address');
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).tap();
  await expect(photos(page)).toBeVisible();
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Passkeys' }).getByRole('note')).toContainText('numeric address');
  await context.close();
});

test('at localhost, where new accounts need a second factor: an account is made with a passkey, and signs in with it', async ({ browser, hearth }) => {
  const localhost = hearth.url.replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL: localhost, viewport: { width: 1280, height: 860 }, locale: 'en-US' });
  const page = await context.newPage();
  const authenticator = await addVirtualAuthenticator(page);
  await page.goto('/create-account');
  await page.getByLabel('Invite code').fill(INVITE);
  await page.getByLabel('User name').fill('janus2');
  await page.getByLabel('Password', { exact: true }).fill('a-door-with-two-faces');
  await page.getByLabel('Confirm password').fill('a-door-with-two-faces');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your second factor' })).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(photos(page)).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('User name').fill('janus2');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(photos(page)).toBeVisible();
  await context.close();
});
