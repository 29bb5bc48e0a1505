/**
 * Transformers: a new ref from refs (combine, rank, top, sample, dedupe). They never widen what a ref holds:
 * the inputs are re-checked when read (RefBook.get) and the output goes through RefBook.create again.
 */
import { z } from '@hono/zod-openapi';
import { localDay, placeName, qualityOf, type Marked } from '../facets.ts';
import { planOf } from '../refs.ts';
import { markedFacts } from './marked.ts';
import { defineTool, type ToolContext, type ToolResult } from './tool.ts';

export const RefId = z.string().regex(/^r\d{1,6}$/, 'a ref id such as r1').openapi({ description: 'A ref made earlier in this thread.' });

function made(ctx: ToolContext, op: string, args: Record<string, unknown>, parents: string[], ids: string[], summary: string): ToolResult {
  const ref = ctx.refs.create(op, planOf(op, args, ctx.actor.userId, parents), ids);
  return { summary: `${summary}: ${ref.count}.`, ref_id: ref.ref_id, count: ref.count };
}

export const combine = defineTool({
  name: 'combine',
  kind: 'transformer',
  desc: 'Union, intersection or difference (the first minus the others) of refs, in the first ref’s order.',
  schema: z.strictObject({ op: z.enum(['union', 'intersect', 'difference']), refs: z.array(RefId).min(2).max(10) }),
  run(args, ctx) {
    const sets = args.refs.map((r) => ctx.refs.get(r).ids as string[]);
    let out: string[];
    if (args.op === 'union') out = [...new Set(sets.flat())];
    else if (args.op === 'intersect') out = sets[0]!.filter((id) => sets.slice(1).every((s) => s.includes(id)));
    else {
      const minus = new Set(sets.slice(1).flat());
      out = sets[0]!.filter((id) => !minus.has(id));
    }
    return made(ctx, 'combine', args, args.refs, out, `${args.op} of ${args.refs.join(', ')}`);
  },
});

function ranked(facts: Marked[], by: 'time' | 'quality' | 'relevance', order: 'asc' | 'desc'): Marked[] {
  // Relevance is the ref's own order (a search ref is best first); time and quality sort stably.
  if (by === 'relevance') return order === 'desc' ? facts : [...facts].reverse();
  const key = by === 'time' ? (a: Marked) => a.time : qualityOf;
  const sign = order === 'desc' ? -1 : 1;
  return facts.map((a, i) => ({ a, i })).sort((x, y) => sign * (key(x.a) - key(y.a)) || x.i - y.i).map((x) => x.a);
}

export const rank = defineTool({
  name: 'rank',
  kind: 'transformer',
  desc: 'The ref reordered by time (newest first), quality (best first: rating, like, resolution) or relevance (its own order).',
  schema: z.strictObject({ ref: RefId, by: z.enum(['time', 'quality', 'relevance']), order: z.enum(['asc', 'desc']).default('desc') }),
  run(args, ctx) {
    const facts = markedFacts(ctx, ctx.refs.get(args.ref).ids);
    return made(ctx, 'rank', args, [args.ref], ranked(facts, args.by, args.order).map((a) => a.asset_id), `${args.ref} ranked by ${args.by}`);
  },
});

export const top = defineTool({
  name: 'top',
  kind: 'transformer',
  desc: 'The first n of a ref.',
  schema: z.strictObject({ ref: RefId, n: z.number().int().min(1).max(1000) }),
  run(args, ctx) {
    return made(ctx, 'top', args, [args.ref], ctx.refs.get(args.ref).ids.slice(0, args.n), `First ${args.n} of ${args.ref}`);
  },
});

/** A seeded shuffle (mulberry32): "random" samples are the same for the same ref and seed, so tests and pins agree. */
function shuffled<T>(xs: T[], seed: number): T[] {
  let s = seed >>> 0;
  const rnd = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export const sample = defineTool({
  name: 'sample',
  kind: 'transformer',
  desc: [
    'n items of a ref: `spread_over_time` (evenly over its time span), `random` (seeded), or one per group',
    '(`per`: `day` or `place`, the best by quality of each group, groups newest first).',
  ].join(' '),
  schema: z.strictObject({
    ref: RefId,
    n: z.number().int().min(1).max(1000),
    strategy: z.enum(['spread_over_time', 'random', 'best_per_group']).default('spread_over_time'),
    per: z.enum(['day', 'place']).optional(),
    seed: z.number().int().min(0).max(2 ** 31).default(1),
  }),
  run(args, ctx) {
    const facts = markedFacts(ctx, ctx.refs.get(args.ref).ids);
    let out: Marked[];
    if (args.per || args.strategy === 'best_per_group') {
      const groupOf = args.per === 'place' ? (a: Marked) => placeName(a) ?? '(no place)' : localDay;
      const best = new Map<string, Marked>();
      for (const a of facts) {
        const g = groupOf(a);
        const b = best.get(g);
        if (!b || qualityOf(a) > qualityOf(b) || (qualityOf(a) === qualityOf(b) && a.time > b.time)) best.set(g, a);
      }
      out = [...best.values()].sort((x, y) => y.time - x.time).slice(0, args.n);
    } else if (args.strategy === 'random') out = shuffled(facts, args.seed).slice(0, args.n);
    else {
      const byTime = [...facts].sort((x, y) => x.time - y.time);
      if (byTime.length <= args.n) out = byTime;
      else out = Array.from({ length: args.n }, (_, i) => byTime[Math.round((i * (byTime.length - 1)) / Math.max(1, args.n - 1))]!);
      out = [...new Set(out)];
    }
    return made(ctx, 'sample', args, [args.ref], out.map((a) => a.asset_id), `Sample of ${args.ref}${args.per ? `, one per ${args.per}` : ''}`);
  },
});

function hamming(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < a.length; i += 8) {
    let x = (parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0;
    while (x) {
      d += x & 1;
      x >>>= 1;
    }
  }
  return d;
}

export const dedupe = defineTool({
  name: 'dedupe',
  kind: 'transformer',
  desc: 'Near-identical photos of a ref (perceptual hash within 8 of 64 bits) kept `keep_per_cluster` each, the best by quality.',
  schema: z.strictObject({ ref: RefId, keep_per_cluster: z.number().int().min(1).max(10).default(1) }),
  run(args, ctx) {
    const facts = markedFacts(ctx, ctx.refs.get(args.ref).ids);
    const clusters: Marked[][] = [];
    for (const a of facts) {
      const c = a.phash ? clusters.find((k) => k[0]!.phash && hamming(k[0]!.phash, a.phash!) <= 8) : undefined;
      if (c) c.push(a);
      else clusters.push([a]);
    }
    const keep = new Set(clusters.flatMap((c) => [...c].sort((x, y) => qualityOf(y) - qualityOf(x)).slice(0, args.keep_per_cluster).map((a) => a.asset_id)));
    return made(ctx, 'dedupe', args, [args.ref], facts.filter((a) => keep.has(a.asset_id)).map((a) => a.asset_id), `${args.ref} without near-duplicates`);
  },
});

