/** The facts of a ref's photos with the reader's own marks (likes and ratings are each member's). */
import type { PermittedAssetId } from '../../../platform/access/index.ts';
import type { Marked } from '../facets.ts';
import type { ToolContext } from './tool.ts';

export function markedFacts(ctx: Pick<ToolContext, 'actor' | 'library' | 'marks'>, ids: readonly PermittedAssetId[]): Marked[] {
  const facts = ctx.library.facts(ids);
  const others = ids.filter((id) => facts.get(id) && facts.get(id)!.owner_id !== ctx.actor.userId);
  const marks = ctx.marks.of(ctx.actor.userId, others);
  const out: Marked[] = [];
  for (const id of ids) {
    const f = facts.get(id);
    if (!f) continue;
    const own = f.owner_id === ctx.actor.userId;
    const m = marks.get(id);
    out.push({ ...f, liked: own ? f.owner_liked === 1 : (m?.liked ?? false), rating: own ? f.owner_rating : (m?.rating ?? 0) });
  }
  return out;
}
