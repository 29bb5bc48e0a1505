/**
 * Why the OCR full-text index uses FTS5's trigram tokenizer (migration 0016_ocr_text.sql), shown on the corpus's
 * signs (../shared/corpus/ocr/labels.json) as the recogniser stores them: NFKC text, and Latin words run together
 * where PP-OCRv4's "ch" recogniser drops the spaces ("Cleanhandswithsoapandwater", corpus-ocr.test.ts).
 * unicode61 makes one token of a run of CJK characters or of run-together words, so a word inside one is never
 * found; trigrams find every substring of three characters or more. Two-character words (禁止, 港区) are below
 * the trigram length: the search reads those with LIKE (ocr.store.ts), checked here on the migrated catalog.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { CORPUS } from '../media/corpus.ts';

const LABELS = JSON.parse(fs.readFileSync(`${CORPUS}/ocr/labels.json`, 'utf8')) as Record<string, { text: string[] }>;

function lines(): string[] {
  const signs = ['ocr_01.png', 'ocr_03.jpg', 'ocr_04.jpg'].flatMap((f) => LABELS[f]!.text.map((t) => t.normalize('NFKC')));
  // The English poster's lines as the recogniser reads them: spaces between words mostly gone.
  return [...signs, ...LABELS['ocr_01.png']!.text.map((t) => t.replaceAll(' ', ''))];
}

function table(tokenize: string) {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(text, tokenize = '${tokenize}')`);
  const insert = db.prepare('INSERT INTO t (text) VALUES (?)');
  for (const l of lines()) insert.run(l);
  const find = (q: string) => (db.prepare(`SELECT text FROM t WHERE t MATCH ?`).all(`"${q}"`) as { text: string }[]).map((r) => r.text);
  return { db, find };
}

describe('OCR full-text tokenizer, chosen on the corpus signs', () => {
  test('trigram finds CJK words inside a sign and Latin words the recogniser ran together; unicode61 does not', () => {
    const trigram = table('trigram');
    const unicode = table('unicode61');
    try {
      // Inside a run of CJK characters: "清潔できれいな港区を" is one unicode61 token.
      assert.ok(trigram.find('清潔で').length > 0);
      assert.equal(unicode.find('清潔で').length, 0);
      // Inside run-together English.
      assert.ok(trigram.find('soap').some((t) => t.includes('withsoap')));
      assert.ok(!unicode.find('soap').some((t) => t.includes('withsoap')));
      // Case-insensitive both, whole words both.
      assert.ok(trigram.find('minato').length > 0);
      assert.ok(unicode.find('minato').length > 0);
      assert.ok(trigram.find('愚园路').length > 0);
      // Below three characters trigram MATCH finds nothing: the store reads such terms with LIKE.
      assert.equal(trigram.find('禁止').length, 0);
      assert.ok((trigram.db.prepare(`SELECT count(*) AS n FROM t WHERE text LIKE '%禁止%'`).get() as { n: number }).n > 0);
    } finally {
      trigram.db.close();
      unicode.db.close();
    }
  });
});
