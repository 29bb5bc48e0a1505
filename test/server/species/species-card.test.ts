/**
 * The card's pure parts, on the edge cases the recordings do not carry: Wikipedia HTML to plain text (scripts,
 * comments, numeric and named entities, blocks), which result is the match, what is refused from outside text
 * (non-http links, control characters), and locale tags written back the way iNaturalist reads them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bestMatch, htmlToPlainText, toCard } from '../../../server/src/features/species/species.card.ts';
import { normaliseLocale } from '../../../server/src/features/species/species.service.ts';
import type { Taxon } from '../../../server/src/features/species/inaturalist.client.ts';

const taxon = (t: Partial<Taxon> & Pick<Taxon, 'id' | 'name'>): Taxon => ({ is_active: true, ...t }) as Taxon;

describe('species card', () => {
  test('Wikipedia HTML becomes plain text: tags, scripts and comments out, entities decoded, blocks spaced', () => {
    assert.equal(
      htmlToPlainText('<p>The <b>robin</b> (<i>Erithacus&nbsp;rubecula</i>)<!-- note --> is &quot;small&quot; &#38; &#x2014; common.</p><p>Second<br/>line</p><script>alert(1)</script><style>p{}</style>'),
      'The robin (Erithacus rubecula) is "small" & — common. Second line',
    );
    assert.equal(htmlToPlainText('a &bogus; b &#0; c &#xD800; d'), 'a &bogus; b c d', 'unknown or invalid entities never become control characters');
    assert.equal(htmlToPlainText('bell\u0007 and\u0000 nul'), 'bell and nul');
    assert.equal(htmlToPlainText('   '), '');
  });

  test('the match: exact active scientific name, then (common names) exact common name or matched term, then first active', () => {
    const results = [
      taxon({ id: 1, name: 'Turdus merula azorensis', preferred_common_name: 'Azores Blackbird' }),
      taxon({ id: 2, name: 'Turdus merula', is_active: false }),
      taxon({ id: 3, name: 'Turdus merula', preferred_common_name: 'Common Blackbird' }),
      taxon({ id: 4, name: 'Turdus maximus', preferred_common_name: 'Tibetan Blackbird', matched_term: 'Himalayan Blackbird' }),
    ];
    assert.equal(bestMatch(results, 'turdus  MERULA', 'scientific_name')?.id, 3);
    assert.equal(bestMatch(results, 'Common blackbird', 'common_name')?.id, 3);
    assert.equal(bestMatch(results, 'himalayan blackbird', 'common_name')?.id, 4);
    assert.equal(bestMatch(results, 'Common blackbird', 'scientific_name')?.id, 1, 'a scientific search does not match on common names');
    assert.equal(bestMatch(results, 'blackbird', 'common_name')?.id, 1, 'no exact name: the first active result');
    assert.equal(bestMatch([taxon({ id: 5, name: 'Turdus merula', is_active: false })], 'Turdus merula', 'scientific_name'), null, 'only inactive taxa: no match');
    assert.equal(bestMatch([], 'Turdus merula', 'scientific_name'), null);
  });

  test('links and image addresses that are not http(s) are dropped; text is trimmed and cleaned', () => {
    const card = toCard(
      taxon({
        id: 9,
        name: 'Pica pica',
        preferred_common_name: '  Eurasian\u0007 Magpie ',
        wikipedia_url: 'javascript:alert(1)',
        wikipedia_summary: null,
        default_photo: { medium_url: 'data:image/png;base64,AAAA', url: 'https://example.org/p/square.jpg', square_url: 'file:///etc/passwd', attribution: '', license_code: 'cc0' },
      }),
      'scientific_name',
      'en',
      new Date('2026-11-26T09:00:00Z'),
    );
    assert.equal(card.common_name, 'Eurasian Magpie');
    assert.equal(card.wikipedia_url, null);
    assert.equal(card.summary, null);
    assert.deepEqual(card.image, { url: 'https://example.org/p/square.jpg', square_url: null, attribution: null, license_code: 'cc0' });
    assert.equal(card.fetched_at, '2026-11-26T09:00:00.000Z');
    assert.equal(card.source_url, 'https://www.inaturalist.org/taxa/9');
  });

  test('locale tags are written back as iNaturalist reads them', () => {
    assert.equal(normaliseLocale('EN'), 'en');
    assert.equal(normaliseLocale('pt_br'), 'pt-BR');
    assert.equal(normaliseLocale('zh-hant-tw'), 'zh-Hant-TW');
    assert.equal(normaliseLocale(' de-DE '), 'de-DE');
  });
});
