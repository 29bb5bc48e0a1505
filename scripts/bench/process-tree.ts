/**
 * A process and all its descendants, read from Linux /proc: what a user's `npm start` really costs in
 * memory is the npm process, the shell it runs the script in, any launcher, and the server, not the
 * server alone. Used by scripts/bench/footprint.ts.
 *
 * The sum of VmRSS counts pages shared between the processes (the node binary and its libraries, mapped
 * by npm and by the server) once per process, as `ps` and `top` show them; the sum of Pss (proportional
 * set size, /proc/<pid>/smaps_rollup) shares them out, so it is what the tree adds to the machine.
 */
import fs from 'node:fs';

export interface TreeProcess {
  pid: number;
  /** The command line, shortened for a report. */
  command: string;
  rssMb: number;
  pssMb: number | null;
  /** The parent's pid (/proc/<pid>/stat). */
  ppid: number;
}

function read(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null; // the process exited meanwhile
  }
}

/** The direct children of a process: the `children` list of each of its threads (Linux ≥ 3.5). */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) => (read(`/proc/${pid}/task/${tid}/children`) ?? '').trim().split(/\s+/).filter(Boolean).map(Number));
}

function kb(text: string | null, field: string): number | null {
  const m = text ? new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text) : null;
  return m ? Number(m[1]) : null;
}

function describe(pid: number): TreeProcess | null {
  const rss = kb(read(`/proc/${pid}/status`), 'VmRSS');
  if (rss === null) return null;
  const pss = kb(read(`/proc/${pid}/smaps_rollup`), 'Pss');
  const argv = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean);
  // `node -e <program>` (the inference workers, inference-runner.ts): the program's text is no name.
  const shown = argv[1] === '-e' ? [argv[0]!, '-e', '…'] : argv;
  const command = shown.map((a) => (a.includes('/node_modules/') || a.startsWith('/') ? a.slice(a.lastIndexOf('/') + 1) : a)).join(' ').slice(0, 70);
  const ppid = Number(/\) \S+ (\d+)/.exec(read(`/proc/${pid}/stat`) ?? '')?.[1] ?? 0);
  return { pid, command, rssMb: rss / 1024, pssMb: pss === null ? null : pss / 1024, ppid };
}

/** The process and every descendant alive now, parents before children. */
export function processTree(rootPid: number): TreeProcess[] {
  const out: TreeProcess[] = [];
  const walk = (pid: number) => {
    const p = describe(pid);
    if (!p) return;
    out.push(p);
    for (const c of childrenOf(pid)) walk(c);
  };
  walk(rootPid);
  return out;
}

export function treeTotals(tree: TreeProcess[]): { rssMb: number; pssMb: number | null } {
  const pss = tree.every((p) => p.pssMb !== null) ? tree.reduce((n, p) => n + p.pssMb!, 0) : null;
  return { rssMb: tree.reduce((n, p) => n + p.rssMb, 0), pssMb: pss };
}

/** "412 MB RSS (PSS 380 MB) in 3 processes: npm start 61, sh 1, node main.js 350". */
export function describeTree(tree: TreeProcess[]): string {
  const { rssMb, pssMb } = treeTotals(tree);
  const parts = tree.map((p) => `${p.command} ${p.rssMb.toFixed(0)}`).join(', ');
  return `${rssMb.toFixed(0)} MB RSS (PSS ${pssMb === null ? '?' : pssMb.toFixed(0)} MB) in ${tree.length} process${tree.length === 1 ? '' : 'es'}: ${parts}`;
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux in use). */
export const CLOCK_TICKS = 100;

/** utime + stime (and, with `reaped`, cutime + cstime: its ended and waited-for children) of one process, in ticks. */
function ticksOf(pid: number, reaped: boolean): number {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return 0;
  // The fields after the command's closing parenthesis start at field 3 (state): utime is field 14.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return f[11]! + f[12]! + (reaped ? f[13]! + f[14]! : 0);
}

/**
 * CPU seconds used so far by a process and everything it started: itself, its children alive now, and its
 * children that ended (counted by the kernel in the parent once waited for, which Node does). The server's
 * inference runs in child processes (adapters/ml/inference-runner.ts), so a figure of the process alone
 * would leave the models out and count them under "other processes". Linux only; null elsewhere.
 */
export function treeCpuSeconds(rootPid: number = process.pid): number | null {
  if (!fs.existsSync(`/proc/${rootPid}/stat`)) return null;
  let ticks = 0;
  const walk = (pid: number) => {
    ticks += ticksOf(pid, true);
    for (const c of childrenOf(pid)) walk(c);
  };
  walk(rootPid);
  return ticks / CLOCK_TICKS;
}
