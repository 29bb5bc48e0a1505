/**
 * `validateLlmSettings` through the real server, in both response variants, against a model server on loopback
 * (helpers/openai-fake.ts): every check's failure said in words, the success, the capabilities it feeds, and the
 * API key never in an answer, a log line, or a request to a server it was not saved for.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, type TestServer } from '../helpers/server.ts';
import { V1, data, problem, signedInHousehold } from '../helpers/api.ts';
import { OpenAiFake, type FakeReply } from '../helpers/openai-fake.ts';

const KEY = 'sk-household-secret-4242';
const MODEL = 'qwen2.5:7b';
const PROBE_OK: FakeReply[] = [{ toolCalls: [{ name: 'report_photo_count', arguments: { count: 3 } }] }, { text: 'Reported.' }];

for (const variant of ['A', 'B'] as const) {
  describe(`validateLlmSettings (variant ${variant})`, () => {
    let srv: TestServer;
    let fake: OpenAiFake;
    let admin: Client;
    let member: Client;
    const logLines: string[] = [];
    const answers: string[] = [];

    before(async () => {
      fake = await OpenAiFake.start({ models: ['llama3.2:latest', MODEL], apiKey: KEY });
      srv = await startServer({ env: { HEARTH_LOG_LEVEL: 'debug' }, logTo: { write: (line) => void logLines.push(line) } });
      const household = await signedInHousehold(srv.url, variant, ['bob']);
      admin = household.admin;
      member = household.members.bob.client;
      const saved = await admin.patch(`${V1}/settings/system`, { llm: { provider: 'custom', base_url: fake.url, model_name: MODEL, api_key: KEY, idle_timeout_s: 2 } });
      assert.equal(saved.status, 200, saved.text);
      answers.push(saved.text);
    });
    after(async () => {
      await srv.stop({ removeData: true });
      await fake.close();
    });

    async function validate(body?: unknown) {
      const r = await admin.post(`${V1}/settings/system/validate-llm`, body);
      answers.push(r.text);
      assert.equal(r.status, 200, r.text);
      return data(admin, r);
    }
    const statuses = (v: any) => Object.fromEntries(v.checks.map((c: any) => [c.name, c.status]));

    test('the saved settings pass: the server answers, has the model, and the model calls a tool and reads its result', async () => {
      assert.equal(data(admin, await admin.get(`${V1}/capabilities`)).llm.availability, 'unchecked');
      fake.script(...PROBE_OK);
      const v = await validate();
      assert.equal(v.ok, true, JSON.stringify(v));
      assert.deepEqual(statuses(v), { settings: 'passed', server: 'passed', model: 'passed', tools: 'passed' });
      assert.equal(v.problem, null);
      assert.deepEqual(v.models, ['llama3.2:latest', MODEL]);
      assert.equal(v.usage_reported, true);
      assert.equal(v.locality, 'this_device');
      assert.equal(v.base_url, fake.url);
      const [probe, answer] = fake.chatRequests.slice(-2);
      assert.equal(probe!.headers.authorization, `Bearer ${KEY}`, 'the saved key goes to the saved server');
      assert.equal(probe!.body.stream, true);
      assert.deepEqual(probe!.body.tools.map((t: any) => t.function.name), ['report_photo_count']);
      assert.equal(answer!.body.messages.at(-1).role, 'tool');
      const caps = data(admin, await admin.get(`${V1}/capabilities`));
      assert.deepEqual([caps.llm.availability, caps.llm.configured, caps.llm.provider, caps.llm.model_name], ['ready', true, 'custom', MODEL]);
    });

    test('a 429 before the answer is retried, and the test passes', async () => {
      fake.script({ status: 429, headers: { 'retry-after': '0' } }, ...PROBE_OK);
      const before = fake.chatRequests.length;
      const v = await validate();
      assert.equal(v.ok, true, JSON.stringify(v.problem));
      assert.equal(fake.chatRequests.length - before, 3);
    });

    test('nothing chosen: not_configured, and the other checks skipped', async () => {
      const v = await validate({ provider: 'none' });
      assert.equal(v.ok, false);
      assert.equal(v.problem.code, 'not_configured');
      assert.deepEqual(statuses(v), { settings: 'failed', server: 'skipped', model: 'skipped', tools: 'skipped' });
      const custom = await validate({ provider: 'custom', base_url: null });
      assert.match(custom.problem.message, /Enter the address/);
    });

    test('a server that is not there is unreachable', async () => {
      const port = await closedPort();
      const v = await validate({ base_url: `http://127.0.0.1:${port}/v1`, api_key: null, connect_timeout_s: 2 });
      assert.equal(v.problem.code, 'unreachable');
      assert.match(v.problem.message, /could not be reached: nothing answers/);
      assert.match(v.problem.hint, /Start the model server/);
      assert.deepEqual(statuses(v), { settings: 'passed', server: 'failed', model: 'skipped', tools: 'skipped' });
    });

    test('a wrong key is `auth`, and the key the server echoed back is not in the answer', async () => {
      const wrong = 'sk-typo-key-1111';
      const r = await admin.post(`${V1}/settings/system/validate-llm`, { api_key: wrong });
      const v = data(admin, r);
      assert.equal(v.problem.code, 'auth');
      assert.match(v.problem.message, /refused the API key/);
      assert.ok(!r.text.includes(wrong), 'the echoed key is redacted');
    });

    test('a model the server does not have: model_missing, with the models it has', async () => {
      const v = await validate({ model_name: 'llama9' });
      assert.equal(v.problem.code, 'model_missing');
      assert.match(v.problem.message, /no model named "llama9"/);
      assert.match(v.problem.hint, /llama3\.2:latest/);
      assert.deepEqual(statuses(v), { settings: 'passed', server: 'passed', model: 'failed', tools: 'skipped' });
      fake.script(...PROBE_OK);
      assert.equal((await validate({ model_name: 'llama3.2' })).ok, true, "Ollama's name without :latest is the same model");
    });

    test('a base URL with no chat completions there: not_found, said as a wrong address', async () => {
      const v = await validate({ base_url: fake.url.replace(/\/v1$/, '/api') });
      assert.equal(v.problem.code, 'not_found');
      assert.match(v.problem.hint, /ends in \/v1/);
      assert.equal(statuses(v).model, 'skipped', 'no model list there either');
    });

    test('a model that answers in words, or calls the tool wrongly, cannot plan', async () => {
      fake.script({ text: 'There are 3 photos.' });
      const words = await validate();
      assert.equal(words.problem.code, 'no_tool_call');
      assert.match(words.problem.hint, /tool calling/);
      assert.deepEqual(statuses(words), { settings: 'passed', server: 'passed', model: 'passed', tools: 'failed' });

      fake.script({ toolCalls: [{ name: 'report_photo_count', arguments: { count: 'three' } }] });
      const wrongly = await validate();
      assert.equal(wrongly.problem.code, 'invalid_tool_call');
      assert.match(wrongly.problem.message, /invalid arguments: count: expected an integer/);
    });

    test('silence, a cut stream and garbage each say what happened', async () => {
      fake.script({ hang: true });
      const silent = await validate({ idle_timeout_s: 1 });
      assert.equal(silent.problem.code, 'timeout');
      assert.match(silent.problem.message, /stopped answering: nothing came for 1 s/);

      fake.script({ cutAfter: 'I will call' });
      assert.equal((await validate()).problem.code, 'interrupted');

      fake.script({ garbage: '<html>It works!</html>', contentType: 'text/html' });
      const garbage = await validate();
      assert.equal(garbage.problem.code, 'bad_response');
      assert.match(garbage.problem.message, /not the OpenAI format.*It works!/);
    });

    test('the saved key is not sent to a server it was not saved for', async () => {
      const other = await OpenAiFake.start({ models: [MODEL] });
      try {
        other.script(...PROBE_OK);
        const v = await validate({ base_url: other.url });
        assert.equal(v.ok, true, JSON.stringify(v.problem));
        assert.ok(other.requests.length >= 3);
        for (const r of other.requests) assert.equal(r.headers.authorization, undefined);
      } finally {
        await other.close();
      }
    });

    test('bad input is 422 naming the field; a member is refused', async () => {
      const scheme = await admin.post(`${V1}/settings/system/validate-llm`, { base_url: 'file:///etc/passwd' });
      assert.equal(scheme.status, 422);
      assert.equal(problem(admin, scheme).errors?.[0]?.field, 'body.base_url');
      const unknown = await admin.post(`${V1}/settings/system/validate-llm`, { temperature: 2 });
      assert.equal(unknown.status, 422);
      const timeout = await admin.post(`${V1}/settings/system/validate-llm`, { idle_timeout_s: 0 });
      assert.equal(problem(admin, timeout).errors?.[0]?.field, 'body.idle_timeout_s');
      const bob = await member.post(`${V1}/settings/system/validate-llm`, {});
      assert.equal(bob.status, 403);
      assert.equal(problem(member, bob).code, 'admin_only');
    });

    test('a failed test of the saved settings shows in capabilities; the key was never in an answer or a log line', async () => {
      fake.script({ text: 'no tools here' });
      assert.equal((await validate()).ok, false);
      assert.equal(data(admin, await admin.get(`${V1}/capabilities`)).llm.availability, 'unreachable');
      const settings = await admin.get(`${V1}/settings/system`);
      answers.push(settings.text);
      assert.equal(data(admin, settings).llm.api_key_configured, true);
      assert.ok(logLines.some((l) => l.includes('model settings tested')), 'the tests were logged');
      for (const text of [...answers, ...logLines]) assert.ok(!text.includes(KEY), `the key leaked: ${text.slice(0, 200)}`);
    });

    test('moving the model to another server clears the saved key unless the patch gives one; another path on the same server keeps it', async () => {
      const samePlace = data(admin, await admin.patch(`${V1}/settings/system`, { llm: { base_url: `${fake.url}/` } }));
      assert.equal(samePlace.llm.api_key_configured, true);
      const withKey = data(admin, await admin.patch(`${V1}/settings/system`, { llm: { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-for-the-other-one' } }));
      assert.equal(withKey.llm.api_key_configured, true);
      const moved = data(admin, await admin.patch(`${V1}/settings/system`, { llm: { provider: 'ollama', base_url: null } }));
      assert.equal(moved.llm.api_key_configured, false, 'a key entered for 127.0.0.1:9 does not follow the model to Ollama');
    });
  });
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
