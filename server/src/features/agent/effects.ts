/**
 * Committing what the member approved. One transaction per effect: the effect must still be pending and its
 * run still waiting (a cancel that came first wins; one that comes after finds the run no longer waiting, and
 * the commit stands: the one answer is decided here), the snapshot's ids are checked again for what the change
 * needs (`change`: only the member's own photos are tagged, put in albums or trashed; `read` to like, as likes
 * are each reader's own), the services make the changes, and the receipt is stored with the effect. A failure
 * anywhere rolls everything back and the effect is `failed`. Approving again answers the stored receipt with
 * `already_committed: true` and changes nothing.
 */
import crypto from 'node:crypto';
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import type { AgentStore, EffectRow } from './agent.store.ts';
import type { AgentLibrary } from './ports.ts';

export interface Receipt {
  effect_id: string;
  tool_name: string;
  status: 'committed' | 'rejected' | 'cancelled' | 'failed';
  count: number;
  album_id?: number | undefined;
  message: string;
  already_committed?: boolean | undefined;
}

/** The idempotency key: SHA-256 of who, where, which tool, its arguments and the ids. */
export function effectKey(userId: number, threadId: string, runId: string, tool: string, payload: unknown, ids: readonly string[]): string {
  return crypto.createHash('sha256').update(JSON.stringify([userId, threadId, runId, tool, payload, ids])).digest('hex');
}

export class EffectCommitter {
  constructor(
    private readonly db: Db,
    private readonly store: AgentStore,
    private readonly access: Access,
    private readonly lib: AgentLibrary,
  ) {}

  /** The stored receipt of a decided effect (approving twice answers it, marked already committed). */
  receiptOf(e: EffectRow): Receipt {
    const stored = e.receipt ? (JSON.parse(e.receipt) as Receipt) : { effect_id: e.effect_id, tool_name: e.tool_name, status: e.status as Receipt['status'], count: 0, message: e.status };
    return e.status === 'committed' ? { ...stored, already_committed: true } : stored;
  }

  /** Commits or declines; null when the run was no longer waiting (a cancel came first). */
  decide(actor: Actor, e: EffectRow, approved: boolean, now: number): Receipt | null {
    if (!approved) {
      const receipt: Receipt = { effect_id: e.effect_id, tool_name: e.tool_name, status: 'rejected', count: 0, message: 'Declined: nothing was changed.' };
      return this.db
        .transaction(() => (this.store.run(e.run_id, actor.userId)?.status === 'awaiting_confirmation' && this.store.decideEffect(e.effect_id, 'rejected', receipt, now) ? receipt : null))
        .immediate();
    }
    try {
      return this.db
        .transaction((): Receipt | null => {
          const fresh = this.store.effect(e.effect_id, actor.userId);
          if (!fresh || fresh.status !== 'pending' || this.store.run(e.run_id, actor.userId)?.status !== 'awaiting_confirmation') return null;
          const receipt = this.apply(actor, fresh);
          if (!this.store.decideEffect(e.effect_id, 'committed', receipt, now)) return null;
          return receipt;
        })
        .immediate();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const receipt: Receipt = { effect_id: e.effect_id, tool_name: e.tool_name, status: 'failed', count: 0, message: `Nothing was changed: ${message}` };
      this.store.decideEffect(e.effect_id, 'failed', receipt, now);
      return receipt;
    }
  }

  private apply(actor: Actor, e: EffectRow): Receipt {
    const payload = JSON.parse(e.payload) as Record<string, unknown>;
    const snapshot = JSON.parse(e.asset_ids) as string[];
    const permission = e.tool_name === 'bulk_like_assets' ? 'read' : 'change';
    const ids = this.access.permitted({ userId: actor.userId }, 'asset', snapshot, permission);
    const skipped = snapshot.length - ids.length;
    const skippedNote = skipped ? ` ${skipped} ${skipped === 1 ? 'was' : 'were'} left out (not yours to change, or gone).` : '';
    const base = { effect_id: e.effect_id, tool_name: e.tool_name, status: 'committed' as const, count: ids.length };
    switch (e.tool_name) {
      case 'create_album': {
        const album = this.lib.createAlbum(actor, payload.name as string);
        for (const id of ids) this.lib.addToAlbum(actor, album.album_id, id);
        return { ...base, album_id: album.album_id, message: `Made the album "${album.album_name}" with ${ids.length} ${ids.length === 1 ? 'item' : 'items'}.${skippedNote}` };
      }
      case 'add_to_album': {
        const albumId = payload.album_id as number;
        for (const id of ids) this.lib.addToAlbum(actor, albumId, id);
        return { ...base, album_id: albumId, message: `Added ${ids.length} to "${this.lib.albumName(actor, albumId)}".${skippedNote}` };
      }
      case 'tag_assets': {
        const tags = payload.tags as string[];
        for (const id of ids) for (const t of tags) this.lib.tag(actor, id, t);
        return { ...base, message: `Tagged ${ids.length} with ${tags.join(', ')}.${skippedNote}` };
      }
      case 'bulk_like_assets': {
        const liked = payload.liked !== false;
        for (const id of ids) this.lib.like(actor, id, liked);
        return { ...base, message: `${liked ? 'Liked' : 'Unliked'} ${ids.length}.${skippedNote}` };
      }
      case 'trash_assets': {
        for (const id of ids) this.lib.trash(actor, id);
        return { ...base, message: `Moved ${ids.length} to the Trash (restore them from there).${skippedNote}` };
      }
      default:
        throw new Error(`unknown effect ${e.tool_name}`);
    }
  }
}
