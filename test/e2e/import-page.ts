/**
 * The Import page as the import specs drive it (import.spec.ts for WebDAV, icloud.spec.ts, takeout.spec.ts): a
 * member signed in on a device, the page opened from the navigation, the run view followed to its end, and the
 * checks every import screen must pass (fits a phone, finger-sized targets, no serious axe violation).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import { signIn } from './household.ts';

/** A new browser context (its own cookies) for `options`' device, signed in as `account`, in English. */
export async function device(browser: Browser, baseURL: string, options: BrowserContextOptions, account: { username: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', ...options, baseURL });
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

/** Import from the navigation (on a phone through the Menu), by clicks or taps. */
export async function openImport(page: Page, how: 'click' | 'tap') {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu[how]();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import', exact: true })[how]();
  await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
  await expect(page).toHaveURL(/\/import$/);
}

/** The run view of the import shown. */
export const runCard = (page: Page) => page.getByRole('region', { name: 'Import status' });

/** A counter of the run shown ("Imported" → its number). */
export const counter = (page: Page, label: string) => runCard(page).locator('.run__counter').filter({ has: page.locator('dt').getByText(label, { exact: true }) }).locator('dd');

/** The run shown reaches Finished, with nothing left to cancel; its summary is returned. */
export async function expectFinished(page: Page): Promise<string> {
  const run = runCard(page);
  await expect(run.locator('.run-badge')).toHaveText('Finished', { timeout: 60_000 });
  await expect(run.getByRole('button', { name: 'Cancel import' })).toHaveCount(0);
  return (await run.getByRole('status').first().textContent()) ?? '';
}

/** Nothing on the page is wider than the window (a phone scrolls only down). */
export async function expectFits(page: Page) {
  const overflow = await page.evaluate(() => {
    const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return d.scrollWidth - d.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(0);
}

/** axe-core's WCAG 2.0/2.1 A and AA rules (contrast included): no serious or critical violation. */
export async function expectAccessible(page: Page) {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** A target a finger can hit: at least 44 px high. */
export async function expectFingerSized(target: Locator) {
  const box = await target.boundingBox();
  expect(box, 'the target is on the page').not.toBeNull();
  expect(box!.height).toBeGreaterThanOrEqual(44);
}
