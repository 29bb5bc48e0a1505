/**
 * Who may do what, per kind, as one SQL condition on a row of the kind's table. The condition serves
 * both questions the access layer answers: "which of these ids" (`idsSql`: the permitted ids among a
 * JSON array of candidates, one query whatever the batch size) and "which rows may a list show"
 * (`Access.scope`: the same condition put into a store's own list query).
 *
 * Today every kind is private to its owner, administrators included (photos are private: an
 * administrator manages the server, not the members' pictures). Album members and shares extend the
 * `read` conditions here, and only here.
 */
import type { AccessKind, Permission } from './permitted.ts';

interface Rule {
  table: string;
  idColumn: string;
  /** The condition on a row (its table named `alias`) that permits it to the user bound as `@access_user`. */
  where: Record<Permission, (alias: string) => string>;
}

const owned = (table: string, idColumn: string): Rule => {
  const where = (alias: string) => `${alias}.owner_id = @access_user`;
  return { table, idColumn, where: { read: where, change: where, own: where } };
};

export const RULES: Record<AccessKind, Rule> = {
  asset: owned('assets', 'asset_id'),
  album: owned('albums', 'album_id'),
  upload_session: owned('upload_sessions', 'session_id'),
  upload_receipt: owned('upload_receipts', 'receipt_id'),
};

/** Selects `id` among `json_each(@ids)` permitted to `@access_user`. */
export function idsSql(kind: AccessKind, permission: Permission): string {
  const { table, idColumn, where } = RULES[kind];
  // CROSS JOIN keeps the candidates as the outer loop: one key lookup per id. A plain JOIN lets SQLite
  // walk the owner's index instead, which reads all of an owner's rows (100k photos: every thumbnail
  // request read 100k index entries). The access test checks the plan of every rule.
  return `SELECT t.${idColumn} AS id FROM json_each(@ids) j CROSS JOIN ${table} t ON t.${idColumn} = j.value WHERE ${where[permission]('t')}`;
}
