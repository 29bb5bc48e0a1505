/**
 * A test-only source: every file of a folder, with its facts from `<file>.json` next to it, through the one door.
 * It shows what a new source is: receive into staging, admit; dedup, crash safety and facts are the door's.
 * It imports nothing from features/assets (folder-source.test.ts checks).
 */
import fs from 'node:fs';
import path from 'node:path';
import { newStagingFile, type AdmissionResult, type CatalogDoor, type Intake, type RepositoryRef, type SourceFacts } from '../../../server/src/features/intake/index.ts';

export interface FolderRun {
  name: string;
  result: AdmissionResult;
}

export async function runFolderSource(door: CatalogDoor, intake: Intake, repository: RepositoryRef, ownerId: number, folder: string): Promise<FolderRun[]> {
  const runs: FolderRun[] = [];
  for (const name of fs.readdirSync(folder).filter((n) => !n.endsWith('.json')).sort()) {
    const file = path.join(folder, name);
    const sidecar = `${file}.json`;
    const facts: SourceFacts = fs.existsSync(sidecar) ? (JSON.parse(fs.readFileSync(sidecar, 'utf8')) as SourceFacts) : {};
    // The file's own date, the capture time of last resort (the staged copy's is only its arrival).
    const fileModified = { time: Math.floor(fs.statSync(file).mtimeMs), offsetMinutes: null };
    const staged = newStagingFile(repository.path);
    fs.mkdirSync(path.dirname(staged), { recursive: true });
    const got = await intake.receive(fs.createReadStream(file), staged, Number.MAX_SAFE_INTEGER);
    const result = await door.admit({
      source: 'import',
      ownerId,
      repository,
      file: { kind: 'staged', path: staged, hash: got.hash, size: got.size, head: got.head },
      facts: { originalName: name, fileModified, sourceRef: { source: 'folder', id: name }, ...facts },
    });
    runs.push({ name, result });
  }
  return runs;
}
