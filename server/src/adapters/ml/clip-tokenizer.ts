/**
 * CLIP's byte-level BPE tokenizer (OpenAI `clip/simple_tokenizer.py`), reading the vocabulary file
 * the registry lists (`clip-tokenizer/bpe_simple_vocab_16e6.txt.gz`). The ids must be exactly CLIP's:
 * the text tower was trained on them, so one wrong id is a different query.
 *
 * The vocabulary is built as CLIP builds it: the 256 byte symbols in GPT-2 `bytes_to_unicode()` order,
 * the same with `</w>` (end of word), the 48 894 merges joined, then `<|startoftext|>` (49406) and
 * `<|endoftext|>` (49407): 49 408 tokens. A text is cleaned (HTML entities unescaped twice, Unicode
 * NFC, whitespace collapsed, trimmed), lowercased, split with CLIP's pattern (the two special tokens,
 * English contractions, runs of letters, single digits, runs of other symbols), and each piece is
 * UTF-8 byte-encoded and merged pair by pair, lowest merge rank first.
 *
 * Differences from the Python original, on purpose: ftfy's mojibake repair is not done (it only
 * changes text that was decoded with the wrong charset; NFC, which ftfy also applies, is), and a
 * text longer than the context is truncated with its last token replaced by the end token (what
 * `clip.tokenize(..., truncate=True)` does) instead of raising: a long search query still searches.
 */
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

export const START_OF_TEXT = 49406;
export const END_OF_TEXT = 49407;
export const CONTEXT_LENGTH = 77;
/** Merges CLIP uses: the file has more lines; CLIP takes 49152 − 256 − 2 of them. */
const MERGES_USED = 49152 - 256 - 2;
/** Words whose merges are remembered: a server answering years of queries must not grow without bound. */
const CACHE_WORDS = 20_000;

/** GPT-2's reversible map of the 256 bytes to printable characters, in its insertion order. */
export function bytesToUnicode(): Map<number, string> {
  const bs: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) bs.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bs.push(b);
  for (let b = 0xae; b <= 0xff; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  return new Map(bs.map((b, i) => [b, String.fromCodePoint(cs[i]!)]));
}

// CLIP's pattern (Python `regex`, IGNORECASE); `u` gives \p{L} and \p{N} the same Unicode classes.
const PIECES = /<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+/giu;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Python's html.unescape for what a query can hold: numeric references and the common named ones. */
function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

export class ClipTokenizer {
  private readonly byteEncoder = bytesToUnicode();
  private readonly encoder = new Map<string, number>();
  private readonly ranks = new Map<string, number>();
  private readonly cache = new Map<string, string[]>([
    ['<|startoftext|>', ['<|startoftext|>']],
    ['<|endoftext|>', ['<|endoftext|>']],
  ]);

  /** @param vocabText the decompressed text of bpe_simple_vocab_16e6.txt.gz */
  constructor(vocabText: string) {
    const lines = vocabText.split('\n');
    const merges = lines.slice(1, 1 + MERGES_USED).map((l) => l.split(' ') as [string, string]);
    if (merges.length !== MERGES_USED || merges.some((m) => m.length !== 2)) {
      throw new Error(`not CLIP's BPE vocabulary: expected ${MERGES_USED} merges of two symbols`);
    }
    const vocab = [...this.byteEncoder.values()];
    vocab.push(...vocab.map((v) => `${v}</w>`));
    for (const [a, b] of merges) vocab.push(a + b);
    vocab.push('<|startoftext|>', '<|endoftext|>');
    vocab.forEach((token, id) => this.encoder.set(token, id));
    merges.forEach(([a, b], rank) => this.ranks.set(`${a} ${b}`, rank));
  }

  /** Reads the gzip-compressed vocabulary file (a verified registry file); read and unzipped off the event loop. */
  static async fromFile(file: string): Promise<ClipTokenizer> {
    return new ClipTokenizer((await promisify(gunzip)(await fs.readFile(file))).toString('utf8'));
  }

  /** Number of tokens (49408). */
  get vocabSize(): number {
    return this.encoder.size;
  }

  /** The id of one vocabulary entry (`red</w>` is the word "red"), or undefined. */
  tokenId(token: string): number | undefined {
    return this.encoder.get(token);
  }

  /** The BPE ids of a text, without the start and end tokens. */
  encode(text: string): number[] {
    const clean = unescapeHtml(unescapeHtml(text)).normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
    const ids: number[] = [];
    for (const [piece] of clean.matchAll(PIECES)) {
      const symbols = Array.from(Buffer.from(piece, 'utf8'), (b) => this.byteEncoder.get(b)!).join('');
      for (const token of this.bpe(symbols)) ids.push(this.encoder.get(token)!);
    }
    return ids;
  }

  /**
   * What the text tower takes: per text, [49406, ids…, 49407] zero-padded to `contextLength`, as one
   * int64 tensor's data ([texts.length, contextLength], row-major). Too long: cut, ending with 49407.
   */
  tokenize(texts: string[], contextLength = CONTEXT_LENGTH): BigInt64Array {
    const out = new BigInt64Array(texts.length * contextLength);
    texts.forEach((text, row) => {
      let ids = [START_OF_TEXT, ...this.encode(text), END_OF_TEXT];
      if (ids.length > contextLength) {
        ids = ids.slice(0, contextLength);
        ids[contextLength - 1] = END_OF_TEXT;
      }
      ids.forEach((id, i) => (out[row * contextLength + i] = BigInt(id)));
    });
    return out;
  }

  /** Merges the symbols of one piece, lowest rank first, the last symbol marked as a word's end. */
  private bpe(piece: string): string[] {
    const known = this.cache.get(piece);
    if (known) return known;
    const chars = Array.from(piece);
    let word = [...chars.slice(0, -1), `${chars[chars.length - 1]}</w>`];
    while (word.length > 1) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i < word.length - 1; i++) {
        const rank = this.ranks.get(`${word[i]} ${word[i + 1]}`);
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          best = i;
        }
      }
      if (best < 0) break;
      // Every occurrence of the pair, left to right, without overlaps (as CLIP's loop does).
      const [first, second] = [word[best]!, word[best + 1]!];
      const merged: string[] = [];
      for (let i = 0; i < word.length; ) {
        if (i < word.length - 1 && word[i] === first && word[i + 1] === second) {
          merged.push(first + second);
          i += 2;
        } else merged.push(word[i++]!);
      }
      word = merged;
    }
    if (this.cache.size >= CACHE_WORDS) {
      for (const key of this.cache.keys()) if (!key.startsWith('<|')) this.cache.delete(key);
    }
    this.cache.set(piece, word);
    return word;
  }
}
