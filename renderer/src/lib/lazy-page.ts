/**
 * Code splitting by route (issue 12 point 6): each page is its own script, fetched when it is first
 * shown, so the first screen (the sign-in page, or Photos for a signed-in person) loads only what it
 * needs. `npm run bench:bundle` (scripts/bench/bundle.ts) measures it and
 * test/renderer/bundle-budget.test.ts keeps the first screen under its budget.
 *
 * The pages export named components; React.lazy wants a module with a default export, hence this
 * adapter: `lazyPage(() => import('./X').then((m) => m.X))`.
 */
import { lazy, type ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a page's props are whatever it declares; `any` lets each lazy page keep its own
export function lazyPage<C extends ComponentType<any>>(load: () => Promise<C>) {
  return lazy(async () => ({ default: await load() }));
}
