/**
 * What changed in the catalog since the browse caches (browse.service.ts) were computed, kept by
 * TEMP triggers on the catalog connection:
 * - counters, one per kind of data a list can depend on: a cached list whose counters did not move
 *   is still exact (liking a photo leaves the timeline alone);
 * - a log naming what changed: asset rows ('r', by rowid), assets ('a', by id: album and tag links,
 *   trash state), media items ('i'), stacks ('s') and folders ('f', `folderKey`: a file came, went,
 *   moved, or changed what a folder summary counts). The catalog shape (browse.shape.ts) redoes
 *   those items and stacks; cached lists re-check those rows instead of starting over; cached
 *   folder summaries (features/folders) count those folders again.
 * `PRAGMA data_version` catches writes by other connections, which nothing here sees: they drop
 * everything. So do more changes than the log keeps, and renaming or deleting a tag or an album
 * for the lists that filter on them.
 *
 * TEMP objects live on this connection only (never in the catalog file, no migration): they are
 * created the first time a browse service sees the connection. SQLite fires them for every row a
 * statement changes, including cascaded deletes and upserts; a rolled-back transaction rolls them
 * back with the data. Writes before they exist do not matter: the caches start empty. They must
 * never make a write fail: they only ever insert rows that cannot conflict and update counters.
 */
import type { Db } from '../../platform/db/connection.ts';

type Kind = 'r' | 'a' | 'i' | 's' | 'f';

export type Dep =
  | 'rows'
  | 'trash'
  | 'shape'
  | 'media'
  | 'time'
  | 'type'
  | 'liked'
  | 'rating'
  | 'meta'
  | 'gps'
  | 'name'
  | 'path'
  | 'albums'
  | 'tags'
  /** A tag or an album itself renamed, deleted or moved: lists filtering on them start over. */
  | 'tag_names'
  | 'album_owners';

type Trigger = [table: string, event: string, when: string | null, deps: Dep[], log: [Kind, string][]];

/** The folder a row of `assets` sits in, as one text key: repository, owner and folder path (see `folderKey`). */
const FOLDER_OF = (row: 'NEW' | 'OLD') => `${row}.repository_id || char(31) || ${row}.owner_id || char(31) || ${row}.folder_path`;

/** The key the log uses for a folder of one owner in one repository. */
export const folderKey = (repositoryId: string, ownerId: number, folderPath: string) => `${repositoryId}\x1f${ownerId}\x1f${folderPath}`;

/**
 * `shape` is what browse.shape.ts reads: components of multi-file items, stacks. A new single-file
 * item (its position-0 component) does not change it.
 */
const TRIGGERS: Trigger[] = [
  ['assets', 'INSERT', null, ['rows'], [['r', 'NEW.rowid'], ['f', FOLDER_OF('NEW')]]],
  ['assets', 'DELETE', null, ['rows'], [['r', 'OLD.rowid'], ['f', FOLDER_OF('OLD')]]],
  ['assets', 'UPDATE', null, [], [['r', 'NEW.rowid']]],
  // What a folder summary counts (folders.store.ts): its files by type, state, time and trash state.
  ['assets', 'UPDATE OF is_deleted, type, state, taken_time, upload_time, storage_path, repository_id, owner_id', null, [], [['f', FOLDER_OF('OLD')], ['f', FOLDER_OF('NEW')]]],
  ['assets', 'UPDATE OF owner_id', null, ['rows'], []],
  ['assets', 'UPDATE OF is_deleted', null, ['trash'], [['a', 'NEW.asset_id']]],
  ['assets', 'UPDATE OF upload_time, taken_time', null, ['time'], []],
  ['assets', 'UPDATE OF type', null, ['type'], []],
  ['assets', 'UPDATE OF liked', null, ['liked'], []],
  ['assets', 'UPDATE OF rating', null, ['rating'], []],
  ['assets', 'UPDATE OF specific_metadata', null, ['meta'], []],
  ['assets', 'UPDATE OF gps_latitude, gps_longitude', null, ['gps'], []],
  ['assets', 'UPDATE OF original_filename', null, ['name'], []],
  ['assets', 'UPDATE OF storage_path, repository_id', null, ['path'], []],
  ['assets', 'UPDATE OF media_item_id', null, ['media'], []],
  ['media_item_components', 'INSERT', 'NEW.position > 0', ['shape', 'media'], [['i', 'NEW.media_item_id']]],
  ['media_item_components', 'INSERT', 'NEW.position <= 0', ['media'], []],
  ['media_item_components', 'UPDATE', null, ['shape', 'media'], [['i', 'OLD.media_item_id'], ['i', 'NEW.media_item_id']]],
  ['media_item_components', 'DELETE', null, ['shape', 'media'], [['i', 'OLD.media_item_id']]],
  ['media_items', 'UPDATE', null, ['media'], [['i', 'NEW.media_item_id']]],
  ['media_items', 'DELETE', null, ['media'], [['i', 'OLD.media_item_id']]],
  ...(['stacks', 'stack_members'] as const).flatMap((t): Trigger[] => [
    [t, 'INSERT', null, ['shape'], [['s', 'NEW.stack_id']]],
    [t, 'UPDATE', null, ['shape'], [['s', 'OLD.stack_id'], ['s', 'NEW.stack_id']]],
    [t, 'DELETE', null, ['shape'], [['s', 'OLD.stack_id']]],
  ]),
  ['album_assets', 'INSERT', null, ['albums'], [['a', 'NEW.asset_id']]],
  ['album_assets', 'UPDATE', null, ['albums'], [['a', 'OLD.asset_id'], ['a', 'NEW.asset_id']]],
  ['album_assets', 'DELETE', null, ['albums'], [['a', 'OLD.asset_id']]],
  ['albums', 'UPDATE OF owner_id', null, ['album_owners'], []],
  ['albums', 'DELETE', null, ['album_owners'], []],
  ['asset_tags', 'INSERT', null, ['tags'], [['a', 'NEW.asset_id']]],
  ['asset_tags', 'UPDATE', null, ['tags'], [['a', 'OLD.asset_id'], ['a', 'NEW.asset_id']]],
  ['asset_tags', 'DELETE', null, ['tags'], [['a', 'OLD.asset_id']]],
  ['tags', 'UPDATE', null, ['tag_names'], []],
  ['tags', 'DELETE', null, ['tag_names'], []],
];
const ALL_DEPS: Dep[] = ['rows', 'trash', 'shape', 'media', 'time', 'type', 'liked', 'rating', 'meta', 'gps', 'name', 'path', 'albums', 'tags', 'tag_names', 'album_owners'];

/** Past this many logged changes the log stops and everything starts over. */
export const LOG_LIMIT = 50_000;

const installed = new WeakSet<Db>();

function install(db: Db): void {
  if (installed.has(db)) return;
  const sql = [
    'CREATE TEMP TABLE IF NOT EXISTS browse_versions (dep TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID',
    'CREATE TEMP TABLE IF NOT EXISTS browse_log (kind TEXT NOT NULL, key ANY NOT NULL, PRIMARY KEY (kind, key)) WITHOUT ROWID',
    ...[...ALL_DEPS, 'logged'].map((d) => `INSERT OR IGNORE INTO temp.browse_versions (dep, n) VALUES ('${d}', 0)`),
  ];
  TRIGGERS.forEach(([table, event, when, deps, log], i) => {
    const body: string[] = [];
    if (deps.length) body.push(`UPDATE temp.browse_versions SET n = n + 1 WHERE dep IN (${deps.map((d) => `'${d}'`).join(', ')});`);
    // Plain INSERT … WHERE NOT EXISTS, never OR IGNORE: inside a trigger the conflict policy of the
    // statement that fired it wins (an upsert would turn IGNORE into ABORT and fail that write).
    for (const [kind, value] of log) {
      body.push(
        `INSERT INTO temp.browse_log (kind, key) SELECT '${kind}', ${value}
           WHERE ${value} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM temp.browse_log l WHERE l.kind = '${kind}' AND l.key = ${value})
             AND (SELECT n FROM temp.browse_versions WHERE dep = 'logged') < ${LOG_LIMIT};
         UPDATE temp.browse_versions SET n = n + 1 WHERE dep = 'logged';`,
      );
    }
    sql.push(`CREATE TEMP TRIGGER IF NOT EXISTS browse_t${i}_${table} AFTER ${event} ON main.${table}${when ? ` WHEN ${when}` : ''} BEGIN ${body.join(' ')} END`);
  });
  db.exec(sql.join(';\n'));
  installed.add(db);
}

export interface Changes {
  rows: number[];
  assets: string[];
  items: string[];
  stacks: string[];
  /** Folders whose summary changed (`folderKey`). */
  folders: string[];
  /** More changed than the log keeps: start over. */
  overflow: boolean;
}

export interface Versions {
  /** PRAGMA data_version: changes when another connection wrote. */
  data: number;
  /** Changes logged since the last `take`. */
  logged: number;
  /** A string that changes when any of these counters moved (or another connection wrote). */
  of(deps: readonly Dep[]): string;
}

export class CatalogVersions {
  private readonly dataVersion;
  private readonly counters;
  private readonly readLog;
  private readonly clearLog;

  constructor(db: Db) {
    install(db);
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.counters = db.prepare('SELECT dep, n FROM temp.browse_versions').raw();
    this.readLog = db.prepare('SELECT kind, key FROM temp.browse_log').raw();
    const clear = [db.prepare('DELETE FROM temp.browse_log'), db.prepare("UPDATE temp.browse_versions SET n = 0 WHERE dep = 'logged'")];
    this.clearLog = () => clear.forEach((st) => st.run());
  }

  current(): Versions {
    const d = this.dataVersion.get() as number;
    const n = new Map(this.counters.all() as [string, number][]);
    return { data: d, logged: n.get('logged') ?? 0, of: (deps) => `${d}:${deps.map((k) => n.get(k) ?? 0).join('.')}` };
  }

  /** What the log named since the last call; the log starts empty again. */
  take(): Changes {
    const logged = (this.counters.all() as [string, number][]).find(([k]) => k === 'logged')?.[1] ?? 0;
    const out: Changes = { rows: [], assets: [], items: [], stacks: [], folders: [], overflow: logged >= LOG_LIMIT };
    for (const [kind, key] of this.readLog.all() as [Kind, string | number][]) {
      if (kind === 'r') out.rows.push(Number(key));
      else if (kind === 'a') out.assets.push(String(key));
      else if (kind === 'i') out.items.push(String(key));
      else if (kind === 'f') out.folders.push(String(key));
      else out.stacks.push(String(key));
    }
    this.clearLog();
    return out;
  }
}
