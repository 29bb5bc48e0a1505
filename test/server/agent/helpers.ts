/**
 * The assistant's tests share one library (the `agent` template: alice's cameras over the years, a video,
 * geotagged photos; bob's own photos) and read the server-sent events of chatAgent and resumeAgentChat whole.
 */
import assert from 'node:assert/strict';
import { RECIPES } from '../../template/recipes.ts';
import { startServer, templateClient, type Client, type TestServer } from '../helpers/server.ts';
import { V1 } from '../helpers/api.ts';

export interface Sse {
  event: string;
  data: any;
}

export async function agentServer(): Promise<{ srv: TestServer; alice: Client; bob: Client; aliceB: Client }> {
  const srv = await startServer({ template: RECIPES.agent });
  const alice = await templateClient(srv, 'alice');
  const bob = await templateClient(srv, 'bob');
  const aliceB = await templateClient(srv, 'alice', 'B');
  return { srv, alice, bob, aliceB };
}

export async function enableAgent(admin: Client, on = true): Promise<void> {
  const r = await admin.patch(`${V1}/settings/system`, { llm: { agent_enabled: on } });
  assert.equal(r.status, 200, r.text);
}

/** POSTs to an SSE operation and reads the whole stream (it must end with `done`). */
export async function stream(client: Client, path: string, body: unknown): Promise<{ status: number; type: string; events: Sse[]; text: string }> {
  const res = await fetch(`${client.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${client.token}`, 'x-api-variant': client.variant },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith('text/event-stream')) return { status: res.status, type, events: [], text };
  const events: Sse[] = [];
  for (const block of text.split(/\n\n/)) {
    const ev = /^event: ?(.*)$/m.exec(block)?.[1];
    const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((m) => m[1]).join('\n');
    if (ev) events.push({ event: ev, data: data ? JSON.parse(data) : null });
  }
  return { status: res.status, type, events, text };
}

export const chat = (c: Client, body: Record<string, unknown>) => stream(c, `${V1}/agent/chat`, body);
export const resume = (c: Client, body: Record<string, unknown>) => stream(c, `${V1}/agent/chat/resume`, body);

/** The tools called in a stream, in order (their `running` side events). */
export function toolsCalled(events: Sse[]): string[] {
  return events.filter((e) => e.event === 'side_event' && e.data.type === 'tool_execution' && e.data.execution.status === 'running').map((e) => e.data.tool.name);
}

/** The text the assistant said in a stream. */
export function said(events: Sse[]): string {
  return events.filter((e) => e.event === 'message' && typeof e.data.output === 'string').map((e) => e.data.output).join('');
}

export function sessionOf(events: Sse[]): { thread_id: string; run_id: string; dropped_mentions?: any[] } {
  const s = events.find((e) => e.event === 'session_info');
  assert.ok(s, 'a session_info event');
  return s.data;
}

/** The last ref a tool or card made (the set the answer is about) and its count. */
export function lastRef(events: Sse[]): { ref: string; count: number } {
  const shown = events.filter((e) => e.event === 'side_event' && e.data.type === 'widget_show').at(-1);
  if (shown) return { ref: shown.data.data.refId, count: shown.data.data.count };
  const done = events.filter((e) => e.event === 'side_event' && e.data.type === 'tool_execution' && e.data.execution.status === 'success' && e.data.data?.refId).at(-1);
  assert.ok(done, 'a tool made a ref');
  return { ref: done.data.data.refId, count: done.data.data.count };
}

export function interruptOf(events: Sse[]): any {
  const m = events.find((e) => e.event === 'message' && e.data.action);
  assert.ok(m, `a confirmation was asked: ${JSON.stringify(events.map((e) => e.event))}`);
  return m.data.action;
}

/** The B envelope's data, or the A body. */
export function data(r: { body: any }, variant: 'A' | 'B'): any {
  if (variant === 'B') {
    assert.equal(r.body.code, 0, JSON.stringify(r.body));
    return r.body.data;
  }
  return r.body;
}
