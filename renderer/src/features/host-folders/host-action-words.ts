/**
 * A host action in words a household member understands: where it stands, what is in the way when the home
 * machine found a conflict, and what each choice does. No path is ever shown: the member never sees where the
 * folder is on the home machine (the server never sends it), only the name they gave it.
 */
import type { HostAction, HostActionConflict, HostActionStatus, Resolution } from './host-actions-api';

export const STATUS_WORDS: Record<HostActionStatus, string> = {
  pending: 'Waiting for the home machine',
  presented: 'Shown on the home machine',
  running: 'Adding the folder',
  needs_decision: 'Your choice is needed',
  completed: 'Added',
  failed: 'Could not be added',
  cancelled: 'Cancelled',
  expired: 'Nobody answered in time',
};

/** One sentence under the status: what happens next, or what happened. */
export function statusSentence(a: HostAction): string {
  switch (a.status) {
    case 'pending':
      return 'Go to the home machine: Hearth asks there which folder to add. Check that it shows the same code.';
    case 'presented':
      return 'The request is on the home machine’s screen. Choose the folder there; this page follows along.';
    case 'running':
      return 'The folder was chosen. Hearth is adding it to the library.';
    case 'needs_decision':
      return conflictSentence(a.result?.conflict ?? null);
    case 'completed':
      return 'The folder is in the library now. Its photos appear as Hearth finds them.';
    case 'failed':
      return a.problem?.detail ?? 'Something went wrong while adding the folder.';
    case 'cancelled':
      return a.cancel_reason === 'host_denied' ? 'The person at the home machine said no.' : 'You cancelled this request.';
    case 'expired':
      return 'Nobody chose a folder on the home machine in time. Ask again when someone is there.';
  }
}

const CONFLICT_WORDS: Record<HostActionConflict['type'], string> = {
  already_registered: 'That folder is in the library already.',
  moved_or_copied:
    'That folder holds a Hearth library folder that is registered at another place. Either it was moved here, or it is a copy. Only you know which.',
  inside_repository: 'That folder is inside a folder the library already holds. A photo can belong to one library folder only.',
  contains_repository: 'That folder holds a folder the library already has. A photo can belong to one library folder only.',
  risky_folder: 'That folder may not be a good choice for a photo library.',
};

function conflictSentence(c: HostActionConflict | null): string {
  return c ? CONFLICT_WORDS[c.type] : 'The home machine found something in the way.';
}

export const RISK_WORDS: Record<HostActionConflict['risk_warnings'][number], string> = {
  removable_drive: 'It is on a drive that can be unplugged: while it is away, its photos are shown as offline.',
  system_folder: 'It is a system folder, or the whole home folder, not a folder of photos.',
  very_large_tree: 'It holds a very large number of files and folders: looking through it all takes long.',
  original_still_present: 'The folder registered before is still at its old place, so this is most likely a copy.',
};

/** The button's words and a line on what the choice does. */
export const RESOLUTION_WORDS: Record<Resolution, { label: string; explain: string }> = {
  relocate: { label: 'It was moved here', explain: 'Hearth follows the folder to its new place; its photos keep their albums, people and edits.' },
  add_separate: { label: 'Add it as a separate folder', explain: 'Hearth adds it as a new library folder of its own; photos already in the library are not stored twice.' },
  cancel: { label: 'Leave it', explain: 'Nothing is added or changed.' },
};

/** "to be answered within 14 minutes": how long the home machine has left (read when the card renders). */
export function answerWithin(expiresAt: string, now = Date.now()): string {
  const minutes = Math.ceil((Date.parse(expiresAt) - now) / 60_000);
  if (!(minutes > 1)) return 'to be answered within a minute';
  if (minutes < 120) return `to be answered within ${minutes} minutes`;
  return `to be answered within ${Math.round(minutes / 60)} hours`;
}
