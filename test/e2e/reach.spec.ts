/**
 * Reaching Hearth from other devices, on the admin page, at desktop size and on a 390×844 touch
 * phone: the local-only note, the switch (the listener moves while this window keeps working), the
 * addresses with their QR codes, an invite link opened in a fresh browser context to sign up, and an
 * account created directly whose first sign-in welcomes the member and asks for their own password;
 * that member's fresh page loads (signed out, then signed in) make no request that fails, and Upload
 * does not ask a touch phone to drop files. Screenshots kept.
 */
import os from 'node:os';
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { withOwnServer } from './own-server.ts';

const ADMIN = { username: 'hestia', password: 'keeper-of-the-hearth' };
const test = withOwnServer('reach', []);

const DEVICES: { name: string; options: BrowserContextOptions }[] = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 860 } } },
  { name: 'phone', options: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } },
];

function hasLanAddress(): boolean {
  return Object.values(os.networkInterfaces()).some((infos) => (infos ?? []).some((i) => !i.internal && !/^fe[89ab]/i.test(i.address)));
}

async function signInAsAdmin(page: Page, url: string) {
  // The first test of the worker makes the administrator; the next finds it made.
  await page.request.post(`${url}/api/v1/auth/register`, { data: { ...ADMIN, display_name: 'Hestia' } });
  await page.goto('/');
  await page.getByLabel('User name').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Users & settings' })).toBeVisible();
}

async function freshPage(browser: Browser, options: BrowserContextOptions, baseURL: string) {
  const context = await browser.newContext({ ...options, baseURL });
  return { context, page: await context.newPage() };
}

for (const device of DEVICES) {
  test.describe(device.name, () => {
    test.use(device.options);

    test(`admin page (${device.name}): network switch, addresses with QR codes, invite link, account made directly`, async ({ page, browser, hearth }) => {
      test.setTimeout(120_000);
      await signInAsAdmin(page, hearth.url);
      const shots = (name: string) => page.screenshot({ path: test.info().outputPath(`${device.name}-${name}.png`), fullPage: true });

      // Local only at first: the page says so; the addresses are listed with their codes.
      const network = page.getByRole('region', { name: 'Phones and other devices' });
      const toggle = network.getByRole('switch', { name: 'Let other devices on this network use Hearth' });
      await expect(toggle).not.toBeChecked();
      await expect(network.getByTestId('network-local-only')).toContainText('Only this computer can open Hearth now');
      const addresses = network.getByRole('list', { name: 'Addresses to open on other devices' }).getByRole('listitem');
      if (hasLanAddress()) {
        await expect(addresses.first()).toBeVisible();
        await expect(addresses.first().getByRole('img', { name: /^QR code for http:\/\// })).toBeVisible();
      }
      await shots('network-off');

      // On: the listener moves; this window keeps working through 127.0.0.1.
      if (device.options.hasTouch) await toggle.tap();
      else await toggle.click();
      await expect(toggle).toBeChecked();
      await expect(network.getByTestId('network-local-only')).toHaveCount(0);
      await expect(network.getByText('On a phone, open one of these addresses')).toBeVisible();
      const phoneUrl = hasLanAddress() ? await addresses.first().getByRole('link').textContent() : null;
      if (phoneUrl) {
        const health = await page.request.get(`${phoneUrl}/api/v1/health`);
        expect(health.status(), `${phoneUrl} answers once the switch is on`).toBe(200);
      }
      await shots('network-on');

      // An invite link, opened in a fresh context (the phone), signs a member up with the code filled in.
      const invites = page.getByRole('region', { name: 'Invite links' });
      await invites.getByLabel('Who is it for').fill(`Cousin on the ${device.name}`);
      await invites.getByRole('button', { name: 'Make invite link' }).click();
      const made = invites.getByTestId('made-invite');
      await expect(made).toBeVisible();
      await expect(made.getByRole('img', { name: /^QR code for http:\/\/.*\/join\?invite=/ }).first()).toBeVisible();
      const link = await made.getByLabel('Invite link', { exact: true }).first().inputValue();
      expect(link).toMatch(/\/join\?invite=[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      if (phoneUrl) expect(link.startsWith(phoneUrl), `${link} uses the network address`).toBe(true);
      await shots('invite');

      const member = `cousin-${device.name}`;
      const phone = await freshPage(browser, device.options, hearth.url);
      await phone.page.goto(link);
      await expect(phone.page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
      await expect(phone.page.getByLabel('Invite code')).toHaveValue(link.split('invite=')[1]!);
      await phone.page.getByLabel('User name').fill(member);
      await phone.page.getByLabel('Password', { exact: true }).fill('a cousin joins the hearth');
      await phone.page.getByLabel('Confirm password').fill('a cousin joins the hearth');
      await phone.page.getByRole('button', { name: 'Create account' }).click();
      await expect(phone.page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();
      await phone.page.screenshot({ path: test.info().outputPath(`${device.name}-joined.png`) });
      await phone.context.close();

      // The same link again: refused, said plainly.
      const again = await freshPage(browser, device.options, hearth.url);
      await again.page.goto(link);
      await again.page.getByLabel('User name').fill(`${member}-2`);
      await again.page.getByLabel('Password', { exact: true }).fill('a cousin joins the hearth');
      await again.page.getByLabel('Confirm password').fill('a cousin joins the hearth');
      await again.page.getByRole('button', { name: 'Create account' }).click();
      await expect(again.page.getByText('This invite link was already used.', { exact: false }).first()).toBeVisible();
      await again.context.close();

      await page.reload();
      await expect(page.getByRole('list', { name: 'Invite links' }).getByText(`@${member} joined`, { exact: false })).toBeVisible();

      // An account made directly: its first sign-in asks for a new password.
      const direct = `aunt-${device.name}`;
      const form = page.getByRole('form', { name: 'Create an account' });
      await form.getByLabel('User name').fill(direct);
      await form.getByLabel('Display name').fill('Aunt');
      await form.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByText(`Account @${direct} created.`, { exact: false })).toBeVisible();
      const firstPassword = await page.getByLabel('First password', { exact: true }).last().inputValue();
      expect(firstPassword).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
      await expect(page.getByRole('list', { name: 'Accounts' }).getByText(`@${direct}`, { exact: false })).toBeVisible();
      await shots('account-created');

      const aunt = await freshPage(browser, device.options, hearth.url);
      // No request of a fresh load is expected to fail: not signed out, not signed in (issue 24).
      const failed: string[] = [];
      aunt.page.on('response', (r) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
      });
      await aunt.page.goto('/');
      await expect(aunt.page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      await aunt.page.getByLabel('User name').fill(direct);
      await aunt.page.getByLabel('Password', { exact: true }).fill(firstPassword);
      await aunt.page.getByRole('button', { name: 'Sign in' }).click();
      await expect(aunt.page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
      // A first password, not a reset: the new member is welcomed.
      await expect(aunt.page.getByText('Welcome to Hearth, Aunt.', { exact: false })).toBeVisible();
      await expect(aunt.page.getByText('reset your access', { exact: false })).toHaveCount(0);
      await aunt.page.screenshot({ path: test.info().outputPath(`${device.name}-first-password.png`) });
      await aunt.page.getByLabel('New password', { exact: true }).fill('aunts own password 2026');
      await aunt.page.getByLabel('Confirm new password').fill('aunts own password 2026');
      await aunt.page.getByRole('button', { name: 'Save password and sign in' }).click();
      await expect(aunt.page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();
      await aunt.page.reload();
      await expect(aunt.page.getByRole('heading', { level: 1, name: 'Photos', exact: true })).toBeVisible();

      // Upload: a touch-only phone cannot drop files, so it is not asked to.
      await aunt.page.goto('/upload');
      const surface = aunt.page.getByRole('region', { name: 'Add files' });
      if (device.options.hasTouch) {
        await expect(surface).toContainText('Tap to choose them from this device');
        await expect(surface).not.toContainText('Drop');
      } else {
        await expect(surface).toContainText('Drop photos, videos or folders here');
      }
      await aunt.page.screenshot({ path: test.info().outputPath(`${device.name}-upload.png`) });
      expect(failed, 'requests answered with an error on fresh loads').toEqual([]);
      await aunt.context.close();

      // Off again: back to this machine only, and the window still works.
      await toggle.click();
      await expect(toggle).not.toBeChecked();
      await expect(network.getByTestId('network-local-only')).toBeVisible();
      if (phoneUrl) await expect(page.request.get(`${phoneUrl}/api/v1/health`)).rejects.toThrow();
    });
  });
}
