/**
 * Host actions at the home machine's screen: for each new request a member makes from another device
 * ("add a folder on the home machine"), a native notification and a dialog with who asks, the name and
 * purpose they gave, and the code their device shows too (so the person can tell two requests apart and
 * is sure whose they approve). "Choose folder…" opens the system folder picker and approves with the
 * chosen path; "Deny" denies; "Later" leaves the request waiting (until it expires, or the next start of
 * the app shows it again).
 *
 * The desktop reaches the server for this ONLY through the host channel (HOST-CHANNEL.md: a Unix socket
 * or named pipe plus an owner-only token file), through the client of
 * server/src/features/host-actions/host-channel.client.ts, which main.ts passes in as `HostApprovals`. The
 * path chosen here is the only path that ever enters Hearth for a host action, and it never crosses the
 * network.
 *
 * One prompt at a time (native dialogs stack badly): requests queue, each is shown once per run. A
 * request that changed meanwhile (cancelled or expired by the asking device, approved through the
 * command-line tool) is skipped when its turn comes, and an approval the server refuses is explained.
 */
import type { DesktopElectron, WindowApi } from './electron-api.ts';

/** What the host channel answers for an action (HOST-CHANNEL.md HostActionForHost), the fields used here. */
export interface HostActionForHost {
  id: string | number;
  status: string;
  name: string;
  purpose: string;
  code: string;
  expires_at?: string;
  requester: { user_id: string | number; username: string; display_name: string | null };
  result?: {
    conflict?: { type: string; allowed_resolutions: string[]; risk_warnings?: string[] } | null;
  } | null;
}

/** The host-channel client's part the app uses (createHostChannelClient's signatures). */
export interface HostApprovals {
  list(status?: string): Promise<HostActionForHost[]>;
  approve(id: HostActionForHost['id'], path: string): Promise<HostActionForHost>;
  deny(id: HostActionForHost['id']): Promise<HostActionForHost>;
  subscribe(onAction: (action: HostActionForHost) => void): () => void;
}

/** Statuses in which the person at the machine still has to answer. */
const AWAITING = new Set(['pending', 'presented']);

export const PROMPT_BUTTONS = ['Choose folder…', 'Deny', 'Later'] as const;

export interface HostPromptOptions {
  electron: DesktopElectron;
  approvals: HostApprovals;
  /** The app window, if open (dialogs are attached to it); `focus` shows it (a notification's click). */
  window: () => WindowApi | null;
  focus: () => void;
}

function who(a: HostActionForHost): string {
  return a.requester.display_name ? `${a.requester.display_name} (${a.requester.username})` : a.requester.username;
}

/** The conflict types of the server (features/host-actions ConflictSchema), in words for the person at the machine. */
const CONFLICTS: Record<string, string> = {
  already_registered: 'This folder is already in Hearth.',
  moved_or_copied: 'This folder is a library Hearth already knows, moved here or copied.',
  inside_repository: 'This folder lies inside a folder that is already in Hearth.',
  contains_repository: 'This folder contains a folder that is already in Hearth.',
  risky_folder: 'This folder needs care: it is a system folder or a very large one.',
};

export class HostPrompts {
  private readonly seen = new Set<string>();
  private readonly queue: HostActionForHost[] = [];
  /** The latest state of each queued action, from the event stream. */
  private readonly latest = new Map<string, HostActionForHost>();
  private running: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  /** What each prompt ended in, in order (for the log and the tests). */
  readonly outcomes: { id: string; outcome: 'approved' | 'denied' | 'later' | 'skipped' | 'refused' | 'conflict' }[] = [];

  constructor(private readonly opts: HostPromptOptions) {}

  /** Listens for new requests and shows the ones already waiting. */
  async start(): Promise<void> {
    this.unsubscribe = this.opts.approvals.subscribe((a) => this.offer(a));
    // Those still waiting from before this start: new ones (pending) and ones shown before but not answered.
    for (const status of ['pending', 'presented']) {
      for (const a of await this.opts.approvals.list(status)) this.offer(a);
    }
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Resolves when every queued prompt has been answered. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private offer(action: HostActionForHost): void {
    const id = String(action.id);
    this.latest.set(id, action);
    if (!AWAITING.has(action.status) || this.seen.has(id)) return;
    this.seen.add(id);
    this.queue.push(action);
    this.opts.electron.notify(
      { title: `${who(action)} asks to add a folder`, body: `"${action.name}" (${action.purpose}) · code ${action.code}` },
      () => this.opts.focus(),
    );
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  private async drain(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      const id = String(next.id);
      const current = this.latest.get(id) ?? next;
      if (!AWAITING.has(current.status)) {
        this.outcomes.push({ id, outcome: 'skipped' });
        continue;
      }
      this.outcomes.push({ id, outcome: await this.prompt(current) });
    }
  }

  private async prompt(a: HostActionForHost): Promise<HostPrompts['outcomes'][number]['outcome']> {
    const { dialog } = this.opts.electron;
    const win = this.opts.window();
    const expires = a.expires_at ? `\nThe request expires at ${new Date(a.expires_at).toLocaleTimeString()}.` : '';
    const { response } = await dialog.showMessageBox(win, {
      type: 'question',
      title: 'Add a folder to Hearth?',
      message: `${who(a)} asks to add a folder of this computer to Hearth.`,
      detail:
        `Name: ${a.name}\nPurpose: ${a.purpose}\nCode: ${a.code}\n\n` +
        `Check that the same code shows on their device. Then choose the folder; nobody on the network sees its path.${expires}`,
      buttons: [...PROMPT_BUTTONS],
      defaultId: 0,
      cancelId: 2,
    });
    const id = String(a.id);
    if (response === 1) return this.answer(a, () => this.opts.approvals.deny(a.id), 'denied');
    if (response !== 0) return 'later';
    const picked = await dialog.showOpenDialog(win, {
      title: `Choose the folder for "${a.name}"`,
      buttonLabel: 'Add to Hearth',
      properties: ['openDirectory', 'createDirectory'],
    });
    const folder = picked.filePaths[0];
    if (picked.canceled || !folder) return 'later';
    // Changed while the person was choosing (cancelled by the asking device, expired)?
    const now = this.latest.get(id);
    if (now && !AWAITING.has(now.status)) return 'skipped';
    return this.answer(a, () => this.opts.approvals.approve(a.id, folder), 'approved');
  }

  private async answer(
    a: HostActionForHost,
    send: () => Promise<HostActionForHost>,
    done: 'approved' | 'denied',
  ): Promise<'approved' | 'denied' | 'refused' | 'conflict'> {
    const { dialog } = this.opts.electron;
    try {
      const after = await send();
      const conflict = after.result?.conflict;
      if (done === 'approved' && conflict) {
        await dialog.showMessageBox(this.opts.window(), {
          type: 'warning',
          title: 'The folder needs a decision',
          message: CONFLICTS[conflict.type] ?? `The folder conflicts with one already in Hearth (${conflict.type}).`,
          detail: `${who(a)} chooses on their device what to do: ${conflict.allowed_resolutions.join(', ').replaceAll('_', ' ')}.`,
          buttons: ['OK'],
        });
        return 'conflict';
      }
      return done;
    } catch (e) {
      // The server's problem detail says why (expired, already answered, not a folder, unreadable…).
      await dialog.showMessageBox(this.opts.window(), {
        type: 'error',
        title: 'Hearth could not do that',
        message: done === 'approved' ? `The folder was not added for "${a.name}".` : `The request "${a.name}" could not be denied.`,
        detail: (e as Error).message,
        buttons: ['OK'],
      });
      return 'refused';
    }
  }
}
