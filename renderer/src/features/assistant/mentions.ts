/**
 * Mentions in the composer: `@` offers people, `#` offers albums. A chosen one is written into the text as
 * `@Name` / `#Album name` and remembered with its id; when the question is sent, each chosen mention still in
 * the text leaves the words and goes as a structured mention by id (the server's `mentions`).
 *
 * Why by id and out of the words: the server also reads `@Name` in the text, but only a single word
 * (`@Anna`), so `@Anna Maria` would be read as `@Anna` and the word "Maria". The built-in planner takes mention
 * words out of the text anyway (they are refs, not words), so the request reads the same to it. A mention
 * typed by hand and not chosen stays in the text: the server resolves it or says it dropped it.
 */
import type { Mention } from './agent-types.ts';

export interface Chosen {
  type: 'person' | 'album';
  id: number;
  label: string;
}

export const sigilOf = (type: Chosen['type']) => (type === 'person' ? '@' : '#');

/** The mention being typed just before the caret: `@An` → person "An". */
export function typingMention(text: string, caret: number): { type: Chosen['type']; query: string; start: number } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)([@#])([^\s@#]{0,40})$/u.exec(before);
  if (!m) return null;
  return { type: m[2] === '@' ? 'person' : 'album', query: m[3]!, start: before.length - m[3]!.length - 1 };
}

/** The text with the mention being typed (from `start` to the caret) replaced by the chosen one. */
export function insertMention(text: string, start: number, caret: number, chosen: Chosen): { text: string; caret: number } {
  const token = `${sigilOf(chosen.type)}${chosen.label} `;
  const next = text.slice(0, start) + token + text.slice(caret).replace(/^\s+/, '');
  return { text: next, caret: start + token.length };
}

/** The options for what is typed: names that start with it first, then names that hold it. */
export function matchOptions<T extends { label: string }>(options: readonly T[], query: string, max = 8): T[] {
  const q = query.toLocaleLowerCase();
  const starts = options.filter((o) => o.label.toLocaleLowerCase().startsWith(q));
  const holds = options.filter((o) => !o.label.toLocaleLowerCase().startsWith(q) && o.label.toLocaleLowerCase().includes(q));
  return [...starts, ...holds].slice(0, max);
}

/** The question as sent: chosen mentions still in the text leave it and go by id. */
export function toRequest(text: string, chosen: readonly Chosen[]): { query: string; mentions: Mention[] } {
  let query = text;
  const mentions: Mention[] = [];
  const seen = new Set<string>();
  // Longest labels first, so "#Trip 2019" is taken before "#Trip".
  for (const c of [...chosen].sort((a, b) => b.label.length - a.label.length)) {
    const token = `${sigilOf(c.type)}${c.label}`;
    if (!query.includes(token)) continue;
    query = query.split(token).join(' ');
    const key = `${c.type}:${c.id}`;
    if (!seen.has(key)) mentions.push({ type: c.type, id: c.id, label: c.label });
    seen.add(key);
  }
  query = query.replace(/\s+/g, ' ').trim();
  // Only mentions: the planner reads that as "show" them.
  return { query: query || 'show', mentions };
}
