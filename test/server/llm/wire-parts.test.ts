/** The small parts of the model client: the SSE reader across awkward chunk boundaries, and where a server is. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SseReader } from '../../../server/src/adapters/llm/sse.ts';
import { localityOf, normaliseBaseUrl } from '../../../server/src/adapters/llm/providers.ts';

describe('SseReader', () => {
  test('events split anywhere (inside CRLF, inside a UTF-8 character) come out whole; comments and other fields are skipped', () => {
    const wire = Buffer.from(': keep-alive\r\n\r\nevent: message\r\ndata: {"a":"Zoë 📷"}\r\n\r\ndata: line one\ndata: line two\n\ndata: [DONE]\r\r', 'utf8');
    for (let cut = 1; cut < wire.length; cut++) {
      const reader = new SseReader();
      const events = [...reader.push(wire.subarray(0, cut)), ...reader.push(wire.subarray(cut)), ...reader.end()];
      assert.deepEqual(events, ['{"a":"Zoë 📷"}', 'line one\nline two', '[DONE]'], `cut at byte ${cut}`);
      assert.equal(reader.strayLines, 0);
    }
  });

  test('an event left open at the end is still read; lines that are not SSE are counted as stray', () => {
    const reader = new SseReader();
    assert.deepEqual([...reader.push(Buffer.from('<html>\ndata: {"x":1}')), ...reader.end()], ['{"x":1}']);
    assert.equal(reader.strayLines, 1);
  });
});

describe('localityOf', () => {
  test('loopback is this device, private ranges and local names the home network, anything else the internet', () => {
    const cases: [string, string][] = [
      ['http://127.0.0.1:11434/v1', 'this_device'],
      ['http://localhost:1234/v1', 'this_device'],
      ['http://[::1]:8080/v1', 'this_device'],
      ['http://192.168.1.20:11434/v1', 'home_network'],
      ['http://10.0.0.5/v1', 'home_network'],
      ['http://172.20.0.2/v1', 'home_network'],
      ['http://[fd00::5]/v1', 'home_network'],
      ['http://gpu-box.local:8080/v1', 'home_network'],
      ['http://ollama:11434/v1', 'home_network'],
      ['http://172.32.0.1/v1', 'internet'],
      ['https://api.openai.com/v1', 'internet'],
      ['https://llm.example.com/v1', 'internet'],
    ];
    for (const [url, where] of cases) assert.equal(localityOf(new URL(url)), where, url);
  });

  test('a base URL is normalised: credentials, query and fragment dropped, a trailing slash added; other schemes refused', () => {
    assert.equal(normaliseBaseUrl('http://user:pw@127.0.0.1:1234/v1?x=1#y').href, 'http://127.0.0.1:1234/v1/');
    assert.throws(() => normaliseBaseUrl('file:///etc/passwd'), /not http/);
  });
});
