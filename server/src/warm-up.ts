/**
 * After a start, the library's kept answers are prepared before anyone asks: the catalog shape and
 * each member's timeline (features/browse), filter options, folder counts (features/folders), map
 * points (features/places) and statistics facts (features/statistics), in the very services and
 * caches the routers use (the container's), for the very requests the first screens make.
 *
 * Why: those are computed once and then kept current from the change journal, so the only slow answer
 * is the first one after a start (on a 1M library: 1–5 s each). Preparing them here moves that wait
 * off the first person who opens the app. Each step runs on its own turn of the event loop, so a
 * request that arrives meanwhile waits for one step at most; members with the most files go first.
 * A failure here is logged and forgotten: the same answer is then computed on first request.
 */
import type { Container } from './container.ts';
import type { AssetQuery } from './features/browse/browse.routes.ts';
import type { MapPointsQuery } from './features/places/places.routes.ts';
import type { Actor } from './platform/http/context.ts';

/**
 * What the first screens of the web app ask for (renderer/src), so that the warm-up prepares those
 * very answers: the Photos timeline (PhotosPage: newest capture first, stacks collapsed, the first
 * page of 100), the map (map-api.ts: pages of 5000), the folders root (FoldersPage), and the filter
 * bar's options. The list cache keys on the query, not the page, so any page of it is then kept.
 */
export const FIRST_SCREENS = {
  timeline: { sort_by: 'date_captured', stack_mode: 'collapsed', pagination: { limit: 100, offset: 0 } } satisfies AssetQuery,
  map: { limit: 5000, offset: 0 } satisfies MapPointsQuery,
  folders: { path: '' },
};

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function warmLibraryCaches(container: Container, stopped: () => boolean = () => false): Promise<void> {
  const { db, log } = container;
  const started = performance.now();
  const members = db
    .prepare(
      `SELECT u.user_id AS userId, u.username, u.role FROM users u
       WHERE EXISTS (SELECT 1 FROM assets a WHERE a.owner_id = u.user_id)
       ORDER BY (SELECT count(*) FROM assets a WHERE a.owner_id = u.user_id) DESC`,
    )
    .all() as Pick<Actor, 'userId' | 'username' | 'role'>[];
  for (const m of members) {
    const actor: Actor = { ...m, sessionId: 'warm-up', via: 'bearer' };
    const steps: [string, () => unknown][] = [
      ['timeline', () => container.browse.query(actor, FIRST_SCREENS.timeline)],
      ['filter options', () => container.statistics.filterOptions(actor)],
      ['folders', () => container.folders.list(actor, FIRST_SCREENS.folders)],
      ['map', () => container.places.mapPointsJson(actor, FIRST_SCREENS.map)],
      ['statistics', () => container.statistics.years(actor)],
    ];
    for (const [name, step] of steps) {
      await turn();
      if (stopped()) return;
      try {
        await step();
      } catch (e) {
        log.warn({ err: e, step: name, user_id: m.userId }, 'preparing the library answers failed; they are computed on first request');
      }
    }
  }
  log.info({ members: members.length, ms: Math.round(performance.now() - started) }, 'library answers prepared');
}
