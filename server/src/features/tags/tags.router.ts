import { createRouter } from '../../platform/http/router.ts';

export function tagsRouter() {
  const app = createRouter();
  return app;
}
