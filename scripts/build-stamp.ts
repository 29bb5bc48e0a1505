/**
 * "Is this build up to date?" for `npm start` (scripts/start.ts): a SHA-256 over the names and bytes of a
 * build's inputs, kept in a stamp file inside its output folder. Contents decide, not modification times: a
 * checkout or a copy that touches files without changing them does not rebuild, and a change that keeps a
 * file's time (an editor that restores it, a clock change) still does.
 *
 * Reading every input at each start (about 3 MB for the UI and the server) cost 0.1–0.2 s of a start on a
 * busy machine, so the stamp also keeps a key of the inputs' names, sizes and modification times: when that
 * key is unchanged the contents are not read again. When it changed, the contents decide, and an unchanged
 * content only refreshes the key.
 *
 * Runs under plain `node` (type stripping), before anything is built: no TypeScript-only syntax here.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Every file under `inputs` (files or folders, relative to `root`), skipping any path segment in `skip`. */
function listFiles(root: string, inputs: readonly string[], skip: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = path.join(root, rel);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      return; // an optional input that is not there is part of the state too: it hashes as absent
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) if (!skip.has(name)) walk(path.join(rel, name));
    } else if (st.isFile()) out.push(rel);
  };
  for (const i of inputs) walk(i);
  return out;
}

export function inputsHash(root: string, inputs: readonly string[], skip: readonly string[] = []): string {
  const h = crypto.createHash('sha256');
  for (const rel of listFiles(root, inputs, new Set(skip))) {
    h.update(rel.split(path.sep).join('/'));
    h.update('\0');
    h.update(fs.readFileSync(path.join(root, rel)));
    h.update('\0');
  }
  return h.digest('hex');
}

/** Names, sizes and modification times of the inputs: cheap (no reads), and changes when they are touched. */
export function inputsStatKey(root: string, inputs: readonly string[], skip: readonly string[] = []): string {
  const h = crypto.createHash('sha256');
  for (const rel of listFiles(root, inputs, new Set(skip))) {
    const st = fs.statSync(path.join(root, rel));
    h.update(`${rel.split(path.sep).join('/')}\0${st.size}\0${st.mtimeMs}\0`);
  }
  return h.digest('hex');
}

interface Stamp {
  content: string;
  stat: string;
}

function readStamp(stampFile: string): Stamp | null {
  try {
    const s = JSON.parse(fs.readFileSync(stampFile, 'utf8')) as Partial<Stamp>;
    return typeof s.content === 'string' && typeof s.stat === 'string' ? { content: s.content, stat: s.stat } : null;
  } catch {
    return null;
  }
}

function writeStamp(stampFile: string, stamp: Stamp): void {
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, `${JSON.stringify(stamp)}\n`);
}

export interface BuildCheck {
  /** The build in the stamp's folder was made from these inputs. */
  current: boolean;
  /** After a successful build: records the inputs it was made from. */
  record(): void;
}

/** Compares the inputs with the stamp a previous build left (see the top of this file). */
export function checkBuild(stampFile: string, root: string, inputs: readonly string[], skip: readonly string[] = []): BuildCheck {
  const stamp = readStamp(stampFile);
  const stat = inputsStatKey(root, inputs, skip);
  if (stamp && stamp.stat === stat) return { current: true, record: () => writeStamp(stampFile, stamp) };
  const content = inputsHash(root, inputs, skip);
  const record = () => writeStamp(stampFile, { content, stat });
  const current = stamp?.content === content;
  if (current) record(); // touched, not changed: next time the cheap key answers
  return { current, record };
}
