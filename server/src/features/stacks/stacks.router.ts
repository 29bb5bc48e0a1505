import { createRouter } from '../../platform/http/router.ts';

export function stacksRouter() {
  const app = createRouter();
  return app;
}
