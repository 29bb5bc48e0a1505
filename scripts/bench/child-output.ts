/** Waiting for a child process of a bench to say it is ready (a line on its stdout). */
import type { ChildProcess } from 'node:child_process';

/** Resolves with the first match of `re` in the child's stdout; rejects if the child exits first. */
export function waitForLine(child: ChildProcess, re: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = re.exec(buf);
      if (m) resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before ready:\n${buf}`)));
  });
}
