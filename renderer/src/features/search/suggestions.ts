/**
 * The suggestions under the search field, in the order a person wants them: what the typed words
 * will search for (with the filters the server understood in them), then matching tags, then recent
 * searches that contain the words. Each appears once; a recent search equal to the text is left out.
 */

export type Suggestion =
  | { kind: 'query'; id: string; query: string; chips: string[] }
  | { kind: 'tag'; id: string; query: string; tag: string }
  | { kind: 'recent'; id: string; query: string };

export const MAX_SUGGESTIONS = 8;

const fold = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

export function buildSuggestions(text: string, recent: readonly string[], tags: readonly string[], chipLabels: readonly string[]): Suggestion[] {
  const typed = fold(text);
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  if (typed) {
    out.push({ kind: 'query', id: 'query', query: text.trim(), chips: [...chipLabels] });
    seen.add(typed);
  }
  for (const tag of tags) {
    const key = fold(tag);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push({ kind: 'tag', id: `tag:${key}`, query: tag, tag });
  }
  for (const r of recent) {
    const key = fold(r);
    if (!key || seen.has(key) || (typed && !key.includes(typed))) continue;
    seen.add(key);
    out.push({ kind: 'recent', id: `recent:${key}`, query: r });
  }
  return out.slice(0, MAX_SUGGESTIONS);
}
