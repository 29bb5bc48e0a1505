/**
 * Tags: shared names, per-asset links with a source (see tags.routes.ts for the operations).
 *
 * Tag names are one row per name for the whole household (case-insensitive); which assets carry a
 * tag is per asset, so a member only ever sees tags on their own assets. Another user's asset answers
 * 404, administrators included.
 *
 * Decisions where the contract is silent:
 * - Names are trimmed and NFC-normalized, 1..100 characters, no control characters (422 naming
 *   `body.tag_name`). Case is folded for ASCII letters only (SQLite NOCASE): "Beach" and "beach" are
 *   one tag, the first spelling stays.
 * - Adding a tag the asset already has changes nothing and answers the link (200, idempotent); if the
 *   link came from a machine (zeroshot, bioclip, metadata) the person's confirmation makes it
 *   `manual` with confidence 1.
 * - Removing a tag the asset does not carry is 404 `tag_not_linked`; a tag name no asset uses any
 *   more is deleted.
 * - Summaries and search count the caller's assets in the library (not the Trash). Search only
 *   suggests tags the caller uses (a member never learns another member's tag names) and ranks names
 *   starting with `q` first, then by use.
 */
import type { Access, PermittedAssetId } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Invalid, NotFound } from '../../platform/http/errors.ts';
import { isSingleLineText } from '../../platform/http/text.ts';
import { TagsStore, type TagLinkRow, type TagSource } from './tags.store.ts';

export const TAG_NAME_MAX = 100;

export interface TagSummary {
  tag_id: number;
  tag_name: string;
  source: TagSource;
  asset_count: number;
  cover_asset_id: string;
  last_used_at: string;
}

/** A clean tag name, or 422 naming `field`. */
export function cleanTagName(raw: string, field = 'body.tag_name'): string {
  const name = raw.normalize('NFC').trim();
  const bad = (message: string) => new Invalid(`Check ${field} (${message}).`, [{ field, message, code: 'invalid_tag_name' }], 'invalid_tag_name');
  if (name.length === 0) throw bad('must not be empty');
  if ([...name].length > TAG_NAME_MAX) throw bad(`must be at most ${TAG_NAME_MAX} characters`);
  if (!isSingleLineText(name)) throw bad('must not contain control characters');
  return name;
}

export class TagsService {
  readonly store: TagsStore;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new TagsStore(db);
  }

  /** The tags of one asset the caller's feature has already checked (the asset detail). */
  linksOf(assetId: PermittedAssetId): TagLinkRow[] {
    return this.store.linksOf(assetId);
  }

  list(actor: Actor, assetId: string): { tags: TagLinkRow[] } {
    return { tags: this.store.linksOf(this.access.require(actor, 'asset', assetId, 'read')) };
  }

  add(actor: Actor, assetId: string, rawName: string): TagLinkRow {
    const name = cleanTagName(rawName);
    const id = this.access.require(actor, 'asset', assetId, 'change');
    const now = this.now();
    return this.db
      .transaction(() => {
        const tagId = this.store.resolve(name, now);
        this.store.upsertLink(id, tagId, 'manual', 1, now);
        return this.store.link(id, tagId)!;
      })
      .immediate();
  }

  remove(actor: Actor, assetId: string, tagId: number): { message: string } {
    const id = this.access.require(actor, 'asset', assetId, 'change');
    return this.db
      .transaction(() => {
        const link = this.store.link(id, tagId);
        if (!link) throw new NotFound('This asset does not carry that tag.', 'tag_not_linked');
        this.store.unlink(id, tagId);
        this.store.dropIfUnused(tagId);
        return { message: `Removed the tag "${link.tag_name}".` };
      })
      .immediate();
  }

  summaries(
    actor: Actor,
    q: { repository_id?: string | undefined; source?: TagSource | undefined; q?: string | undefined; limit?: number | undefined; offset?: number | undefined },
  ): { tags: TagSummary[]; limit: number; offset: number; total: number } {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const { rows, total } = this.store.summaries(
      { ownerId: actor.userId, repositoryId: q.repository_id, source: q.source, q: q.q?.trim() || undefined },
      limit,
      offset,
    );
    return {
      tags: rows.map((r) => ({ ...r, last_used_at: new Date(r.last_used_at).toISOString() })),
      limit,
      offset,
      total,
    };
  }

  search(actor: Actor, q: { q?: string | undefined; limit?: number | undefined }) {
    return { tags: this.store.search(actor.userId, q.q?.trim() ?? '', q.limit ?? 20) };
  }

}
