/**
 * What a tool is and what it gets. Tools are thin wrappers over the library's services (ports.ts): they take
 * refs and small arguments, and answer a receipt (`summary`, and `ref_id`/`count` when they made a ref),
 * never inline asset data. Arguments are checked against the tool's schema before it runs (a model may send
 * anything); an effect does not change anything when called: it proposes (`proposal`), and the run waits for
 * the member's yes (effects.ts).
 */
import type { z } from '@hono/zod-openapi';
import type { Access } from '../../../platform/access/index.ts';
import type { Actor } from '../../../platform/http/context.ts';
import type { MarksStore } from '../../assets/index.ts';
import type { AgentLibrary } from '../ports.ts';
import type { LibraryStore } from '../library.store.ts';
import type { RefBook } from '../refs.ts';
import type { Widget } from '../agent.store.ts';

export type ToolKind = 'producer' | 'lookup' | 'transformer' | 'inspector' | 'show' | 'effect';

export interface ToolContext {
  actor: Actor;
  refs: RefBook;
  lib: AgentLibrary;
  library: LibraryStore;
  marks: MarksStore;
  access: Access;
  /** The member's time zone: days of dates and "one per day" are days there. */
  timeZone: string;
  signal: AbortSignal;
}

/** What an effect would change, shown in the confirmation and committed on approval. */
export interface EffectProposal {
  tool_name: string;
  /** The effect's own arguments (tags, album name or id, liked), stored with it. */
  payload: Record<string, unknown>;
  asset_ids: string[];
  ref_id: string;
  /** Shown to the member: `{action, ref_id, count, album_name?, tags?, liked?}`. */
  confirmation: Record<string, unknown>;
}

export interface ToolResult {
  summary: string;
  ref_id?: string | undefined;
  count?: number | undefined;
  /** Small structured answers (lookups, facets, peeks): names, counts and ids, never file contents. */
  data?: Record<string, unknown> | undefined;
  widget?: { widget: Widget; ref_id: string; count: number; title: string; params?: Record<string, unknown> } | undefined;
  proposal?: EffectProposal | undefined;
}

export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  kind: ToolKind;
  desc: string;
  schema: S;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult> | ToolResult;
}

export function defineTool<S extends z.ZodType>(t: ToolDef<S>): ToolDef<S> {
  return t;
}
