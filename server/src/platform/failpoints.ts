/**
 * Crash points for the crash-recovery tests: `failpoint('name')` kills this process at once
 * (SIGKILL: no cleanup, no flushing, exactly what a power cut or the OOM killer leaves) when the
 * server was started with HEARTH_FAILPOINT=name. Without the variable it does nothing.
 *
 * Why: some crash windows are a few microseconds wide (a file committed into the repository and not
 * yet in the catalog). A test that kills the server from outside at random finds them only by luck;
 * a named point lets a test crash there every time and show what the next start makes of it.
 */
const ARMED = process.env.HEARTH_FAILPOINT ?? '';

/** Names of the points (one place to read where the tests crash the server). */
export type FailpointName = 'intake.after-commit' | 'upload.after-commit' | 'asset.process' | 'semantic.stored';

export function failpoint(name: FailpointName): void {
  if (ARMED === name) process.kill(process.pid, 'SIGKILL');
}
