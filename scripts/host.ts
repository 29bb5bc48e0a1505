/**
 * `npm run host`: approve host actions on a home server without a screen, from a shell on that machine. It
 * reaches the running server through the host channel (a socket in the data folder that only its owner can
 * open, plus the token file beside it: features/host-actions/host-channel.paths.ts), never the network.
 *
 *   npm run host -- list                      the requests waiting for this machine (who, what, code, until when)
 *   npm run host -- approve ID --path DIR     add the folder DIR (on this machine) for request ID
 *   npm run host -- deny ID                   refuse request ID
 *   npm run host -- pause | resume            pause or resume indexing on this machine (features/jobs/indexing-pause.ts)
 *   npm run host -- indexing                  whether indexing is paused
 *   … --data DIR                              the data folder (default: HEARTH_DATA_DIR, else ./data, as the server)
 *
 * Compare the code shown here with the one on the asking device before approving. Exit code 0 when done,
 * 1 when the server refused or is not reachable, 2 on a bad command line or configuration.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/src/config/env.ts';
import { createHostChannelClient, HostChannelError, type HostActionForHost } from '../server/src/features/host-actions/host-channel.client.ts';

const USAGE = 'usage: npm run host -- list | approve ID --path DIR | deny ID | pause | resume | indexing   [--data DIR]';

interface Command {
  verb: 'list' | 'approve' | 'deny' | 'pause' | 'resume' | 'indexing';
  id?: string;
  dir?: string;
  dataDir?: string;
}

function parse(argv: string[]): Command {
  const rest: string[] = [];
  let dir: string | undefined;
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--path') dir = argv[++i];
    else if (a === '--data') dataDir = argv[++i];
    else rest.push(a);
  }
  const [verb, id] = rest;
  if ((verb === 'list' || verb === 'pause' || verb === 'resume' || verb === 'indexing') && rest.length === 1) return { verb, dataDir };
  if (verb === 'deny' && id && rest.length === 2) return { verb, id, dataDir };
  if (verb === 'approve' && id && rest.length === 2 && dir) return { verb, id, dir, dataDir };
  throw new UsageError(USAGE);
}

class UsageError extends Error {}

const RESOLUTION_WORDS: Record<string, string> = {
  relocate: 'relocate (it is the registered repository, moved here: point it at this folder)',
  add_separate: 'add_separate (add it as a repository of its own; a copy gets a new identity)',
  cancel: 'cancel (leave everything as it is)',
};
const CONFLICT_WORDS: Record<string, string> = {
  already_registered: 'This folder is a repository already.',
  moved_or_copied: "This folder's marker names a repository registered elsewhere: it was moved here, or it is a copy.",
  inside_repository: 'This folder lies inside a registered repository (a file belongs to one repository only).',
  contains_repository: 'This folder contains a registered repository (a file belongs to one repository only).',
  risky_folder: 'This folder looks risky to add.',
};
const RISK_WORDS: Record<string, string> = {
  removable_drive: 'it is on a removable drive',
  system_folder: 'it is a system folder or a home folder itself',
  very_large_tree: 'it holds a very large tree of files',
  original_still_present: 'the registered repository is still at its old place',
};

function describe(a: HostActionForHost): string {
  const who = a.requester.display_name && a.requester.display_name !== a.requester.username ? `${a.requester.display_name} (${a.requester.username})` : a.requester.username;
  return [`${a.id}  [${a.status}]`, `  asked by: ${who}`, `  wants:    a ${a.purpose} repository named "${a.name}"`, `  code:     ${a.code}`, `  expires:  ${new Date(a.expires_at).toLocaleString()}`].join('\n');
}

function outcome(a: HostActionForHost): string {
  if (a.status === 'completed') return `Done: "${a.name}" is a repository now (${a.repository_id}); it is being scanned.`;
  if (a.status === 'needs_decision' && a.result?.conflict) {
    const c = a.result.conflict;
    const risks = c.risk_warnings.length ? `\n  Careful: ${c.risk_warnings.map((r) => RISK_WORDS[r] ?? r).join('; ')}.` : '';
    return `Not added yet. ${CONFLICT_WORDS[c.type] ?? c.type}${risks}\n  ${a.requester.username} chooses on their device: ${c.allowed_resolutions.map((r) => RESOLUTION_WORDS[r] ?? r).join(', or ')}.`;
  }
  if (a.status === 'failed') return `Failed: ${a.problem?.detail ?? 'unknown reason'}`;
  return `Now ${a.status}.`;
}

async function main(): Promise<number> {
  let cmd: Command;
  let dataDir: string;
  try {
    cmd = parse(process.argv.slice(2));
    dataDir = cmd.dataDir ? path.resolve(cmd.dataDir) : loadConfig().dataDir;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const host = createHostChannelClient({ dataDir });
  try {
    if (cmd.verb === 'list') {
      const items = await host.list();
      process.stdout.write(items.length ? `${items.map(describe).join('\n\n')}\n` : 'No request is waiting for this machine.\n');
    } else if (cmd.verb === 'pause' || cmd.verb === 'resume' || cmd.verb === 'indexing') {
      const state = cmd.verb === 'indexing' ? await host.indexing() : await host.setIndexingPaused(cmd.verb === 'pause');
      process.stdout.write(state.paused ? `Indexing is paused (since ${new Date(state.paused_at!).toLocaleString()}): new photos wait; npm run host -- resume\n` : 'Indexing runs.\n');
    } else if (cmd.verb === 'approve') {
      const a = await host.approve(cmd.id!, path.resolve(cmd.dir!));
      process.stdout.write(`${describe(a)}\n${outcome(a)}\n`);
      if (a.status === 'failed') return 1;
    } else {
      const a = await host.deny(cmd.id!);
      process.stdout.write(`${describe(a)}\nDenied.\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof HostChannelError) {
      process.stderr.write(`${e.message}${e.code && e.status ? ` (${e.code})` : ''}\n`);
      return 1;
    }
    throw e;
  }
}

main().then((code) => process.exit(code), (e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
