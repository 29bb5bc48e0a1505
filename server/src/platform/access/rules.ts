/**
 * Who may do what, per kind, as SQL over the catalog. Each rule selects the permitted ids among a JSON
 * array of candidates (`json_each(?)`), so a batch of ids costs one query whatever its size.
 *
 * Today every kind is private to its owner, administrators included (photos are private: an
 * administrator manages the server, not the members' pictures). Album members and shares extend the
 * `read` rules here, and only here.
 */
import type { AccessKind, Permission } from './permitted.ts';

interface Rule {
  /** Selects `id` among `json_each(:ids)` permitted to `:user`. */
  sql: Record<Permission, string>;
}

// CROSS JOIN keeps the candidates as the outer loop: one key lookup per id. A plain JOIN lets SQLite
// walk the owner's index instead, which reads all of an owner's rows (100k photos: every thumbnail
// request read 100k index entries). The access test checks the plan of every rule.
const owned = (table: string, idColumn: string): Rule => {
  const sql = `SELECT t.${idColumn} AS id FROM json_each(:ids) j CROSS JOIN ${table} t ON t.${idColumn} = j.value WHERE t.owner_id = :user`;
  return { sql: { read: sql, change: sql, own: sql } };
};

export const RULES: Record<AccessKind, Rule> = {
  asset: owned('assets', 'asset_id'),
  album: owned('albums', 'album_id'),
  upload_session: owned('upload_sessions', 'session_id'),
};
