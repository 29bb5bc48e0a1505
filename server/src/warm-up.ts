/**
 * After a start, the library's kept answers are prepared before anyone asks: the catalog shape and
 * each member's timeline (features/browse), folder counts (features/folders), map points
 * (features/places) and statistics facts (features/statistics).
 *
 * Why: those are computed once and then kept current from the change log, so the only slow answer
 * is the first one after a start (on a 1M library: 1–5 s each). Preparing them here moves that wait
 * off the first person who opens the app. Each step runs on its own turn of the event loop, so a
 * request that arrives meanwhile waits for one step at most; members with the most files go first.
 * A failure here is logged and forgotten: the same answer is then computed on first request.
 */
import type { Container } from './container.ts';
import { BrowseService } from './features/browse/browse.service.ts';
import { FoldersService } from './features/folders/folders.service.ts';
import { PlacesService } from './features/places/places.service.ts';
import { StatisticsService } from './features/statistics/statistics.service.ts';
import type { Actor } from './platform/http/context.ts';

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
      ['timeline', () => new BrowseService(db).query(actor, { pagination: { limit: 1 } })],
      ['folders', () => new FoldersService(db).list(actor, { path: '' })],
      ['map', () => new PlacesService(db).mapPointsJson(actor, { limit: 1, offset: 0 })],
      ['statistics', () => new StatisticsService(db).years(actor)],
    ];
    for (const [name, step] of steps) {
      await turn();
      if (stopped()) return;
      try {
        step();
      } catch (e) {
        log.warn({ err: e, step: name, user_id: m.userId }, 'preparing the library answers failed; they are computed on first request');
      }
    }
  }
  log.info({ members: members.length, ms: Math.round(performance.now() - started) }, 'library answers prepared');
}
