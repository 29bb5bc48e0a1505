/**
 * The first days of a fresh install, end to end against the real server: create the administrator,
 * stay signed in across a reload (the refresh cookie), sign out and in again, edit the profile, open
 * registration, and check the layout at desktop and phone width; then the session renewing itself,
 * and a household member joining, being reset, and choosing a new password.
 *
 * The tests run in order on one server and build on each other (the install is fresh only once).
 * Screenshots are kept as artifacts under test-results/e2e.
 */
import { expect, test, type Page, type Response } from '@playwright/test';

// The root tsconfig has no DOM library (it checks Node code); these are the only page globals used
// inside page.evaluate below.
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number; scrollTo(x: number, y: number): void };
declare const localStorage: { length: number };
declare const sessionStorage: { length: number };

const ADMIN = { username: 'ada', displayName: 'Ada Lovelace', password: 'analytical-engine-1843' };
const RENAMED = 'Ada King';
const MEMBER = { username: 'grace', displayName: 'Grace Hopper', password: 'cobol-compiler-1959', newPassword: 'nanosecond-wire-30cm' };
const PHONE = { width: 390, height: 844 };

test.describe.configure({ mode: 'serial' });

/** Set by the first test when it opens registration; the member test joins with it. */
let inviteCode = '';

async function snap(page: Page, name: string): Promise<void> {
  // From the top, so the sticky sidebar and top bar sit where a person sees them; transitions
  // finished, so a drawer is not caught half-open.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true, animations: 'disabled' });
}

async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const size = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(size.scrollWidth, 'page is wider than the viewport').toBeLessThanOrEqual(size.innerWidth);
}

function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

async function signIn(page: Page, password = ADMIN.password, username = ADMIN.username): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

function isRefresh(response: Response): boolean {
  return response.url().endsWith('/api/v1/auth/refresh') && response.request().method() === 'POST';
}

test('first run: create the administrator, stay signed in, sign out and in, edit the profile', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });

  await test.step('a fresh install opens on the first-run page', async () => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Hearth' })).toBeVisible();
    await expect(page.getByText('Create the administrator account first')).toBeVisible();
    // This browser is on the Hearth machine itself, so no setup code is asked for.
    await expect(page.getByLabel('Setup code')).toHaveCount(0);
    await snap(page, 'desktop-first-run');
  });

  await test.step('the form explains what is wrong before sending', async () => {
    await page.getByLabel('User name').fill('1x');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create administrator account' }).click();
    await expect(page.getByRole('alert')).toHaveText('Check the highlighted fields.');
    await expect(page.getByText('Use at least 3 characters.')).toBeVisible();
    await expect(page.getByText('Use at least 10 characters.')).toBeVisible();
    await expect(page.getByLabel('User name')).toBeFocused();
  });

  await test.step('creating the administrator signs in', async () => {
    await page.getByLabel('User name').fill(ADMIN.username);
    await page.getByLabel('Display name').fill(ADMIN.displayName);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('Confirm password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create administrator account' }).click();

    await expect(mainNav(page)).toBeVisible();
    await expect(mainNav(page).getByText(ADMIN.displayName)).toBeVisible();
    await expect(mainNav(page).getByText('Administrator')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Photos' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
    for (const section of ['Photos', 'Albums', 'Folders', 'Map', 'Favourites', 'Trash', 'Upload', 'Users & settings']) {
      await expect(mainNav(page).getByRole('link', { name: section })).toBeVisible();
    }
    await snap(page, 'desktop-photos');
  });

  await test.step('a reload keeps the session through the refresh cookie', async () => {
    const refreshed = page.waitForResponse(isRefresh);
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Photos' })).toBeVisible();
    await expect(mainNav(page).getByText(ADMIN.displayName)).toBeVisible();
    // The access token lives in memory only: nothing in web storage.
    const stored = await page.evaluate(() => localStorage.length + sessionStorage.length);
    expect(stored).toBe(0);
  });

  await test.step('empty library sections say so honestly', async () => {
    await mainNav(page).getByRole('link', { name: 'Albums' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Albums' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
    await expect(page).toHaveURL(/\/albums$/);
  });

  await test.step('the administrator opens registration with an invite code', async () => {
    await mainNav(page).getByRole('link', { name: 'Users & settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Users & settings' })).toBeVisible();
    const accounts = page.getByRole('list', { name: 'Accounts' });
    await expect(accounts.getByRole('listitem')).toHaveCount(1);
    await expect(accounts.getByRole('heading', { name: ADMIN.displayName })).toBeVisible();
    await expect(accounts.getByText('You', { exact: true })).toBeVisible();
    await expect(page.getByLabel(`Role for ${ADMIN.displayName}`)).toBeDisabled();

    await page.getByRole('radio', { name: /People with the invite code/ }).check();
    await page.getByRole('button', { name: 'Generate code' }).click();
    await expect(page.getByRole('textbox', { name: 'Invite code', exact: true })).toHaveValue(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    await page.getByRole('button', { name: 'Save registration settings' }).click();
    await expect(page.getByText('Registration with an invite code is open.')).toBeVisible();
    inviteCode = await page.getByRole('textbox', { name: 'Invite code to share' }).inputValue();
    expect(inviteCode).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    await snap(page, 'desktop-admin');
  });

  await test.step('signing out ends the session, also for a reload', async () => {
    await mainNav(page).getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(mainNav(page)).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
  });

  await test.step('a wrong password is reported, the right one signs in', async () => {
    await signIn(page, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Wrong user name or password.');
    await signIn(page);
    await expect(mainNav(page).getByText(ADMIN.displayName)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Photos' })).toBeVisible();
  });

  await test.step('the account page changes the display name', async () => {
    await mainNav(page).getByRole('link', { name: 'Account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(page.getByLabel('Display name')).toHaveValue(ADMIN.displayName);
    await page.getByLabel('Display name').fill(RENAMED);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Your profile is saved.')).toBeVisible();
    await expect(mainNav(page).getByText(RENAMED)).toBeVisible();
    await expect(page.getByLabel('Current password')).toBeVisible();
    await expect(page.getByLabel('Confirm new password')).toBeVisible();
    await snap(page, 'desktop-account');

    await page.reload();
    await expect(page.getByLabel('Display name')).toHaveValue(RENAMED);
    await expect(mainNav(page).getByText(RENAMED)).toBeVisible();
  });

  await test.step('at phone width the navigation folds into a menu and nothing overflows', async () => {
    await page.setViewportSize(PHONE);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Photos' })).toBeVisible();
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(mainNav(page)).toBeHidden();
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-photos');

    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(mainNav(page)).toBeVisible();
    await expect(mainNav(page).getByText(RENAMED)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-menu');

    await mainNav(page).getByRole('link', { name: 'Account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(mainNav(page)).toBeHidden();
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-account');

    await menu.click();
    await mainNav(page).getByRole('link', { name: 'Users & settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Users & settings' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Accounts' }).getByRole('heading', { name: RENAMED })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-admin');
  });

  await test.step('the signed-out pages fit a phone too', async () => {
    await page.getByRole('button', { name: 'Menu' }).click();
    await mainNav(page).getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-sign-in');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Create an account' })).toBeVisible();
    // Registration was opened above, so the form (not the "closed" notice) is shown.
    await expect(page.getByLabel('Invite code')).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await snap(page, 'phone-create-account');
  });
});

test('the session renews itself ahead of expiry and after a 401, without a reload', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  await signIn(page);
  await expect(mainNav(page).getByText(RENAMED)).toBeVisible();

  await test.step('about a minute before the 15-minute access token runs out', async () => {
    const renewed = page.waitForResponse(isRefresh);
    await page.clock.fastForward('14:10');
    expect((await renewed).status()).toBe(200);
    await expect(mainNav(page).getByText(RENAMED)).toBeVisible();
  });

  await test.step('when a call is answered 401, renew once and replay it', async () => {
    let answered = 0;
    await page.route(
      (url) => url.pathname === '/api/v1/users',
      async (route) => {
        answered += 1;
        if (answered > 1) return route.continue();
        await route.fulfill({
          status: 401,
          contentType: 'application/problem+json',
          body: JSON.stringify({ type: 'urn:hearth:problem:unauthorized', title: 'Unauthorized', status: 401, detail: 'Sign in first.', code: 'unauthorized' }),
        });
      },
    );
    const renewed = page.waitForResponse(isRefresh);
    await mainNav(page).getByRole('link', { name: 'Users & settings' }).click();
    expect((await renewed).status()).toBe(200);
    await expect(page.getByRole('list', { name: 'Accounts' }).getByRole('heading', { name: RENAMED })).toBeVisible();
    expect(answered).toBe(2);
    await expect(mainNav(page).getByText(RENAMED)).toBeVisible();
  });
});

test('a member joins with the invite code; after an access reset they choose a new password', async ({ page, browser }) => {
  await test.step('the invite code opens account creation', async () => {
    await page.goto('/create-account');
    await expect(page.getByRole('heading', { level: 1, name: 'Create an account' })).toBeVisible();
    await page.getByLabel('Invite code').fill('not-the-code');
    await page.getByLabel('User name').fill(MEMBER.username);
    await page.getByLabel('Display name').fill(MEMBER.displayName);
    await page.getByLabel('Password', { exact: true }).fill(MEMBER.password);
    await page.getByLabel('Confirm password').fill(MEMBER.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('That invite code is not right.').first()).toBeVisible();

    await page.getByLabel('Invite code').fill(inviteCode);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(mainNav(page).getByText(MEMBER.displayName)).toBeVisible();
    await expect(mainNav(page).getByText('Member')).toBeVisible();
    // Members get the library, not the administration.
    await expect(mainNav(page).getByRole('link', { name: 'Photos' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Users & settings' })).toHaveCount(0);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  });

  let temporaryPassword = '';
  await test.step('the administrator resets the member and sees the temporary password once', async () => {
    const adminContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const admin = await adminContext.newPage();
    await admin.goto('/sign-in');
    await signIn(admin);
    await mainNav(admin).getByRole('link', { name: 'Users & settings' }).click();
    const row = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: MEMBER.displayName }) });
    await expect(row.getByLabel(`Role for ${MEMBER.displayName}`)).toHaveValue('user');
    await row.getByRole('button', { name: `Reset access for ${MEMBER.displayName}` }).click();
    await row.getByRole('button', { name: 'Reset access', exact: true }).click();
    const secret = row.getByRole('textbox', { name: `Temporary password for ${MEMBER.displayName}` });
    await expect(secret).toBeVisible();
    temporaryPassword = await secret.inputValue();
    expect(temporaryPassword).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    await snap(admin, 'desktop-admin-reset');
    await row.getByRole('button', { name: 'Done' }).click();
    await expect(secret).toHaveCount(0);
    await adminContext.close();
  });

  await test.step('the reset ended the member session; the temporary password leads to choosing a new one', async () => {
    await page.goto('/');
    await signIn(page, temporaryPassword, MEMBER.username);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    await expect(page.getByText(`Hello ${MEMBER.displayName}.`)).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill(MEMBER.newPassword);
    await page.getByLabel('Confirm new password').fill(MEMBER.newPassword);
    await page.getByRole('button', { name: 'Save password and sign in' }).click();
    await expect(mainNav(page).getByText(MEMBER.displayName)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Photos' })).toBeVisible();
  });
});
