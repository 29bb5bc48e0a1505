/**
 * What lets an upload resume after the page is reloaded or the browser restarts: per file (name,
 * size, last-modified time) the server session it was going to, with the chunk layout. Kept in
 * localStorage per account, removed when the file reaches a final state, forgotten after a week
 * (the server drops idle sessions after a day by default). Nothing of the file's content is kept.
 */
export interface ResumeRecord {
  key: string;
  name: string;
  size: number;
  lastModified: number;
  sessionId: string;
  receiptId: string;
  totalChunks: number;
  chunkSize: number;
  /** Chunks the server had at the last look (for showing progress while paused). */
  receivedChunks: number;
  updatedAt: number;
}

const MAX_AGE_MS = 7 * 24 * 3_600_000;

export function fileKey(f: { name: string; size: number; lastModified: number }): string {
  return `${f.name}\u0000${f.size}\u0000${f.lastModified}`;
}

export class ResumeStore {
  private readonly storageKey: string;

  constructor(userId: number) {
    this.storageKey = `hearth.uploads.v1.${userId}`;
  }

  all(): ResumeRecord[] {
    try {
      const raw = localStorage.getItem(this.storageKey);
      const list = raw ? (JSON.parse(raw) as ResumeRecord[]) : [];
      const fresh = Array.isArray(list) ? list.filter((r) => r && typeof r.sessionId === 'string' && Date.now() - r.updatedAt < MAX_AGE_MS) : [];
      if (fresh.length !== list.length) this.write(fresh);
      return fresh;
    } catch {
      return [];
    }
  }

  get(key: string): ResumeRecord | undefined {
    return this.all().find((r) => r.key === key);
  }

  put(record: ResumeRecord): void {
    this.write([...this.all().filter((r) => r.key !== record.key), record]);
  }

  remove(key: string): void {
    const list = this.all();
    if (list.some((r) => r.key === key)) this.write(list.filter((r) => r.key !== key));
  }

  private write(list: ResumeRecord[]): void {
    try {
      if (list.length) localStorage.setItem(this.storageKey, JSON.stringify(list));
      else localStorage.removeItem(this.storageKey);
    } catch {
      // Storage full or disabled (private mode): uploads still work, they just cannot resume after a reload.
    }
  }
}
