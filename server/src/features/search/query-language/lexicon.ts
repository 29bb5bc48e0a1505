/**
 * From words to lexemes: the query's words grouped into the longest phrases the grammar or the
 * catalog knows ("new year's eve", "at least", "Canon EOS 40D"), each with every class it can play
 * ("in" is a stop word and a month introducer; "may" a month). Numbers and dates written in digits
 * are recognised here too. Matching at one word tries only the phrases that begin with that word,
 * longest first, so the work is linear in the query's length.
 */
import type { AssetFilter } from './filter.ts';
import type { Grammar, Holiday, Season, Unit } from './grammar.ts';
import { phraseWords, tokenise, type Token } from './tokens.ts';

export type CatalogField = 'camera_make' | 'camera_model' | 'lens' | 'person';

export type WordClass =
  | { c: 'stop' | 'monthIntro' | 'this' | 'last' | 'today' | 'yesterday' | 'weekend' | 'ago' }
  | { c: 'between' | 'and' | 'from' | 'to' | 'since' | 'until' | 'after' | 'before' | 'of' }
  | { c: 'favourite' | 'star' | 'atLeast' | 'orMore' | 'rated' | 'unrated' | 'cameraIntro' | 'ordinaryCamera' }
  | { c: 'month'; month: number; ambiguous: boolean }
  | { c: 'season'; season: Season }
  | { c: 'holiday'; holiday: Holiday }
  | { c: 'unit'; unit: Unit }
  | { c: 'media'; kind: 'media_type' | 'live_photo' | 'screenshot'; filter: AssetFilter }
  | { c: 'fileType'; filter: AssetFilter }
  /** `digits` 0: written as a word; `article`: "a"/"an", one only before a unit. */
  | { c: 'number'; value: number; digits: number; plus: boolean; article?: boolean }
  | { c: 'ordinal'; value: number }
  | { c: 'yearRange'; from: number; to: number }
  | { c: 'isoDate'; y: number; m: number; d: number }
  | { c: 'isoMonth'; y: number; m: number }
  | { c: 'decade'; from: number }
  | { c: 'catalog'; field: CatalogField; value: string }
  | { c: 'placeIntro' }
  | { c: 'place'; name: string; location: PlaceBox };

export type ClassName = WordClass['c'];
export type ClassOf<C extends ClassName> = Extract<WordClass, { c: C }>;

export interface Lexeme {
  /** Token range [first, end). */
  first: number;
  end: number;
  /** UTF-16 offsets in the query. */
  start: number;
  stop: number;
  classes: WordClass[];
  /** Every word of it is a stop word: droppable next to an understood part. */
  stopOnly: boolean;
}

/** A name known to the catalog: the exact filter value, and other ways people say it ("Nikon D70" for "NIKON D70"). */
export type CatalogName = string | { value: string; say?: readonly string[] | undefined };

/** queryAssets' location filter: a box in degrees (west > east crosses the antimeridian). */
export interface PlaceBox {
  south: number;
  north: number;
  west: number;
  east: number;
}

/** A place the caller's photos were taken in (a town, region or country), with the box around those photos. */
export interface PlaceName {
  name: string;
  location: PlaceBox;
}

export interface Catalog {
  /** The caller's places (features/search/channels/place.ts knownPlaces): "in Lisbon" is a location filter. */
  places?: readonly PlaceName[] | undefined;
  cameraMakes?: readonly CatalogName[] | undefined;
  cameraModels?: readonly CatalogName[] | undefined;
  lenses?: readonly CatalogName[] | undefined;
  /** The caller's named people (listPeople): a name is a person filter (`value` is the person id). */
  people?: readonly { id: number; name: string }[] | undefined;
}

interface Entry {
  words: string[];
  classes: WordClass[];
}

const KEPT_PER_GRAMMAR = 16;
const built = new WeakMap<Grammar, Map<string, Lexicon>>();

export class Lexicon {
  private readonly byFirst = new Map<string, Entry[]>();
  private readonly byKey = new Map<string, Entry>();
  readonly stopWords: Set<string>;
  readonly ordinalSuffixes: readonly string[];
  readonly decadeSuffixes: readonly string[];

  /**
   * The lexicon of `grammar` and `catalog`, built once and kept: building it costs more than lexing a query,
   * and every search builds a parser for the caller's catalog names, which seldom change. A lexicon is never
   * changed once built (lex only reads it), so callers share it. A few catalogs are kept per grammar (one
   * per member, roughly), the oldest dropped first.
   */
  static of(grammar: Grammar, catalog: Catalog = {}): Lexicon {
    // Every catalog list the lexicon holds is in the key: a member's places and people are theirs alone, and a
    // person renamed or a new place must be understood at the next query.
    const key = JSON.stringify([catalog.cameraMakes ?? [], catalog.cameraModels ?? [], catalog.lenses ?? [], catalog.places ?? [], catalog.people ?? []]);
    let kept = built.get(grammar);
    if (!kept) built.set(grammar, (kept = new Map()));
    let lexicon = kept.get(key);
    if (lexicon) {
      kept.delete(key); // to the back: the most recently used
    } else {
      lexicon = new Lexicon(grammar, catalog);
      if (kept.size >= KEPT_PER_GRAMMAR) kept.delete(kept.keys().next().value!);
    }
    kept.set(key, lexicon);
    return lexicon;
  }

  constructor(grammar: Grammar, catalog: Catalog = {}) {
    this.stopWords = new Set(grammar.stopWords.flatMap(phraseWords));
    this.ordinalSuffixes = grammar.ordinalSuffixes.map((s) => s.toLowerCase());
    this.decadeSuffixes = grammar.decadeSuffixes.map((s) => s.toLowerCase().replace(/[’‘]/g, "'"));
    const words = (list: readonly string[], cls: WordClass) => list.forEach((p) => this.add(p, cls));
    words(grammar.stopWords, { c: 'stop' });
    words(grammar.monthIntroducers, { c: 'monthIntro' });
    const ambiguous = new Set(grammar.ambiguousMonthWords.map((w) => phraseWords(w).join(' ')));
    grammar.months.forEach((names, i) => names.forEach((n) => this.add(n, { c: 'month', month: i + 1, ambiguous: ambiguous.has(phraseWords(n).join(' ')) })));
    for (const [season, names] of Object.entries(grammar.seasons) as [Season, readonly string[]][]) words(names, { c: 'season', season });
    for (const holiday of grammar.holidays) words(holiday.names, { c: 'holiday', holiday });
    words(grammar.thisWords, { c: 'this' });
    words(grammar.lastWords, { c: 'last' });
    words(grammar.today, { c: 'today' });
    words(grammar.yesterday, { c: 'yesterday' });
    words(grammar.weekend, { c: 'weekend' });
    for (const [unit, names] of Object.entries(grammar.units) as [Unit, readonly string[]][]) words(names, { c: 'unit', unit });
    words(grammar.agoWords, { c: 'ago' });
    words(grammar.betweenWords, { c: 'between' });
    words(grammar.andWords, { c: 'and' });
    words(grammar.fromWords, { c: 'from' });
    words(grammar.toWords, { c: 'to' });
    words(grammar.sinceWords, { c: 'since' });
    words(grammar.untilWords, { c: 'until' });
    words(grammar.afterWords, { c: 'after' });
    words(grammar.beforeWords, { c: 'before' });
    words(grammar.ofWords, { c: 'of' });
    for (const m of grammar.media) words(m.words, { c: 'media', kind: m.kind, filter: m.filter });
    words(grammar.favourites, { c: 'favourite' });
    words(grammar.starWords, { c: 'star' });
    words(grammar.atLeastWords, { c: 'atLeast' });
    words(grammar.orMoreWords, { c: 'orMore' });
    words(grammar.ratedWords, { c: 'rated' });
    words(grammar.unratedWords, { c: 'unrated' });
    for (const [word, value] of Object.entries(grammar.numberWords)) this.add(word, { c: 'number', value, digits: 0, plus: false });
    words(grammar.articles, { c: 'number', value: 1, digits: 0, plus: false, article: true });
    for (const t of grammar.fileTypes) words(t.words, { c: 'fileType', filter: t.filter });
    words(grammar.cameraIntroducers, { c: 'cameraIntro' });
    words(grammar.ordinaryCameraWords, { c: 'ordinaryCamera' });
    words(grammar.placeIntroducers, { c: 'placeIntro' });
    // Places as named and without accents ("zurich" for "Zürich"); one box per spelling, the first kept.
    for (const p of catalog.places ?? []) {
      if (typeof p?.name !== 'string' || p.name.trim() === '') continue;
      const plain = p.name.normalize('NFD').replace(/\p{M}+/gu, '');
      for (const said of new Set([p.name, plain])) {
        const key = phraseWords(said).join(' ');
        if (this.byKey.get(key)?.classes.some((x) => x.c === 'place')) continue;
        this.add(said, { c: 'place', name: p.name, location: { ...p.location } });
      }
    }
    const names = (list: readonly CatalogName[] | undefined, field: CatalogField) => {
      for (const n of list ?? []) {
        const value = typeof n === 'string' ? n : n.value;
        if (typeof value !== 'string' || value.trim() === '') continue;
        for (const said of [value, ...(typeof n === 'string' ? [] : (n.say ?? []))]) this.add(said, { c: 'catalog', field, value });
      }
    };
    // Lenses before models before makes: on the very same words the more specific name is listed first.
    names(catalog.lenses, 'lens');
    names(catalog.cameraModels, 'camera_model');
    names(catalog.cameraMakes, 'camera_make');
    // People last: a camera spelled like someone's name stays a camera (the first class of a phrase wins).
    for (const p of catalog.people ?? []) if (p.name.trim()) this.add(p.name, { c: 'catalog', field: 'person', value: String(p.id) });
    for (const list of this.byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
  }

  private add(phrase: string, cls: WordClass): void {
    const words = phraseWords(phrase);
    if (words.length === 0) return;
    const key = words.join(' ');
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { words, classes: [] };
      this.byKey.set(key, entry);
      const list = this.byFirst.get(words[0]!) ?? [];
      list.push(entry);
      this.byFirst.set(words[0]!, list);
    }
    // One catalog value per field and phrase: two makes spelled alike differ only in case, keep the first.
    if (cls.c === 'catalog' && entry.classes.some((x) => x.c === 'catalog' && x.field === cls.field)) return;
    entry.classes.push(cls);
  }

  /** The query's lexemes, longest phrase first at every word. */
  lex(text: string): Lexeme[] {
    const tokens = tokenise(text);
    const out: Lexeme[] = [];
    for (let i = 0; i < tokens.length; ) {
      const entry = (this.byFirst.get(tokens[i]!.norm) ?? []).find((e) => e.words.every((w, k) => tokens[i + k]?.norm === w));
      const n = entry?.words.length ?? 1;
      const classes = [...(entry?.classes ?? [])];
      if (n === 1) classes.push(...this.numeric(tokens[i]!.norm));
      out.push(this.lexeme(tokens, i, n, classes));
      i += n;
    }
    return out;
  }

  private lexeme(tokens: Token[], i: number, n: number, classes: WordClass[]): Lexeme {
    const words = tokens.slice(i, i + n);
    return { first: i, end: i + n, start: words[0]!.start, stop: words[n - 1]!.end, classes, stopOnly: words.every((t) => this.stopWords.has(t.norm)) };
  }

  /** Numbers, ordinals, decades and dates written in digits. */
  private numeric(word: string): WordClass[] {
    let m = /^(\d{1,9})(\+?)$/.exec(word);
    if (m) return [{ c: 'number', value: Number(m[1]), digits: m[1]!.length, plus: m[2] === '+' }];
    m = /^(\d{4})[-/](\d{4})$/.exec(word);
    if (m) return [{ c: 'yearRange', from: Number(m[1]), to: Number(m[2]) }];
    m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(word);
    if (m) return [{ c: 'isoDate', y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) }];
    m = /^(\d{4})-(\d{1,2})$/.exec(word);
    if (m) return [{ c: 'isoMonth', y: Number(m[1]), m: Number(m[2]) }];
    m = /^(\d{1,2})(\D+)$/.exec(word);
    if (m && this.ordinalSuffixes.includes(m[2]!)) return [{ c: 'ordinal', value: Number(m[1]) }];
    m = /^(\d{4})(\D+)$/.exec(word);
    if (m && Number(m[1]) % 10 === 0 && this.decadeSuffixes.includes(m[2]!)) return [{ c: 'decade', from: Number(m[1]) }];
    return [];
  }
}

export function classOf<C extends ClassName>(lx: Lexeme | undefined, c: C): ClassOf<C> | undefined {
  return lx?.classes.find((x): x is ClassOf<C> => x.c === c);
}

export const has = (lx: Lexeme | undefined, c: ClassName) => lx !== undefined && lx.classes.some((x) => x.c === c);
