/**
 * The planner that needs no language model: common requests in English, read by patterns, answered with
 * the same tools, events, cards and confirmations as a model would use.
 *
 * What it understands (the first pattern that matches wins; the words after the verb are "the set"):
 * - declines: deleting for good, editing pixels, sending or sharing outside, and anything it has no tool for;
 * - compare: "compare 2019 and 2020", "compare cameras [in|of …]" (counts per year, or the set's cameras);
 * - who: "who is in …" (the named people of the set);
 * - count and describe: "how many …", "count …", "describe …", "what's in …" ("with which camera": cameras);
 * - make an album: "make an album [called X] of …" (the name: quoted, after "called"/"named", else the set's words);
 *   "add … to (the album X | #X)";
 * - tag: "tag … as|with X[, Y]"; like: "like …", "favourite …"; Trash: "move … to the trash", "trash …";
 * - best N: "best 10 …", "top five …", "… one per day|place" (quality ranking, one per group);
 * - find and show: "find …", "show …", "where is …", or anything else that reads as a set.
 * - events: in any of the above, words naming an occasion ("from Grandma's birthday") are looked up among the
 *   library's events by title (lookup_events, search_events), and the rest of the words narrow that event's photos.
 * The set is read by the search feature's plain-language parser (filter_assets with `query`): dates ("last
 * summer", "in 2019", "Christmas 2022"), places ("in Lisbon"), people, cameras, media types. "the weekend of
 * 4 July" is read here (the Saturday and Sunday of the week holding that day, its latest past occurrence when
 * no year is given) and handed on as dates. Words the parser does not understand are searched as words
 * (search_semantic: file names, places, text in photos, likeness) and intersected with the rest; the answer
 * says plainly which words it did not understand and what it did instead. `@Name` and `#Album` arrive as
 * mention refs (engine.ts) and narrow the set.
 * Follow-ups: "them", "these", "those photos", "the same ones", "it" (alone, or after "of" / "from" / "best 3 of")
 * name the last set of the conversation: the last ref a tool answered in the thread's recent messages ("show
 * videos from 2017", then "make an album of them"). With none, it says so and asks for the set in words.
 */
import type { Planner, PlannerInput, PlanStep, StepResult } from './planner.ts';

type Gen = AsyncGenerator<PlanStep, void, StepResult | undefined>;
type Ok = Extract<StepResult, { ok: true }>;

/** Words that name an occasion: the set may be an event of the library (its title set by the household). */
const OCCASION = /\b(birthday|wedding|party|trip|holiday|holidays|vacation|visit|anniversary|graduation|reunion|festival|christening|baptism|concert|event)\b/i;

const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, fifteen: 15, twenty: 20, a: 1 };
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const DECLINE: { re: RegExp; say: string }[] = [
  { re: /\b(delete|erase|wipe|destroy|permanently remove|remove (?:for good|permanently))\b/, say: 'I never delete photos. I can move them to the Trash, where they can be restored: ask me to "move … to the trash".' },
  { re: /\b(crop|rotate|edit|retouch|enhance|filter the colou?rs|photoshop|upscale|colou?ri[sz]e)\b/, say: 'I cannot change the pictures themselves (cropping, editing, enhancing). I can find, count, describe, tag, like and put photos in albums.' },
  { re: /\b(send|e-?mail|text|post|upload|publish|share)\b.*\b(to|with|on)\b/, say: 'I cannot send or share photos outside the library. You can make a share link from an album yourself.' },
  { re: /\b(print|order prints|buy)\b/, say: 'I cannot order prints or buy anything.' },
  { re: /\b(weather|news|stock|recipe|joke|poem|translate)\b/, say: 'I only know your photo library: ask me to find, count, describe or organise photos.' },
];

export class DeterministicPlanner implements Planner {
  readonly name = 'deterministic';
  /** The counts of the mentions' refs (known before any call). */
  private mentionCounts = new Map<string, number>();
  /** The mode offers the event tools (free does; the others read sets by filters only). */
  private eventsUsable = false;
  /** The last set the conversation answered before this request (a follow-up's "them"). */
  private previous: { ref: string; count: number; title: string } | null = null;

  async *plan(input: PlannerInput): Gen {
    const last = [...input.messages].reverse().find((m) => m.role === 'user');
    const original = (last?.content ?? '').trim();
    // Mentions are refs already (engine.ts): their words leave the text.
    const text = original
      .replace(/(^|\s)[@#][\p{L}\p{N}][\p{L}\p{N}_'-]*/gu, ' ')
      .replace(/[?!.]+$/, '')
      .replace(/\s+/g, ' ')
      .trim();
    const t = text.toLowerCase();
    const has = (tool: string) => input.tools.some((x) => x.name === tool);
    this.eventsUsable = has('lookup_events') && has('search_events');
    const mentionRefs = input.mentions.filter((m) => m.ref_id).map((m) => m.ref_id!);
    this.mentionCounts = new Map(input.mentions.filter((m) => m.ref_id).map((m) => [m.ref_id!, m.count ?? 0]));
    this.previous = last ? lastSetOf(input.messages.slice(0, input.messages.lastIndexOf(last))) : null;

    if (!original) {
      yield say('Ask me about your photos: "show videos from 2019", "how many photos did we take in 2023", "make an album of the best beach photos from last summer, one per day".');
      return;
    }
    for (const d of DECLINE) {
      if (d.re.test(t) && !/\btrash\b/.test(t)) {
        yield say(d.say);
        return;
      }
    }

    let m: RegExpMatchArray | null;
    if ((m = t.match(/^compare\s+(\d{4})\s+(?:and|with|to|vs\.?|versus)\s+(\d{4})\b\s*(.*)$/))) {
      yield* this.compareYears(Number(m[1]), Number(m[2]), m[3] ?? '');
      return;
    }
    if ((m = t.match(/^compare\s+(?:the\s+)?(?:cameras?|lenses)\b\s*(?:(?:in|of|for|from|used (?:in|for))\s+)?(.*)$/))) {
      yield* this.compareCameras(text.slice(text.length - m[1]!.length), mentionRefs);
      return;
    }
    if ((m = t.match(/^who(?:'s| is| are| was| were)?\s+(?:in|on)\s+(.*)$/))) {
      const set = yield* this.findSet(text.slice(text.length - m[1]!.length), mentionRefs);
      if (!set) return;
      const d = yield* this.call('describe', { ref: set.ref });
      if (!d) return;
      const people = (d.data?.facets as { top_people: { name: string; count: number }[] } | undefined)?.top_people ?? [];
      yield say(people.length ? `In these ${set.count} photos: ${people.map((p) => `${p.name} (${p.count})`).join(', ')}.` : `I found ${set.count} photos, but nobody you have named is in them.`);
      return;
    }
    if ((m = t.match(/^(?:how many|count|number of|describe|summari[sz]e|what(?:'s| is) in|tell me about)\b\s*(.*)$/))) {
      const rest = text.slice(text.length - m[1]!.length);
      const wantCamera = /\b(?:and\s+)?(?:with|on|using)\s+which\s+cameras?\b|\bwhich cameras?\b/i.test(rest);
      const setText = rest.replace(/,?\s*(?:and\s+)?(?:with|on|using)\s+which\s+cameras?\b.*$/i, '').replace(/^(?:photos|pictures|pics)\s+(?:did|have)\s+(?:we|i)\s+(?:take|taken|shoot|shot)\b\s*/i, '');
      const set = yield* this.findSet(setText, mentionRefs);
      if (!set) return;
      const d = yield* this.call('describe', { ref: set.ref });
      if (!d) return;
      yield* this.call('show', { ref: set.ref, widget: 'number_card', title: `${set.count} ${set.count === 1 ? 'item' : 'items'}` });
      yield say(describeText(set.count, d.data?.facets as FacetsLike, wantCamera));
      return;
    }
    if ((m = t.match(/^(?:please\s+)?(?:make|create|build|start)\s+(?:me\s+)?(?:an?\s+|the\s+)?(?:new\s+)?album\b\s*(.*)$/))) {
      if (!has('create_album')) return yield* this.notInMode('make albums');
      let rest = text.slice(text.length - m[1]!.length);
      let name: string | null = null;
      const q = rest.match(/["“']([^"”']{1,200})["”']/);
      if (q) {
        name = q[1]!.trim();
        rest = rest.replace(q[0], ' ');
      }
      const called = rest.match(/\b(?:called|named|titled)\s+(.+?)(?=\s+(?:of|from|with)\s|$)/i);
      if (!name && called) {
        name = called[1]!.trim();
        rest = rest.replace(called[0], ' ');
      } else if (called) rest = rest.replace(called[0], ' ');
      rest = rest.replace(/^\s*(?:called|named)\s*/i, '').replace(/^\s*(?:of|from|with|for)\s+/i, '').trim();
      const set = yield* this.bestOrSet(rest, mentionRefs);
      if (!set) return;
      yield* this.call('create_album', { ref: set.ref, name: name ?? (FOLLOW_UP.test(rest) && this.previous ? this.previous.title : titleOf(rest)) });
      return;
    }
    if ((m = t.match(/^(?:please\s+)?(?:add|put)\s+(.+?)\s+(?:to|in|into)\s+(?:the\s+|my\s+)?album\s*(.*)$/)) || (m = t.match(/^(?:please\s+)?(?:add|put)\s+(.+?)\s+(?:to|in|into)\s*$/))) {
      if (!has('add_to_album')) return yield* this.notInMode('add to albums');
      const setWords = text.slice(t.indexOf(m[1]!), t.indexOf(m[1]!) + m[1]!.length);
      const albumName = (m[2] ?? '').replace(/["“”']/g, '').trim();
      const albumMention = input.mentions.find((x) => x.type === 'album');
      let albumId: number | undefined;
      if (albumMention?.id !== undefined) albumId = Number(albumMention.id);
      else if (albumName) {
        const l = yield* this.call('lookup_albums', { name: albumName });
        const found = (l?.data?.albums as { album_id: number; album_name: string }[] | undefined)?.find((a) => a.album_name.toLowerCase() === albumName.toLowerCase()) ?? (l?.data?.albums as { album_id: number }[] | undefined)?.[0];
        albumId = found?.album_id;
      }
      if (albumId === undefined) {
        yield say(`I could not find the album${albumName ? ` "${albumName}"` : ''}. Name it exactly, or mention it with #.`);
        return;
      }
      const set = yield* this.findSet(setWords, mentionRefs.filter((r) => r !== albumMention?.ref_id));
      if (!set) return;
      yield* this.call('add_to_album', { ref: set.ref, album_id: albumId });
      return;
    }
    if ((m = t.match(/^(?:please\s+)?tag\s+(.+?)\s+(?:as|with)\s+(.+)$/))) {
      if (!has('tag_assets')) return yield* this.notInMode('tag photos');
      const tags = text
        .slice(text.length - m[2]!.length)
        .split(/\s*(?:,|\band\b)\s*/)
        .map((x) => x.replace(/["“”']/g, '').trim())
        .filter(Boolean)
        .slice(0, 10);
      const set = yield* this.findSet(text.slice(t.indexOf(m[1]!), t.indexOf(m[1]!) + m[1]!.length), mentionRefs);
      if (!set) return;
      yield* this.call('tag_assets', { ref: set.ref, tags });
      return;
    }
    if ((m = t.match(/^(?:please\s+)?(like|unlike|favou?rite|heart)\s+(.*)$/))) {
      if (!has('bulk_like_assets')) return yield* this.notInMode('like photos');
      const set = yield* this.findSet(text.slice(text.length - m[2]!.length), mentionRefs);
      if (!set) return;
      yield* this.call('bulk_like_assets', { ref: set.ref, liked: m[1] !== 'unlike' });
      return;
    }
    if ((m = t.match(/^(?:please\s+)?(?:move|put|send)\s+(.+?)\s+(?:to|in|into)\s+(?:the\s+)?(?:trash|bin)$/)) || (m = t.match(/^(?:please\s+)?(?:trash|bin)\s+(.+)$/))) {
      if (!has('trash_assets')) return yield* this.notInMode('move photos to the Trash');
      const set = yield* this.findSet(text.slice(t.indexOf(m[1]!), t.indexOf(m[1]!) + m[1]!.length), mentionRefs);
      if (!set) return;
      yield* this.call('trash_assets', { ref: set.ref });
      return;
    }
    if (/^(?:show|find|pick|choose|give|get)?\s*(?:me\s+)?(?:the\s+|my\s+)?(?:best|top|nicest|finest)\b/.test(t) || /\bone (?:photo |picture )?(?:per|a|each) (?:day|place)\b/.test(t)) {
      const set = yield* this.bestOrSet(text.replace(/^(?:show|find|pick|choose|give|get)\s+(?:me\s+)?/i, ''), mentionRefs);
      if (!set) return;
      yield* this.call('show', { ref: set.ref, widget: 'mosaic_card', title: `Best ${set.count}` });
      yield say(`Here are the best ${set.count} by quality (your rating, likes, resolution).`);
      return;
    }
    // Find and show (the default).
    const words = text.replace(FIND_VERBS, '');
    const set = yield* this.findSet(words, mentionRefs);
    if (!set) return;
    if (set.count === 0) {
      yield say('I found nothing that matches.');
      return;
    }
    yield* this.call('show', { ref: set.ref, widget: 'cover_card', title: titleOf(words) });
    yield say(`I found ${set.count} ${set.count === 1 ? 'item' : 'items'}.`);
  }

  // ------------------------------------------------------------------ parts

  /** A tool call; the result, or null after saying why it failed. */
  private async *call(name: string, args: Record<string, unknown>): AsyncGenerator<PlanStep, Ok | null, StepResult | undefined> {
    const r = yield { type: 'tool', name, arguments: args };
    if (!r) return null;
    if (!r.ok) {
      yield say(`I could not do that: ${r.error.message}`);
      return null;
    }
    if (r.awaiting_confirmation) return null;
    return r;
  }

  private async *notInMode(what: string): Gen {
    yield say(`I cannot ${what} in this mode. Switch to a mode that can (organize, curate or free).`);
  }

  /**
   * The set the words describe, as a ref: the understood parts as a filter, the rest searched as words and
   * intersected, mentions intersected too. Null (after saying why) when nothing could be read.
   */
  private async *findSet(words: string, mentionRefs: string[]): AsyncGenerator<PlanStep, { ref: string; count: number } | null, StepResult | undefined> {
    if (FOLLOW_UP.test(words.trim())) {
      // "this" / "them" with photos pointed at (a mention, or the photo of "Ask about this"): those photos, even in a
      // conversation that showed others before; else the last set shown; else ask which.
      if (mentionRefs.length === 1) return { ref: mentionRefs[0]!, count: this.mentionCounts.get(mentionRefs[0]!) ?? 0 };
      if (mentionRefs.length > 1) {
        const c = yield* this.call('combine', { op: 'intersect', refs: mentionRefs });
        return c ? { ref: c.ref_id!, count: c.count ?? 0 } : null;
      }
      if (this.previous) return { ref: this.previous.ref, count: this.previous.count };
      yield say('I have not shown you any photos in this conversation yet: say which ones, for example "videos from 2017".');
      return null;
    }
    let query = cleanSet(words);
    const weekend = weekendOf(query);
    const filter: Record<string, unknown> = {};
    if (weekend) {
      query = query.replace(weekend.text, ' ').replace(/\s+/g, ' ').trim();
      filter.date = { from: weekend.from, to: weekend.to };
    }
    const refs: string[] = [...mentionRefs];
    const counts = new Map<string, number>(this.mentionCounts);
    // An event named in the words ("from Grandma's birthday", "of the Lisbon trip"): its photos, and the rest of the
    // words read as usual. Looked up only when the words sound like an occasion, so other requests plan as before.
    if (this.eventsUsable && OCCASION.test(query)) {
      const named = yield* this.namedEvent(query);
      if (named === null) return null;
      if (named) {
        refs.push(named.ref);
        counts.set(named.ref, named.count);
        query = meaningful(named.rest) ? named.rest : '';
      }
    }
    let notUnderstood = '';
    if (query || Object.keys(filter).length || refs.length === 0) {
      const f = yield* this.call('filter_assets', { ...(query ? { query } : {}), ...(Object.keys(filter).length ? { filter } : {}) });
      if (!f) return null;
      notUnderstood = String(f.data?.not_understood ?? '').trim();
      const understood = (f.data?.understood as string[] | undefined) ?? [];
      const filtered = understood.length > 0 || Object.keys(filter).length > 0 || !notUnderstood;
      if (notUnderstood && meaningful(notUnderstood)) {
        const s = yield* this.call('search_semantic', { query: notUnderstood });
        if (!s) return null;
        counts.set(s.ref_id!, s.count ?? 0);
        yield say(`I did not understand "${notUnderstood}" as a date, place, person, camera or type, so I searched for it by words${filtered && understood.length ? ` within ${understood.join(', ')}` : ''}.`);
        if (filtered && understood.length) {
          refs.push(f.ref_id!, s.ref_id!);
        } else refs.push(s.ref_id!);
      } else refs.push(f.ref_id!);
      counts.set(f.ref_id!, f.count ?? 0);
    }
    if (refs.length === 1) return { ref: refs[0]!, count: counts.get(refs[0]!) ?? 0 };
    const c = yield* this.call('combine', { op: 'intersect', refs });
    if (!c) return null;
    return { ref: c.ref_id!, count: c.count ?? 0 };
  }

  /**
   * The event whose title the words name (the longest title found in them, ignoring case and a possessive), as a ref
   * of its photos, with the words left once the title and the preposition before it are taken out; `false` when no
   * event's title is in the words; null when a tool failed (said already).
   */
  private async *namedEvent(words: string): AsyncGenerator<PlanStep, { ref: string; count: number; rest: string } | false | null, StepResult | undefined> {
    const l = yield* this.call('lookup_events', { limit: 50 });
    if (!l) return null;
    const plain = (x: string) => x.toLowerCase().replace(/[’']s\b/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    const said = ` ${plain(words)} `;
    const events = ((l.data?.events as { event_id: string; title: string }[] | undefined) ?? []).filter((e) => plain(e.title).length >= 4);
    const hit = events.sort((a, b) => b.title.length - a.title.length).find((e) => said.includes(` ${plain(e.title)} `));
    if (!hit) return false;
    const e = yield* this.call('search_events', { event_id: hit.event_id });
    if (!e) return null;
    const rest = said.replace(` ${plain(hit.title)} `, ' ').replace(/\b(?:from|at|of|during|on|in)\s*(?:the\s*)?$/, '').replace(/\s+/g, ' ').trim();
    return { ref: e.ref_id!, count: e.count ?? 0, rest };
  }

  /** "best 10 …", "… one per day": the set ranked by quality, one per group, the first N. */
  private async *bestOrSet(words: string, mentionRefs: string[]): AsyncGenerator<PlanStep, { ref: string; count: number } | null, StepResult | undefined> {
    let w = words;
    let n: number | null = null;
    let per: 'day' | 'place' | null = null;
    const perM = w.match(/,?\s*(?:with\s+)?one\s+(?:photo\s+|picture\s+)?(?:per|a|each)\s+(day|place)\b/i);
    if (perM) {
      per = perM[1]!.toLowerCase() as 'day' | 'place';
      w = w.replace(perM[0], ' ');
    }
    const best = w.match(/^\s*(?:of\s+)?(?:the\s+|my\s+)?(?:best|top|nicest|finest)\s+(?:(\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty)\s+)?/i);
    const isBest = !!best;
    if (best) {
      if (best[1]) n = /^\d+$/.test(best[1]) ? Number(best[1]) : NUMBERS[best[1].toLowerCase()]!;
      w = w.slice(best[0].length);
    }
    const set = yield* this.findSet(w, mentionRefs);
    if (!set || (!isBest && !per)) return set;
    let ref = set.ref;
    if (per) {
      const s = yield* this.call('sample', { ref, n: Math.min(n ?? 1000, 1000), strategy: 'best_per_group', per });
      if (!s) return null;
      return { ref: s.ref_id!, count: s.count ?? 0 };
    }
    const r = yield* this.call('rank', { ref, by: 'quality' });
    if (!r) return null;
    ref = r.ref_id!;
    const tp = yield* this.call('top', { ref, n: n ?? 10 });
    if (!tp) return null;
    return { ref: tp.ref_id!, count: tp.count ?? 0 };
  }

  private async *compareYears(a: number, b: number, rest: string): Gen {
    const counts: { year: number; count: number; cameras: string }[] = [];
    for (const y of [a, b]) {
      const f = yield* this.call('filter_assets', { query: `${rest} in ${y}`.trim() });
      if (!f) return;
      const d = yield* this.call('describe', { ref: f.ref_id! });
      if (!d) return;
      const facets = d.data?.facets as FacetsLike;
      counts.push({ year: y, count: facets.count, cameras: facets.cameras.slice(0, 3).map((c) => `${c.name} ${c.count}`).join(', ') });
      yield* this.call('show', { ref: f.ref_id!, widget: 'number_card', title: String(y) });
    }
    const [x, y] = counts as [(typeof counts)[0], (typeof counts)[0]];
    const diff = x.count === y.count ? 'the same number' : x.count > y.count ? `${x.count - y.count} more in ${x.year}` : `${y.count - x.count} more in ${y.year}`;
    yield say(`${x.year}: ${x.count}${x.cameras ? ` (${x.cameras})` : ''}. ${y.year}: ${y.count}${y.cameras ? ` (${y.cameras})` : ''}. That is ${diff}.`);
  }

  private async *compareCameras(words: string, mentionRefs: string[]): Gen {
    const set = yield* this.findSet(words, mentionRefs);
    if (!set) return;
    const d = yield* this.call('describe', { ref: set.ref });
    if (!d) return;
    const cams = (d.data?.facets as FacetsLike).cameras;
    yield say(cams.length ? `By camera: ${cams.map((c) => `${c.name} ${c.count}`).join(', ')}.` : 'None of these photos says which camera took it.');
  }
}

interface FacetsLike {
  count: number;
  types: Record<string, number>;
  cameras: { name: string; count: number }[];
  date_range: { from: string | null; to: string | null };
}

function say(text: string): PlanStep {
  return { type: 'text', text };
}

function describeText(count: number, f: FacetsLike | undefined, cameras: boolean): string {
  if (!f || count === 0) return 'There are none.';
  const types = Object.entries(f.types)
    .map(([t, n]) => `${n} ${t === 'VIDEO' ? (n === 1 ? 'video' : 'videos') : t === 'AUDIO' ? 'audio' : n === 1 ? 'photo' : 'photos'}`)
    .join(' and ');
  const range = f.date_range.from ? (f.date_range.from === f.date_range.to ? ` on ${f.date_range.from}` : ` from ${f.date_range.from} to ${f.date_range.to}`) : '';
  const cams = cameras || f.cameras.length ? ` ${f.cameras.length ? `Cameras: ${f.cameras.map((c) => `${c.name} (${c.count})`).join(', ')}.` : 'No camera is recorded.'}` : '';
  return `${count} in all: ${types}${range}.${cams}`;
}

/** The set's words without the nouns that mean "everything" ("photos of", "pictures from", "my"). */
/** Words that name the conversation's last set instead of describing one. */
const FOLLOW_UP = /^(?:(?:all|each|every one|some|any)\s+)?(?:(?:of|from|among|in)\s+)?(?:them|these|those|it|that|this|the same(?: ones| photos| pictures| videos)?|(?:these|those|the|that|this) (?:ones|photos?|pictures?|videos?|set|results?))$/i;

/** The show-and-find verbs before a set's words ("show me", "find", "where are"). */
const FIND_VERBS = /^(?:please\s+)?(?:can you\s+)?(?:show|find|search(?: for)?|get|list|display|look for|open|where (?:is|are)|i want|give)\s+(?:me\s+)?/i;

/**
 * The last set a tool answered in these messages (a tool receipt with a ref and a count), if any, with a title
 * from the request that asked for it ("show videos from 2017" → "Videos from 2017"), for an album made of "them".
 */
function lastSetOf(messages: PlannerInput['messages']): { ref: string; count: number; title: string } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'tool') continue;
    let r: { ok?: boolean; ref_id?: string; count?: number };
    try {
      r = JSON.parse(m.content) as typeof r;
    } catch {
      continue; // not a receipt
    }
    if (!r.ok || !r.ref_id) continue;
    const asked = messages.slice(0, i).findLast((x) => x.role === 'user')?.content ?? '';
    const words = asked.replace(/(^|\s)[@#][\p{L}\p{N}][\p{L}\p{N}_'-]*/gu, ' ').replace(/[?!.]+$/, '').replace(FIND_VERBS, '');
    return { ref: r.ref_id, count: r.count ?? 0, title: FOLLOW_UP.test(words.trim()) ? 'Photos' : titleOf(words) };
  }
  return null;
}

function cleanSet(words: string): string {
  return words
    .replace(/^\s*(?:all\s+)?(?:of\s+)?(?:the\s+|my\s+|our\s+)?(?:(?:photos?|pictures?|pics|images?|shots)\s+(?:of|from|taken|with)?\s*)?/i, (m) => (/\b(?:photos?|pictures?|pics|images?|shots)\b/i.test(m) ? '' : m.replace(/^\s*(?:all\s+)?(?:of\s+)?(?:the\s+|my\s+|our\s+)?/i, '')))
    .replace(/\b(?:did we take|did i take|we took|i took|we have|i have)\b/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether words left over are worth searching ("the", "all", "ones" are not). */
function meaningful(rest: string): boolean {
  return rest.split(/\s+/).some((w) => w.length > 2 && !/^(the|and|all|our|my|ones?|any|some|that|this|those|these|with|from|photos?|pictures?|pics|images?|items?|everything|stuff)$/i.test(w));
}

function titleOf(words: string): string {
  const w = cleanSet(words).replace(/\s+/g, ' ').trim();
  if (!w) return 'Photos';
  return (w[0]!.toUpperCase() + w.slice(1)).slice(0, 200);
}

/**
 * "the weekend of 4 July [2021]" / "the weekend of July 4": the Saturday and Sunday of the (Monday-first)
 * week holding that day; without a year, the latest such weekend that has begun.
 */
export function weekendOf(text: string, now = Date.now()): { text: string; from: string; to: string } | null {
  const re = new RegExp(`\\b(?:on\\s+|from\\s+)?the weekend of\\s+(?:(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTHS.join('|')})|(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?)(?:,?\\s+(\\d{4}))?`, 'i');
  const m = text.match(re);
  if (!m) return null;
  const day = Number(m[1] ?? m[4]);
  const month = MONTHS.indexOf((m[2] ?? m[3])!.toLowerCase());
  const weekend = (year: number) => {
    const d = new Date(Date.UTC(year, month, day));
    const dow = (d.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
    const sat = new Date(d.getTime() + (5 - dow) * 86_400_000);
    return { sat, sun: new Date(sat.getTime() + 86_400_000) };
  };
  let year = m[5] ? Number(m[5]) : new Date(now).getUTCFullYear();
  let w = weekend(year);
  if (!m[5] && w.sat.getTime() > now) w = weekend(--year);
  return { text: m[0], from: w.sat.toISOString().slice(0, 10), to: w.sun.toISOString().slice(0, 10) };
}
