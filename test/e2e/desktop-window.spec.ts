/**
 * The web UI inside the desktop app's window (electron/preload.ts exposes `window.hearthHost` there; Electron
 * cannot start on these machines, so the bridge is given to the page by an init script that records its calls,
 * exactly the surface the preload exposes). The window shows Hearth at 127.0.0.1, where browsers allow no
 * passkey: the sign-in page and Account → Passkeys offer "Open in your browser", which asks the app to open the
 * page in the person's own browser. In a plain browser the button is not there.
 */
import { expect, type BrowserContext } from '@playwright/test';
import { call } from './household.ts';
import { withOwnServer } from './own-server.ts';

const ADMIN = { username: 'hestia', password: 'keeper-of-the-hearth', display_name: 'Hestia' };
const test = withOwnServer('desktop-window', []);

test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  await call(req, 'post', '/api/v1/auth/register', null, { data: ADMIN });
  await req.dispose();
});

/** The preload's bridge, as the desktop window has it: each call is counted in `window.__openedInBrowser`. */
async function insideTheApp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = globalThis as unknown as { __openedInBrowser: number; hearthHost: { openInBrowser(): Promise<boolean> } };
    w.__openedInBrowser = 0;
    w.hearthHost = {
      openInBrowser: async () => {
        w.__openedInBrowser++;
        return true;
      },
    };
  });
}

test('inside the desktop window, a passkey is offered through the person’s own browser, on sign-in and in Account', async ({ browser, hearth }) => {
  const context = await browser.newContext({ baseURL: hearth.url, locale: 'en-US' });
  await insideTheApp(context);
  const page = await context.newPage();
  await page.goto('/sign-in');
  await expect(page.getByRole('note')).toContainText('numeric address');
  await page.getByRole('button', { name: 'Open in your browser' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your browser shows this page now' })).toBeVisible();
  expect(await page.evaluate(() => (globalThis as unknown as { __openedInBrowser: number }).__openedInBrowser)).toBe(1);

  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Photos' })).toBeVisible();
  await page.goto('/account');
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await passkeys.getByRole('button', { name: 'Open in your browser' }).click();
  await expect(passkeys.getByRole('status')).toContainText('Your browser shows this page now');
  // (the count starts again with each page load: goto('/account') loaded the page anew)
  expect(await page.evaluate(() => (globalThis as unknown as { __openedInBrowser: number }).__openedInBrowser)).toBe(1);
  await context.close();
});

test('in a plain browser there is no “Open in your browser”', async ({ browser, hearth }) => {
  const context = await browser.newContext({ baseURL: hearth.url, locale: 'en-US', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await expect(page.getByRole('note')).toContainText('numeric address');
  await expect(page.getByRole('button', { name: 'Open in your browser' })).toHaveCount(0);
  await context.close();
});
