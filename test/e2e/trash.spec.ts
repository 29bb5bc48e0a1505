/**
 * Toasts with Undo and the Trash, end to end on a server of its own (variant B, real uploads and
 * processing): on a desktop, a photo moved to the Trash says so in a toast whose Undo brings it back;
 * one item is deleted permanently from the Trash's selection and the whole Trash is emptied, each
 * behind a confirmation, and their files leave the household's folder; on a 390×844 touch phone the
 * toast sits above the tab bar, inside the screen, and its Undo works with a tap.
 *
 * Screenshots are kept as artifacts under test-results.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { call, signIn as signInAs, uploadAndWait } from './household.ts';
import { withOwnServer } from './own-server.ts';

const ADMIN = { username: 'hestia', password: 'sweep-the-hearth-clean' };
const PHONE = { width: 390, height: 844 };
const FILES = ['exif/Canon_40D.jpg', 'exif/Nikon_D70.jpg', 'exif/Pentax_K10D.jpg', 'gps/DSCN0010.jpg'];
const NAMES = FILES.map((f) => path.basename(f));

const test = withOwnServer('trash', FILES);
test.describe.configure({ mode: 'serial' });
// A shared 2-core machine: uploads and page loads take a while.
test.beforeEach(() => test.setTimeout(180_000));

let token = '';
test.beforeAll(async ({ playwright, hearth }) => {
  const req = await playwright.request.newContext({ baseURL: hearth.url });
  token = (await call(req, 'post', '/api/v1/auth/register', null, { data: { ...ADMIN, display_name: 'Hestia' } })).token as string;
  await uploadAndWait(req, token, hearth.files, FILES);
  await req.dispose();
});

const grid = (page: Page, name = 'Photos and videos') => page.getByRole('list', { name });
const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const selectionBar = (page: Page) => page.getByRole('toolbar', { name: 'Selection' });

/** Where uploaded originals live: the data folder's files named `name`, outside the derivatives. */
function filesNamed(dataDir: string, name: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== 'derivatives') walk(p);
      else if (e.isFile() && e.name === name) out.push(p);
    }
  };
  walk(dataDir);
  return out;
}

async function goTo(page: Page, link: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: link, exact: true })).toBeVisible();
}

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('trash a photo, then Undo in the toast brings it back', async ({ page, hearth }) => {
    await signInAs(page, ADMIN);
    await expect(grid(page).getByRole('listitem')).toHaveCount(FILES.length);
    await grid(page).getByRole('checkbox', { name: `Select ${NAMES[0]}` }).check();
    await selectionBar(page).getByRole('button', { name: 'Move to trash' }).click();
    await expect(grid(page).getByRole('listitem')).toHaveCount(FILES.length - 1);

    const toast = toasts(page).getByRole('status');
    await expect(toast).toContainText('Moved 1 photo to the Trash.');
    await page.screenshot({ path: test.info().outputPath('desktop-toast.png') });
    // From the keyboard, as a keyboard user reaches it (the phone test below taps it).
    await toast.getByRole('button', { name: 'Undo' }).focus();
    await page.keyboard.press('Enter');
    await expect(toast).toContainText('The photo is back.');
    await expect(grid(page).getByRole('listitem')).toHaveCount(FILES.length);
    await expect(grid(page).getByRole('checkbox', { name: `Select ${NAMES[0]}` })).toBeAttached();
    expect(filesNamed(hearth.dataDir, NAMES[0]!)).toHaveLength(1);
    // The toast can be dismissed, and goes by itself otherwise.
    await toast.getByRole('button', { name: 'Dismiss' }).first().focus();
    await page.keyboard.press('Enter');
    await expect(toast.getByText('The photo is back.')).toHaveCount(0);
  });

  test('delete one item permanently from the Trash, after confirming: its file leaves the folder', async ({ page, hearth }) => {
    await signInAs(page, ADMIN);
    await grid(page).getByRole('checkbox', { name: `Select ${NAMES[1]}` }).check();
    await selectionBar(page).getByRole('button', { name: 'Move to trash' }).click();
    await expect(grid(page).getByRole('listitem')).toHaveCount(FILES.length - 1);

    await goTo(page, 'Trash');
    await expect(page.getByText('Items are deleted for good 30 days after they were moved here.')).toBeVisible();
    const trash = grid(page, 'Trash');
    await expect(trash.getByRole('listitem')).toHaveCount(1);
    await trash.getByRole('checkbox', { name: `Select ${NAMES[1]}` }).check();
    await selectionBar(page).getByRole('button', { name: 'Delete permanently' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this item permanently?' });
    await expect(dialog).toContainText(`“${NAMES[1]}” will be removed from the household’s folder`);
    await page.screenshot({ path: test.info().outputPath('desktop-delete-confirm.png') });
    // Cancel keeps everything.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    expect(filesNamed(hearth.dataDir, NAMES[1]!)).toHaveLength(1);

    await selectionBar(page).getByRole('button', { name: 'Delete permanently' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete permanently' }).click();
    await expect(toasts(page).getByRole('status')).toContainText('Deleted 1 file for good.');
    await expect(page.getByRole('heading', { name: 'Trash is empty' })).toBeVisible();
    expect(filesNamed(hearth.dataDir, NAMES[1]!), 'the file is gone from the folder').toHaveLength(0);
  });

  test('empty the trash, after confirming the count: every file leaves the folder', async ({ page, playwright, hearth }) => {
    const req = await playwright.request.newContext({ baseURL: hearth.url });
    const list = await call(req, 'post', '/api/v1/assets/query', token, { data: { pagination: { limit: 50 } } });
    const ids = (list.items as { media_item: { primary_asset: { asset_id: string; original_filename: string } } }[])
      .filter((i) => i.media_item.primary_asset.original_filename === NAMES[2] || i.media_item.primary_asset.original_filename === NAMES[3])
      .map((i) => i.media_item.primary_asset.asset_id);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const r = await req.delete(`/api/v1/assets/${id}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(r.ok()).toBeTruthy();
    }
    await req.dispose();

    await signInAs(page, ADMIN);
    await goTo(page, 'Trash');
    await expect(grid(page, 'Trash').getByRole('listitem')).toHaveCount(2);
    await page.getByRole('button', { name: 'Empty trash' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Empty the Trash: delete 2 files permanently?' });
    await expect(dialog).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('desktop-empty-confirm.png') });
    await dialog.getByRole('button', { name: 'Delete 2 files' }).click();
    await expect(toasts(page).getByRole('status')).toContainText('Deleted 2 files for good.');
    await expect(page.getByRole('heading', { name: 'Trash is empty' })).toBeVisible();
    expect(filesNamed(hearth.dataDir, NAMES[2]!)).toHaveLength(0);
    expect(filesNamed(hearth.dataDir, NAMES[3]!)).toHaveLength(0);
    await page.screenshot({ path: test.info().outputPath('desktop-trash-empty.png') });
    await goTo(page, 'Photos');
    await expect(grid(page).getByRole('listitem')).toHaveCount(1);
  });
});

test.describe('on a phone with touch', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('the toast sits above the tab bar, inside the screen, and Undo works with a tap', async ({ page }) => {
    await signInAs(page, ADMIN);
    await expect(grid(page).getByRole('listitem')).toHaveCount(1);
    await grid(page).getByRole('listitem').first().getByRole('button').first().tap();
    const viewer = page.getByRole('dialog');
    await expect(viewer).toBeVisible();
    await viewer.getByRole('button', { name: 'More actions' }).tap();
    await viewer.getByRole('button', { name: 'Move to trash' }).tap();
    // The only photo: the viewer closes and the toast is on the page, over the grid.
    await expect(viewer).toHaveCount(0);
    const toast = toasts(page).locator('.toast').first();
    await expect(toast).toContainText('Moved 1 photo to the Trash.');
    const box = (await toast.boundingBox())!;
    const tabs = (await page.getByRole('navigation', { name: 'Tabs' }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(box.y + box.height, 'above the tab bar').toBeLessThanOrEqual(tabs.y);
    const undo = toast.getByRole('button', { name: 'Undo' });
    const undoBox = (await undo.boundingBox())!;
    expect(undoBox.height, 'a thumb-sized target').toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: test.info().outputPath('phone-toast.png') });
    await undo.tap();
    await expect(toasts(page).getByRole('status')).toContainText('The photo is back.');
    await expect(grid(page).getByRole('listitem')).toHaveCount(1);
  });
});
