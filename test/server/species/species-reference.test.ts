/**
 * getSpeciesReference through the real server, against a real HTTP server on loopback that answers with
 * recorded iNaturalist responses (fake-inaturalist.ts, fixtures/): the card's fields for a scientific name
 * (plain-text summary, image and attribution), the best match among results, the common-name fallback, the
 * locale passed through, the summary read from the taxon when the search leaves it out; the catalog cache (a
 * second ask costs no request; an old card is fetched again, and served when iNaturalist cannot be reached);
 * offline (closed port) 503, iNaturalist errors or garbage 502, no answer within the timeout 503; unknown
 * species 404 remembered for a day; bad input 422 naming the field; signed out 401; both variants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, addMember, data, login, problem, registerAdmin } from '../helpers/api.ts';
import { inBothVariants } from '../helpers/corpus-assets.ts';
import { loadConfig } from '../../../server/src/config/env.ts';
import { FRESH_MS, MISS_MS } from '../../../server/src/features/species/index.ts';
import { FakeINaturalist, type FakeMode } from './fake-inaturalist.ts';

const TIMEOUT_MS = 3000;
const ask = (params: Record<string, string>) => `${V1}/species/reference?${new URLSearchParams(params)}`;

describe('species reference card from iNaturalist (loopback recordings)', { timeout: 180_000 }, () => {
  const inat = new FakeINaturalist();
  let srv: TestServer;
  let alice: Record<'A' | 'B', Client>;

  /** Makes the cached answers whose question holds `fragment` older by `ms`. */
  const age = (fragment: string, ms: number) => {
    const n = srv.container.db.prepare('UPDATE species_references SET fetched_at = fetched_at - ? WHERE instr(query_key, ?) > 0').run(ms, fragment).changes;
    assert.ok(n > 0, `no cached answer for ${fragment}`);
  };
  const withMode = async <T>(mode: FakeMode, run: () => Promise<T>): Promise<T> => {
    inat.mode = mode;
    try {
      return await run();
    } finally {
      inat.mode = 'ok';
    }
  };
  const whileOffline = async <T>(run: () => Promise<T>): Promise<T> => {
    await inat.stop();
    try {
      return await run();
    } finally {
      await inat.start();
    }
  };

  before(async () => {
    await inat.start();
    srv = await startServer({ env: { HEARTH_SPECIES_BASE_URL: inat.url, HEARTH_SPECIES_TIMEOUT_MS: String(TIMEOUT_MS) } });
    const admin = new Client(srv.url, 'A');
    await registerAdmin(admin);
    alice = inBothVariants(admin);
  });
  after(async () => {
    await srv?.stop({ removeData: true });
    await inat.stop();
  });

  test('a scientific name gives the card: names, rank, plain-text summary, image with attribution, links (A fetched, B from the catalog)', async () => {
    const r = await alice.A.get(ask({ scientific_name: 'Turdus merula' }));
    assert.equal(r.status, 200, r.text);
    const card = data(alice.A, r);
    assert.equal(card.taxon_id, 12716);
    assert.equal(card.scientific_name, 'Turdus merula');
    assert.equal(card.common_name, 'Common Blackbird');
    assert.equal(card.rank, 'species');
    assert.equal(card.iconic_taxon_name, 'Aves');
    assert.equal(card.matched_by, 'scientific_name');
    assert.equal(card.locale, 'en');
    assert.match(card.summary, /^The common blackbird \(Turdus merula\) is a species of true thrush\. /);
    assert.doesNotMatch(card.summary, /[<>]|&amp;/, 'the summary is plain text');
    assert.match(card.summary, /New Zealand & elsewhere\.$/, 'entities decoded');
    assert.equal(card.wikipedia_url, 'http://en.wikipedia.org/wiki/Common_blackbird');
    assert.deepEqual(card.image, {
      url: 'https://inaturalist-open-data.s3.amazonaws.com/photos/1259567/medium.jpg',
      square_url: 'https://inaturalist-open-data.s3.amazonaws.com/photos/1259567/square.jpg',
      attribution: '(c) Sergey Yeliseev, some rights reserved (CC BY-NC-ND), uploaded by Sergey Yeliseev',
      license_code: 'cc-by-nc-nd',
    });
    assert.equal(card.source, 'inaturalist');
    assert.equal(card.source_url, 'https://www.inaturalist.org/taxa/12716');
    assert.ok(!Number.isNaN(Date.parse(card.fetched_at)));
    assert.equal(card.cached, false);

    const searches = inat.searchesFor('Turdus merula');
    assert.equal(searches.length, 1);
    assert.equal(searches[0]!.path, '/v1/taxa');
    assert.equal(searches[0]!.locale, 'en');
    assert.match(searches[0]!.userAgent ?? '', /^Hearth\/\S+ \(/, 'a polite User-Agent says who asks');

    const b = await alice.B.get(ask({ scientific_name: 'Turdus merula' }));
    assert.equal(b.status, 200, b.text);
    assert.deepEqual(data(alice.B, b), { ...card, cached: true });
    assert.equal(inat.searchesFor('Turdus merula').length, 1, 'the second ask costs no request');
  });

  test('the same question however spelt is answered from the catalog; asked at once, it costs one request', async () => {
    const spelt = await alice.A.get(ask({ scientific_name: '  turdus   MERULA ' }));
    assert.equal(spelt.status, 200, spelt.text);
    assert.equal(spelt.body.taxon_id, 12716);
    assert.equal(spelt.body.cached, true);
    assert.equal(inat.seen.filter((r) => r.q?.toLowerCase().includes('merula')).length, 1);

    const together = await Promise.all([1, 2, 3].map(() => alice.A.get(ask({ scientific_name: 'Erithacus rubecula' }))));
    for (const r of together) assert.equal(r.status, 200, r.text);
    assert.equal(inat.searchesFor('Erithacus rubecula').length, 1, 'one lookup for three askers');
  });

  test('the active taxon of that exact scientific name wins over the first result; inactive taxa are skipped', async () => {
    const r = await alice.A.get(ask({ scientific_name: 'Erithacus rubecula' }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.taxon_id, 13094, 'not the subspecies listed first, nor the inactive taxon of the same name');
    assert.equal(r.body.common_name, 'European Robin');
  });

  test('the common name is the fallback when the scientific name matches nothing, and alone', async () => {
    const r = await alice.A.get(ask({ scientific_name: 'Turdus merulaa', common_name: 'Eurasian Blackbird' }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.taxon_id, 12716);
    assert.equal(r.body.matched_by, 'common_name');
    assert.equal(r.body.cached, false);
    assert.equal(inat.searchesFor('Turdus merulaa').length, 1, 'the scientific name was asked first');
    assert.equal(inat.searchesFor('Eurasian Blackbird').length, 1);

    const alone = await alice.B.get(ask({ common_name: 'Eurasian Blackbird' }));
    assert.equal(alone.status, 200, alone.text);
    assert.equal(data(alice.B, alone).scientific_name, 'Turdus merula');
    assert.equal(data(alice.B, alone).matched_by, 'common_name');
  });

  test('the locale is passed through: German names and summary', async () => {
    const r = await alice.A.get(ask({ scientific_name: 'Turdus merula', locale: 'DE' }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.locale, 'de');
    assert.equal(r.body.common_name, 'Amsel');
    assert.match(r.body.summary, /^Die Amsel \(Turdus merula\), auch Schwarzdrossel genannt, ist eine Vogelart/);
    assert.equal(r.body.wikipedia_url, 'https://de.wikipedia.org/wiki/Amsel');
    assert.equal(r.body.cached, false, 'another locale is another question');
    assert.deepEqual(
      inat.searchesFor('Turdus merula').map((s) => s.locale),
      ['en', 'de'],
    );
  });

  test('a search result without its summary: the summary and article come from the taxon itself', async () => {
    const r = await alice.A.get(ask({ scientific_name: 'Parus major' }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.taxon_id, 203153);
    assert.equal(r.body.summary, 'The great tit (Parus major) is a small passerine bird in the tit family Paridae. It is a widespread and common species throughout Europe, the Middle East, Central Asia and east across the Palearctic.');
    assert.equal(r.body.wikipedia_url, 'http://en.wikipedia.org/wiki/Great_tit');
    assert.equal(r.body.image.license_code, null, 'all rights reserved: no licence code');
    assert.equal(r.body.image.attribution, '(c) Jakob Fahr, all rights reserved');
    assert.deepEqual(
      inat.seen.filter((s) => s.path === '/v1/taxa/203153').map((s) => s.locale),
      ['en'],
    );
  });

  test('a card older than 30 days is fetched again; when iNaturalist cannot be reached the old card is still served', async () => {
    const first = await alice.A.get(ask({ scientific_name: 'Erithacus rubecula' }));
    assert.equal(first.body.cached, true);
    const before = inat.searchesFor('Erithacus rubecula').length;

    age('erithacus rubecula', FRESH_MS + 3600_000);
    const refreshed = await alice.A.get(ask({ scientific_name: 'Erithacus rubecula' }));
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal(refreshed.body.cached, false);
    assert.equal(inat.searchesFor('Erithacus rubecula').length, before + 1);
    assert.ok(Date.parse(refreshed.body.fetched_at) >= Date.parse(first.body.fetched_at));

    age('erithacus rubecula', FRESH_MS + 3600_000);
    await whileOffline(async () => {
      for (const c of [alice.A, alice.B]) {
        const stale = await c.get(ask({ scientific_name: 'Erithacus rubecula' }));
        assert.equal(stale.status, 200, stale.text);
        assert.equal(data(c, stale).taxon_id, 13094);
        assert.equal(data(c, stale).cached, true);
        assert.equal(data(c, stale).fetched_at, refreshed.body.fetched_at, 'the card as it was fetched');
      }
    });
  });

  test('offline with nothing cached: 503 species_reference_offline with the cause (both variants)', async () => {
    await whileOffline(async () => {
      for (const c of [alice.A, alice.B]) {
        const r = await c.get(ask({ scientific_name: 'Pica pica' }));
        assert.equal(r.status, 503, r.text);
        const p = problem(c, r);
        assert.equal(p.code, 'species_reference_offline');
        assert.match(p.detail, /^The species reference needs the internet; this machine could not reach iNaturalist\. /);
        assert.match(p.detail, /connection was refused \(ECONNREFUSED\)/);
        assert.equal((p as { retryable?: boolean }).retryable, true);
      }
    });
    // Nothing was remembered: online again, the question goes to iNaturalist (which knows no magpie here: 404).
    const r = await alice.A.get(ask({ scientific_name: 'Pica pica' }));
    assert.equal(r.status, 404, r.text);
    assert.equal(inat.searchesFor('Pica pica').length, 1);
  });

  test('iNaturalist answering 500, HTML, JSON that is not taxa or megabytes: 502 species_reference_unavailable, nothing remembered', async () => {
    const cases: [FakeMode, RegExp][] = [
      ['error500', /HTTP 500/],
      ['not-json', /not JSON/],
      ['not-taxa', /not a page of taxa/],
      ['huge', /more than 2 MiB/],
    ];
    for (const [mode, cause] of cases) {
      for (const c of [alice.A, alice.B]) {
        const r = await withMode(mode, () => c.get(ask({ scientific_name: 'Cyanistes caeruleus' })));
        assert.equal(r.status, 502, `${mode}: ${r.text}`);
        const p = problem(c, r);
        assert.equal(p.code, 'species_reference_unavailable', mode);
        assert.match(p.detail, cause, mode);
      }
    }
    const n = inat.searchesFor('Cyanistes caeruleus').length;
    assert.equal(n, cases.length * 2, 'every failed ask went to iNaturalist: failures are not cached');
    const healed = await alice.A.get(ask({ scientific_name: 'Cyanistes caeruleus' }));
    assert.equal(healed.status, 404, healed.text);
    assert.equal(inat.searchesFor('Cyanistes caeruleus').length, n + 1);
  });

  test('no answer (or a body that stops half-way) within the timeout: 503 with the cause, never a hang', async () => {
    for (const mode of ['hang', 'hang-body'] as const) {
      for (const c of [alice.A, alice.B]) {
        const r = await withMode(mode, () => c.get(ask({ scientific_name: 'Sitta europaea' })));
        assert.equal(r.status, 503, `${mode}: ${r.text}`);
        const p = problem(c, r);
        assert.equal(p.code, 'species_reference_offline');
        assert.match(p.detail, /127\.0\.0\.1:\d+ did not answer within 3 s\./, mode);
      }
    }
  });

  test('an unknown species: 404 species_not_found, remembered for a day, then asked again', async () => {
    for (const c of [alice.A, alice.B]) {
      const r = await c.get(ask({ scientific_name: 'Nonexistus imaginarius', common_name: 'Snark' }));
      assert.equal(r.status, 404, r.text);
      const p = problem(c, r);
      assert.equal(p.code, 'species_not_found');
      assert.match(p.detail, /“Nonexistus imaginarius” or “Snark”/);
    }
    assert.equal(inat.searchesFor('Nonexistus imaginarius').length, 1, 'the second ask was answered from the catalog');
    assert.equal(inat.searchesFor('Snark').length, 1);

    age('nonexistus imaginarius', MISS_MS + 60_000);
    await whileOffline(async () => {
      const r = await alice.A.get(ask({ scientific_name: 'Nonexistus imaginarius', common_name: 'Snark' }));
      assert.equal(problem(alice.A, r).code, 'species_reference_offline', 'an old "none" is not a guess to serve offline');
    });
    const again = await alice.A.get(ask({ scientific_name: 'Nonexistus imaginarius', common_name: 'Snark' }));
    assert.equal(problem(alice.A, again).code, 'species_not_found');
    assert.equal(inat.searchesFor('Nonexistus imaginarius').length, 2);
  });

  test('bad input: 422 naming the field (both variants), and nothing asked of iNaturalist', async () => {
    const before = inat.seen.length;
    const long = 'a'.repeat(201);
    const cases: [Record<string, string>, string][] = [
      [{}, 'query.scientific_name'],
      [{ locale: 'de' }, 'query.scientific_name'],
      [{ scientific_name: '   ', common_name: '' }, 'query.scientific_name'],
      [{ scientific_name: long }, 'query.scientific_name'],
      [{ common_name: long }, 'query.common_name'],
      [{ scientific_name: 'Turdus\nmerula' }, 'query.scientific_name'],
      [{ common_name: 'Black\u0000bird' }, 'query.common_name'],
      [{ scientific_name: 'Turdus merula', locale: 'english please' }, 'query.locale'],
      [{ scientific_name: 'Turdus merula', locale: 'x' }, 'query.locale'],
      [{ scientific_name: 'Turdus merula', locale: `en-${'a'.repeat(40)}` }, 'query.locale'],
    ];
    for (const [params, field] of cases) {
      for (const c of [alice.A, alice.B]) {
        const r = await c.get(ask(params));
        assert.equal(r.status, 422, `${JSON.stringify(params)}: ${r.text}`);
        const p = problem(c, r);
        assert.equal(p.code, 'validation_failed');
        assert.ok(p.errors?.some((e) => e.field === field), `${JSON.stringify(params)} names ${field}: ${JSON.stringify(p.errors)}`);
      }
    }
    assert.equal(inat.seen.length, before);
  });

  test('signed out: 401 (both variants)', async () => {
    for (const variant of ['A', 'B'] as const) {
      const anon = new Client(srv.url, variant);
      const r = await anon.get(ask({ scientific_name: 'Turdus merula' }));
      assert.equal(r.status, 401, r.text);
      assert.equal(problem(anon, r).code, 'unauthorized');
    }
  });
});

describe('species reference cards are kept in the catalog, for the whole household', { timeout: 180_000 }, () => {
  test('a card one member fetched opens for another, and after a restart with iNaturalist out of reach', async () => {
    const inat = new FakeINaturalist();
    await inat.start();
    let srv = await startServer({ env: { HEARTH_SPECIES_BASE_URL: inat.url, HEARTH_SPECIES_TIMEOUT_MS: String(TIMEOUT_MS) } });
    const dataDir = srv.dataDir;
    try {
      const alice = new Client(srv.url, 'A');
      await registerAdmin(alice);
      const bob = new Client(srv.url, 'B');
      await addMember(alice, bob, 'bob');
      const first = await alice.get(ask({ scientific_name: 'Parus major' }));
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.cached, false);
      const forBob = await bob.get(ask({ scientific_name: 'Parus major' }));
      assert.equal(forBob.status, 200, forBob.text);
      assert.deepEqual(data(bob, forBob), { ...first.body, cached: true });
      assert.equal(inat.searchesFor('Parus major').length, 1);

      await srv.stop();
      await inat.stop();
      srv = await startServer({ dataDir, env: { HEARTH_SPECIES_BASE_URL: inat.url, HEARTH_SPECIES_TIMEOUT_MS: String(TIMEOUT_MS) } });
      const again = new Client(srv.url, 'A');
      await login(again, 'alice');
      const r = await again.get(ask({ scientific_name: 'Parus major' }));
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, { ...first.body, cached: true });
    } finally {
      await srv.stop({ removeData: true });
      await inat.stop();
    }
  });
});

describe('species reference settings', () => {
  test('HEARTH_SPECIES_BASE_URL defaults to iNaturalist and must be http(s); the timeout is bounded', () => {
    assert.deepEqual(loadConfig({}).species, { baseUrl: 'https://api.inaturalist.org/v1', timeoutMs: 6000 });
    assert.equal(loadConfig({ HEARTH_SPECIES_BASE_URL: 'http://127.0.0.1:9/v1/' }).species.baseUrl, 'http://127.0.0.1:9/v1');
    assert.throws(() => loadConfig({ HEARTH_SPECIES_BASE_URL: 'ftp://example.org' }), /HEARTH_SPECIES_BASE_URL/);
    assert.throws(() => loadConfig({ HEARTH_SPECIES_TIMEOUT_MS: '0' }), /HEARTH_SPECIES_TIMEOUT_MS/);
  });
});
