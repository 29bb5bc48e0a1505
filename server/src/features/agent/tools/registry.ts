/**
 * Every tool, and which ones each mode lists (the reference's table). A mode's planner is only ever given its
 * own tools: a tool outside the mode is not found when called. `free` has every tool; the Trash tool is in
 * `free` only (it is the one effect that takes photos out of view, and it always asks on its own).
 */
import { z } from '@hono/zod-openapi';
import type { AgentMode } from '../agent.store.ts';
import { addToAlbum, bulkLike, createAlbum, tagAssets, trashAssets } from './effects.ts';
import { describe, inspect, peek, show } from './inspectors.ts';
import { filterAssets, lookupAlbums, lookupEvents, lookupPeople, searchEvents, searchPeople, searchPlaces, searchSemantic, searchText } from './producers.ts';
import { combine, dedupe, rank, sample, top } from './transformers.ts';
import type { ToolDef } from './tool.ts';

export const ALL_TOOLS: readonly ToolDef[] = [
  filterAssets,
  searchSemantic,
  searchText,
  searchPeople,
  searchPlaces,
  searchEvents,
  lookupPeople,
  lookupAlbums,
  lookupEvents,
  combine,
  rank,
  top,
  sample,
  dedupe,
  describe,
  inspect,
  peek,
  show,
  tagAssets,
  createAlbum,
  addToAlbum,
  bulkLike,
  trashAssets,
] as ToolDef[];

export const MODES = ['free', 'review', 'organize', 'analyze', 'curate'] as const;

const MODE_TOOLS: Record<Exclude<AgentMode, 'free'>, readonly string[]> = {
  review: ['filter_assets', 'search_people', 'lookup_people', 'describe', 'sample', 'rank', 'show'],
  organize: ['filter_assets', 'search_semantic', 'search_people', 'lookup_people', 'lookup_albums', 'describe', 'peek', 'combine', 'tag_assets', 'create_album', 'add_to_album', 'show'],
  analyze: ['filter_assets', 'search_semantic', 'search_text', 'search_people', 'lookup_people', 'describe', 'inspect', 'peek', 'combine', 'show'],
  curate: ['filter_assets', 'search_semantic', 'search_people', 'lookup_people', 'lookup_albums', 'combine', 'rank', 'top', 'sample', 'dedupe', 'describe', 'create_album', 'add_to_album', 'show'],
};

/** The mode a request names; an empty or unknown one is `free` (the whole toolset), as the contract says for the tool list. */
export function modeOf(mode: string | undefined): AgentMode {
  return (MODES as readonly string[]).includes(mode ?? '') ? (mode as AgentMode) : 'free';
}

export function toolsFor(mode: AgentMode): readonly ToolDef[] {
  if (mode === 'free') return ALL_TOOLS;
  const names = MODE_TOOLS[mode];
  return ALL_TOOLS.filter((t) => names.includes(t.name));
}

export function toolNamed(mode: AgentMode, name: string): ToolDef | undefined {
  return toolsFor(mode).find((t) => t.name === name);
}

export interface ToolDescriptor {
  name: string;
  desc: string;
  extra: Record<string, unknown>;
}

/** The tool descriptor (name, desc, extra): `extra` says its kind and whether it asks before it changes anything. */
export function descriptorOf(t: ToolDef): ToolDescriptor {
  return { name: t.name, desc: t.desc, extra: { kind: t.kind, confirmation: t.kind === 'effect', parameters: parametersOf(t) } };
}

/** A tool's arguments as JSON Schema (what a model is given, and getAgentToolSchemas answers). */
export function parametersOf(t: ToolDef): Record<string, unknown> {
  return z.toJSONSchema(t.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
