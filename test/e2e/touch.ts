/**
 * Touch gestures on the photo grid that Playwright's `tap()` cannot make: a phone shows no selection checks
 * until a long press on a tile starts selecting (issue 24), so specs that select on a phone hold a finger there.
 */
import { expect, type Page } from '@playwright/test';

/** Holds a finger on a photo's tile (touches through CDP, as from a screen) until it is selected. */
export async function longPressTile(page: Page, name: string): Promise<void> {
  const tile = page.getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).first();
  await tile.scrollIntoViewIfNeeded();
  const b = (await tile.boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: b.x + b.width / 2, y: b.y + b.height / 2, id: 0 }] });
  await expect(page.getByRole('checkbox', { name: `Select ${name}` })).toBeChecked();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}
