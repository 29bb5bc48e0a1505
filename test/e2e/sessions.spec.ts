/**
 * Signed-in devices through the real UI, on a desktop and on a touch phone: each device is a browser
 * context of its own with its own user agent, so the list names them as the server read them ("Firefox on
 * Windows"). Signing a device out ends it at once: its next reload lands on the sign-in page while the
 * others stay in. Then "every other device", and the administrator signing a member out everywhere.
 */
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { addMember, call } from './household.ts';
import { withOwnServer } from './own-server.ts';

const ADMIN = { username: 'hestia', password: 'keeper-of-the-fire', display_name: 'Hestia' };
const DESKTOP_MEMBER = { username: 'ceres', password: 'harvest-every-year', display_name: 'Ceres' };
const PHONE_MEMBER = { username: 'flora', password: 'spring-in-bloom', display_name: 'Flora' };
const ADMINS_MEMBER = { username: 'pomona', password: 'orchards-and-apples', display_name: 'Pomona' };

const UA = {
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
};
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 860 } };

const test = withOwnServer('sessions', []);

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  const admin = await call(req, 'post', '/api/v1/auth/register', null, { data: ADMIN });
  for (const m of [DESKTOP_MEMBER, PHONE_MEMBER, ADMINS_MEMBER]) {
    // Registering signs this request context in; it is no device of the member's, so it leaves at once.
    const signedUp = await addMember(req, admin.token as string, m);
    const userId = (signedUp.user as { user_id: number }).user_id;
    const out = await req.delete(`/api/v1/users/${userId}/sessions`, { headers: { Authorization: `Bearer ${admin.token as string}` } });
    expect(out.ok(), await out.text()).toBeTruthy();
  }
  await req.dispose();
});

async function openDevice(browser: Browser, baseURL: string, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext({ ...options, baseURL, locale: 'en-US' });
  return context.newPage();
}

const photos = (page: Page) => page.getByRole('heading', { level: 1, name: 'Photos', exact: true });

/** A device signed in with the password, on the Photos page. */
async function signedInDevice(browser: Browser, baseURL: string, options: BrowserContextOptions, account: { username: string; password: string }) {
  const page = await openDevice(browser, baseURL, options);
  await page.goto('/');
  await page.getByLabel('User name').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(photos(page)).toBeVisible();
  return page;
}

/** The device's next page load finds its session over: the sign-in page. */
async function expectSignedOut(page: Page) {
  await page.reload();
  await expect(page.getByLabel('User name')).toBeVisible();
  await expect(photos(page)).toHaveCount(0);
}

async function expectStillIn(page: Page) {
  await page.reload();
  await expect(photos(page)).toBeVisible();
}

/** Nothing on the page is wider than the window (a phone scrolls only down). */
async function expectFits(page: Page) {
  const overflow = await page.evaluate(() => {
    const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return d.scrollWidth - d.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(0);
}

const devicesOf = (page: Page) => page.getByRole('region', { name: 'Signed-in devices' });

test('desktop: the other devices are listed by browser and system; sign out one, then every other', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  const page = await signedInDevice(browser, hearth.url, DESKTOP, DESKTOP_MEMBER);
  const laptop = await signedInDevice(browser, hearth.url, { ...DESKTOP, userAgent: UA.firefoxWindows }, DESKTOP_MEMBER);
  const phone = await signedInDevice(browser, hearth.url, { ...PHONE, userAgent: UA.safariIphone }, DESKTOP_MEMBER);

  await page.goto('/account');
  const devices = devicesOf(page);
  const items = devices.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem');
  await expect(items).toHaveCount(3);
  // This page is Playwright's Chromium on Linux.
  const here = items.filter({ hasText: 'This device' });
  await expect(here).toHaveCount(1);
  await expect(here).toContainText('Chrome on Linux');
  await expect(here).toContainText('in use now');
  await expect(here.getByRole('button')).toHaveCount(0);
  await expect(devices.getByRole('listitem', { name: 'Firefox on Windows' })).toContainText(/last used (just now|\d+ minutes? ago)/);
  await expect(devices.getByRole('listitem', { name: 'Safari on iOS' })).toBeVisible();

  await test.step('"Sign out" ends that device: its next reload is the sign-in page; the phone stays in', async () => {
    await devices.getByRole('button', { name: /^Sign out Firefox on Windows/ }).click();
    await expect(devices.getByText('Firefox on Windows is signed out.')).toBeVisible();
    await expect(items).toHaveCount(2);
    await expectSignedOut(laptop);
    await expectStillIn(phone);
  });

  await test.step('"Sign out every other device" asks first, then keeps only this one', async () => {
    await devices.getByRole('button', { name: 'Sign out every other device' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Sign out every other device?' });
    await expect(dialog).toContainText('This device stays signed in.');
    await dialog.getByRole('button', { name: 'Sign out other devices' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(devices.getByText('1 other device is signed out.')).toBeVisible();
    await expect(items).toHaveCount(1);
    await expect(devices.getByText('This is the only device signed in to your account.')).toBeVisible();
    await expectSignedOut(phone);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(items).toHaveCount(1);
  });
  for (const p of [page, laptop, phone]) await p.context().close();
});

test('phone 390×844 with touch: the list fits, "Sign out" and "every other" by tap', async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  const page = await signedInDevice(browser, hearth.url, { ...PHONE, userAgent: UA.samsung }, PHONE_MEMBER);
  const mac = await signedInDevice(browser, hearth.url, { ...DESKTOP, userAgent: UA.safariMac }, PHONE_MEMBER);
  const pc = await signedInDevice(browser, hearth.url, { ...DESKTOP, userAgent: UA.edgeWindows }, PHONE_MEMBER);

  await page.getByRole('navigation', { name: /tab/i }).getByRole('link', { name: 'Account' }).tap();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  const devices = devicesOf(page);
  await devices.scrollIntoViewIfNeeded();
  const items = devices.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(devices.getByRole('listitem', { name: 'Samsung Internet on Android (this device)' })).toContainText('This device');
  await expectFits(page);
  await page.screenshot({ path: test.info().outputPath('sessions-phone.png'), fullPage: true });

  await devices.getByRole('button', { name: /^Sign out Safari on macOS/ }).tap();
  await expect(devices.getByText('Safari on macOS is signed out.')).toBeVisible();
  await expect(items).toHaveCount(2);
  await expectSignedOut(mac);
  await expectStillIn(pc);

  await devices.getByRole('button', { name: 'Sign out every other device' }).tap();
  await page.getByRole('alertdialog', { name: 'Sign out every other device?' }).getByRole('button', { name: 'Sign out other devices' }).tap();
  await expect(devices.getByText('1 other device is signed out.')).toBeVisible();
  await expectSignedOut(pc);
  await expectFits(page);
  for (const p of [page, mac, pc]) await p.context().close();
});

test("the administrator signs a member out everywhere, after a confirmation", async ({ browser, hearth }) => {
  test.setTimeout(120_000);
  const memberDevices = [
    await signedInDevice(browser, hearth.url, { ...PHONE, userAgent: UA.safariIphone }, ADMINS_MEMBER),
    await signedInDevice(browser, hearth.url, { ...DESKTOP, userAgent: UA.firefoxWindows }, ADMINS_MEMBER),
  ];
  const admin = await signedInDevice(browser, hearth.url, DESKTOP, ADMIN);
  await admin.goto('/admin');
  const row = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: ADMINS_MEMBER.display_name }) });
  await expect(row.getByText(/2 active sessions/)).toBeVisible();
  // Not offered for oneself: the Account page signs out one's own other devices.
  const own = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: ADMIN.display_name }) });
  await expect(own.getByRole('button', { name: /out everywhere/ })).toHaveCount(0);

  await row.getByRole('button', { name: `Sign ${ADMINS_MEMBER.display_name} out everywhere` }).click();
  const confirm = row.getByRole('group', { name: `Confirm signing ${ADMINS_MEMBER.display_name} out everywhere` });
  await expect(confirm).toContainText('all 2 of their devices');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expectStillIn(memberDevices[0]!);

  await row.getByRole('button', { name: `Sign ${ADMINS_MEMBER.display_name} out everywhere` }).click();
  await confirm.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(row.getByText(`${ADMINS_MEMBER.display_name} is signed out of 2 devices.`)).toBeVisible();
  await expect(row.getByText(/0 active sessions/)).toBeVisible();
  await expect(row.getByRole('button', { name: /out everywhere/ })).toHaveCount(0);
  for (const p of memberDevices) await expectSignedOut(p);
  await admin.goto('/');
  await expect(photos(admin)).toBeVisible();
  for (const p of [admin, ...memberDevices]) await p.context().close();
});
