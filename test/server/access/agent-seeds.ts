/**
 * The assistant's owner-scoped things for the permission matrices, made the way a member makes them: the
 * administrator turns the assistant on, the owner asks for their photos (a conversation and its ref `r1`),
 * pins the answer, and asks for an album of them, which waits for the owner's yes (an effect). Made through
 * the API (the deterministic planner, no model): the rows are exactly what the feature writes.
 */
import assert from 'node:assert/strict';
import type { Client } from '../helpers/server.ts';
import { V1 } from '../helpers/api.ts';
import { chat, enableAgent, interruptOf, lastRef, sessionOf } from '../agent/helpers.ts';

export interface AgentSeeds {
  agent_thread: string[];
  agent_pin: string[];
  agent_effect: string[];
  /** Ref ids (`r<seq>`) of the owner's conversation: `/agent/refs/{id}` names them. */
  ref: string[];
}

export async function seedAgentKinds(admin: Client, owner: Client, mark: string): Promise<AgentSeeds> {
  await enableAgent(admin);
  const shown = await chat(owner, { query: 'show photos' });
  const { thread_id } = sessionOf(shown.events);
  const { ref, count } = lastRef(shown.events);
  assert.ok(count > 0, 'the owner has photos to show');
  const pin = await owner.post(`${V1}/agent/pins`, { thread_id, ref_id: ref, title: `${mark} pin`, mode: 'frozen' });
  assert.equal(pin.status, 200, pin.text);
  const asked = await chat(owner, { thread_id, query: `make an album called "${mark} picks" of photos` });
  const action = interruptOf(asked.events);
  return { agent_thread: [thread_id], agent_pin: [pin.body.pin_id], agent_effect: [action.interrupt_id], ref: [ref] };
}
