/**
 * Shared albums: the owner adds household members as viewers or contributors (members.routes.ts).
 *
 * Rules (Hearth's decisions; the contract has no sharing):
 * - Viewers read the album and its assets (not those in the owner's Trash). Contributors also add
 *   their OWN assets and take out what they added. Only the owner renames, reorders, sets the
 *   cover, changes members or deletes the album. Who may do what: platform/access/rules.ts.
 * - Refusals: someone who cannot read the album gets 404 `album_not_found` (as if it did not
 *   exist); a member who can read it but not do this gets 403 `album_read_only`.
 * - Adding a member: an active account other than the owner, else 422 naming `body.user_id`
 *   (`share_with_self`, `not_a_member`). Already a member: 409 `already_a_member` (change the role
 *   with updateAlbumMember).
 * - Removing: the owner removes anyone; a member removes only themselves (leaving). What a member
 *   added leaves the album with them: their photos were shared for as long as they were in it.
 *   A contributor made a viewer keeps what they added.
 */
import type { Access } from '../../platform/access/index.ts';
import type { Db } from '../../platform/db/connection.ts';
import type { Actor } from '../../platform/http/context.ts';
import { Conflict, DomainError, Forbidden, Invalid } from '../../platform/http/errors.ts';
import { MembersStore, type Member } from '../users/index.ts';
import { AlbumsStore } from './albums.store.ts';
import { AlbumMembersStore, type MemberRole } from './members.store.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export interface AlbumMember extends Member {
  role: MemberRole;
  added_at: string;
}

export class AlbumMembersService {
  private readonly members: AlbumMembersStore;
  private readonly albums: AlbumsStore;
  private readonly household: MembersStore;

  constructor(
    private readonly db: Db,
    private readonly access: Access,
  ) {
    this.members = new AlbumMembersStore(db);
    this.albums = new AlbumsStore(db);
    this.household = new MembersStore(db);
  }

  list(actor: Actor, albumId: number) {
    const album = this.albums.byId(this.access.require(actor, 'album', albumId, 'read', 'path.id'))!;
    const rows = this.members.list(albumId);
    const known = this.household.byIds([album.owner_id, ...rows.map((r) => r.user_id)]);
    const members: AlbumMember[] = rows
      .filter((r) => known.has(r.user_id))
      .map((r) => ({ ...known.get(r.user_id)!, role: r.role, added_at: iso(r.added_at) }));
    return { album_id: albumId, owner: known.get(album.owner_id)!, members, count: members.length };
  }

  add(actor: Actor, albumId: number, userId: number, role: MemberRole) {
    return this.db
      .transaction(() => {
        const album = this.albums.byId(this.access.require(actor, 'album', albumId, 'change', 'path.id'))!;
        const ok = this.household.shareable(album.owner_id, userId);
        if (ok === 'self') throw new Invalid('You own this album: add someone else.', [{ field: 'body.user_id', message: 'is the album owner', code: 'share_with_self' }], 'share_with_self');
        if (ok === 'not_a_member') {
          throw new Invalid('Albums can be shared with active members of this household only.', [{ field: 'body.user_id', message: 'is not an active member', code: 'not_a_member' }], 'not_a_member');
        }
        if (this.members.get(albumId, userId)) throw new Conflict('Already a member of this album: change their role instead.', 'already_a_member');
        const now = Date.now();
        this.members.insert(albumId, userId, role, now);
        this.albums.touch(albumId, now);
        return this.one(albumId, userId);
      })
      .immediate();
  }

  update(actor: Actor, albumId: number, userId: number, role: MemberRole) {
    return this.db
      .transaction(() => {
        this.access.require(actor, 'album', albumId, 'change', 'path.id');
        this.requireMember(albumId, userId);
        this.members.setRole(albumId, userId, role);
        this.albums.touch(albumId, Date.now());
        return this.one(albumId, userId);
      })
      .immediate();
  }

  remove(actor: Actor, albumId: number, userId: number) {
    return this.db
      .transaction(() => {
        const album = this.albums.byId(this.access.require(actor, 'album', albumId, 'read', 'path.id'))!;
        const leaving = userId === actor.userId && album.owner_id !== actor.userId;
        if (!leaving && album.owner_id !== actor.userId) throw new Forbidden('Only the owner of this album removes its members; you can leave it yourself.', 'album_read_only');
        this.requireMember(albumId, userId);
        // What the member added leaves with them (closing the gaps it leaves).
        const added = this.albums.addedByUser(albumId, userId);
        for (const assetId of added) {
          this.albums.normalise(albumId);
          const at = this.albums.positionOf(albumId, assetId);
          if (at !== undefined) this.albums.removeAt(albumId, assetId, at);
          if (album.cover_asset_id === assetId) this.albums.update(albumId, { cover_asset_id: null }, Date.now());
        }
        this.members.delete(albumId, userId);
        this.albums.touch(albumId, Date.now());
        const who = leaving ? 'you' : 'they';
        const took = added.length ? ` ${added.length} ${added.length === 1 ? 'photo' : 'photos'} ${who} added ${added.length === 1 ? 'was' : 'were'} taken out of it.` : '';
        return { message: `${leaving ? 'You left' : 'Removed from'} the album "${album.album_name}".${took}` };
      })
      .immediate();
  }

  private requireMember(albumId: number, userId: number) {
    const m = this.members.get(albumId, userId);
    if (!m) throw new DomainError(404, 'album_member_not_found', 'This person is not a member of the album.', { errors: [{ field: 'path.userId', message: 'not a member' }] });
    return m;
  }

  private one(albumId: number, userId: number): AlbumMember {
    const m = this.members.get(albumId, userId)!;
    const p = this.household.byIds([userId]).get(userId)!;
    return { ...p, role: m.role, added_at: iso(m.added_at) };
  }
}
