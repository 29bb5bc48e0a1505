import { createRouter } from '../../platform/http/router.ts';

export function albumsRouter() {
  const app = createRouter();
  return app;
}
