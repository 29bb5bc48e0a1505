/**
 * Is a repository's folder there, readable, and still the same repository? Checked at start, before
 * every scan, on every scheduler tick and when the watcher sees the folder itself disappear.
 *
 * | reachability | pause_reason        | when                                                            |
 * |--------------|---------------------|-----------------------------------------------------------------|
 * | active       | null                | the folder is readable and its marker carries the repository id |
 * | offline      | `offline`           | the folder is gone (disk unplugged, share unmounted, moved)     |
 * | error        | `permission_denied` | Hearth may not list the folder                                  |
 * | error        | `marker_missing`    | the folder is there but `.hearth-repo` is not                   |
 * | error        | `marker_invalid`    | `.hearth-repo` cannot be read as a Hearth marker                |
 * | error        | `marker_mismatch`   | `.hearth-repo` names another repository (a different folder)     |
 *
 * Messages never contain the folder's path (members see them; only administrators see paths).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeFsError, errnoCode } from '../../adapters/fs/paths.ts';
import { MARKER_FILE, MarkerSchema } from './marker.ts';

export type PauseReason = 'offline' | 'permission_denied' | 'marker_missing' | 'marker_invalid' | 'marker_mismatch';

export type Reachability =
  | { status: 'active' }
  | { status: 'offline' | 'error'; reason: PauseReason; message: string };

export function checkRepositoryFolder(dir: string, expectedId: string): Reachability {
  try {
    const st = fs.statSync(dir);
    if (!st.isDirectory()) return { status: 'offline', reason: 'offline', message: 'The repository path is no longer a folder.' };
    fs.readdirSync(dir); // permission to list
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'EACCES' || code === 'EPERM') {
      return { status: 'error', reason: 'permission_denied', message: 'Hearth may not read the repository folder (permission denied).' };
    }
    return {
      status: 'offline',
      reason: 'offline',
      message: code === 'ENOENT' || code === 'ENOTDIR'
        ? 'The repository folder cannot be found: is its disk plugged in or its share mounted?'
        : `The repository folder cannot be read (${describeFsError(e)}).`,
    };
  }
  let raw: string;
  try {
    raw = fs.readFileSync(path.join(dir, MARKER_FILE), 'utf8');
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT') {
      return { status: 'error', reason: 'marker_missing', message: `The ${MARKER_FILE} marker is missing from the repository folder: restore it to resume.` };
    }
    if (code === 'EACCES' || code === 'EPERM') {
      return { status: 'error', reason: 'permission_denied', message: `Hearth may not read the ${MARKER_FILE} marker (permission denied).` };
    }
    return { status: 'offline', reason: 'offline', message: `The ${MARKER_FILE} marker cannot be read (${describeFsError(e)}).` };
  }
  let parsed;
  try {
    parsed = MarkerSchema.safeParse(JSON.parse(raw));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) return { status: 'error', reason: 'marker_invalid', message: `The ${MARKER_FILE} marker is not valid Hearth marker JSON.` };
  if (parsed.data.id !== expectedId) {
    return {
      status: 'error',
      reason: 'marker_mismatch',
      message: `The ${MARKER_FILE} marker now names another repository (${parsed.data.id}): the folder was replaced or its marker changed.`,
    };
  }
  return { status: 'active' };
}

/** status_detail as stored: `<reason>: <message>`. */
export function encodeDetail(r: Reachability): string | null {
  return r.status === 'active' ? null : `${r.reason}: ${r.message}`;
}

export function decodeDetail(detail: string | null): { reason: PauseReason | null; message: string | null } {
  if (!detail) return { reason: null, message: null };
  const m = /^([a-z_]+): ([\s\S]*)$/.exec(detail);
  return m ? { reason: m[1] as PauseReason, message: m[2]! } : { reason: null, message: detail };
}
