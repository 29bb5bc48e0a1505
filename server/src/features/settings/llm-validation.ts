/**
 * "Test connection" (`validateLlmSettings`): does the model server answer, does it have the model, and can the
 * model call tools. The contract calls it a lightweight test request and says no more; Hearth answers 200 with a
 * result object whatever the model server did (the test ran; its outcome is about another machine), and keeps
 * problem+json for a request that is itself wrong (422). Each check says in words what it found, and `problem`
 * says what to do about the first failure, so the settings page can show it as it is.
 *
 * The checks, in order, each skipped once one before it failed:
 * 1. `settings`: a server and a model are chosen.
 * 2. `server`: `GET {base}/models` answers (a 404 there is fine: not every compatible server lists its models;
 *    the next checks then find out).
 * 3. `model`: the model is in that list (Ollama's `name` and `name:latest` are the same model).
 * 4. `tools`: a tiny streamed round trip: the model is asked to call `report_photo_count`, its call is checked,
 *    a tool result goes back and the model answers. This is what the assistant does on every request, so a model
 *    that passes here can plan; one that answers in text instead cannot.
 */
import { z } from '@hono/zod-openapi';
import {
  LlmError,
  instructions,
  systemMessage,
  toolResult,
  userRequest,
  assistantTurn,
  type LlmClient,
  type ToolSpec,
} from '../../adapters/llm/index.ts';
import { LLM_PROVIDERS } from '../../config/settings.ts';
import type { LlmTarget } from './llm-connection.ts';

const CheckName = z.enum(['settings', 'server', 'model', 'tools']);
const Check = z.object({
  name: CheckName,
  status: z.enum(['passed', 'failed', 'skipped']),
  message: z.string(),
});

export const LlmValidationSchema = z
  .object({
    ok: z.boolean().openapi({ description: 'Every check passed: the assistant can use this model.' }),
    provider: z.enum(LLM_PROVIDERS),
    base_url: z.string().nullable().openapi({ description: 'The address tested (the provider’s usual one when none was given).' }),
    model_name: z.string().nullable(),
    locality: z.enum(['this_device', 'home_network', 'internet']).nullable().openapi({
      description: 'Where the model server is: on this machine or the home network (nothing leaves the house), or on the internet (requests carry text and photo metadata there, never original files).',
    }),
    checks: z.array(Check),
    problem: z
      .object({
        code: z.string().openapi({ description: 'Stable: not_configured, auth, model_missing, not_found, rate_limited, timeout, unreachable, server_error, rejected, bad_response, interrupted, no_tool_call, invalid_tool_call.' }),
        message: z.string(),
        hint: z.string().nullable(),
      })
      .nullable(),
    models: z.array(z.string()).nullable().openapi({ description: 'The models the server lists (at most 200), to choose from; null when it has no list or was not reached.' }),
    usage_reported: z.boolean().nullable().openapi({ description: 'The server reports token usage (null: the round trip did not complete).' }),
    duration_ms: z.number().int(),
  })
  .openapi('LlmValidation');
export type LlmValidation = z.infer<typeof LlmValidationSchema>;
type CheckResult = z.infer<typeof Check>;

const PROBE_TOOL: ToolSpec = {
  name: 'report_photo_count',
  description: 'Reports how many photos were counted.',
  parameters: { type: 'object', properties: { count: { type: 'integer', description: 'the number of photos' } }, required: ['count'], additionalProperties: false },
  validate(args) {
    const count = (args as { count?: unknown } | null)?.count;
    return typeof count === 'number' && Number.isInteger(count) ? { ok: true, value: { count } } : { ok: false, problems: ['count: expected an integer'] };
  },
};
const PROBE_SYSTEM = instructions`You are being tested for tool calling. Do what the request says, using the tool.`;
const PROBE_REQUEST = 'Call the tool report_photo_count with count 3.';

export async function validateLlm(target: LlmTarget, client: LlmClient | null, signal: AbortSignal): Promise<LlmValidation> {
  const started = Date.now();
  const checks: CheckResult[] = [];
  const result = (problem: LlmValidation['problem'], extra: Partial<LlmValidation> = {}): LlmValidation => {
    for (const name of CheckName.options) if (!checks.some((c) => c.name === name)) checks.push({ name, status: 'skipped', message: 'Not checked: an earlier check failed.' });
    return {
      ok: problem === null,
      provider: target.provider,
      base_url: target.configured ? target.endpoint.baseUrl.href.replace(/\/$/, '') : target.baseUrl,
      model_name: target.configured ? target.endpoint.model : target.model,
      locality: target.configured ? target.locality : null,
      checks,
      problem,
      models: null,
      usage_reported: null,
      duration_ms: Date.now() - started,
      ...extra,
    };
  };
  if (!target.configured || !client) {
    checks.push({ name: 'settings', status: 'failed', message: target.configured ? 'No client.' : target.reason });
    return result({ code: 'not_configured', message: target.configured ? 'No client.' : target.reason, hint: null });
  }
  checks.push({ name: 'settings', status: 'passed', message: `${target.endpoint.model} at ${target.endpoint.baseUrl.host}.` });
  const model = target.endpoint.model;

  let models: string[] | null;
  try {
    models = await client.listModels(signal);
    checks.push({ name: 'server', status: 'passed', message: models ? `The server answers and lists ${models.length} model${models.length === 1 ? '' : 's'}.` : 'The server answers (it does not list its models).' });
  } catch (e) {
    const problem = problemOf(e, signal);
    checks.push({ name: 'server', status: 'failed', message: problem.message });
    return result(problem);
  }
  const listed = models?.slice(0, 200) ?? null;
  if (models === null) {
    checks.push({ name: 'model', status: 'skipped', message: 'The server does not list its models; the tool check below uses the model.' });
  } else if (!models.some((m) => sameModel(m, model))) {
    const message = `The server has no model named "${model}".`;
    checks.push({ name: 'model', status: 'failed', message });
    const hint = models.length > 0 ? `Choose one it lists: ${models.slice(0, 10).join(', ')}${models.length > 10 ? ', …' : ''}.` : 'The server lists no models: with Ollama, `ollama pull` one; with LM Studio, load one.';
    return result({ code: 'model_missing', message, hint }, { models: listed });
  } else {
    checks.push({ name: 'model', status: 'passed', message: `The server has ${model}.` });
  }

  try {
    const messages = [systemMessage(PROBE_SYSTEM), userRequest(PROBE_REQUEST)];
    const first = await client.complete({ messages, tools: [PROBE_TOOL], signal });
    const call = first.toolCalls.find((c) => c.name === PROBE_TOOL.name) ?? first.toolCalls[0];
    if (!call) {
      const message = 'The model answered in words instead of calling the tool it was asked to call.';
      checks.push({ name: 'tools', status: 'failed', message });
      return result({ code: 'no_tool_call', message, hint: 'Choose a model made for tool calling (for example Llama 3.1 or later, Qwen 2.5 or later, Mistral Nemo); with llama.cpp, start the server with --jinja.' }, { models: listed, usage_reported: first.usage !== null });
    }
    if (call.status !== 'ok') {
      const message = `The model called the tool wrongly (${call.status.replace('_', ' ')}: ${(call.problems ?? []).join(' ')}).`;
      checks.push({ name: 'tools', status: 'failed', message });
      return result({ code: 'invalid_tool_call', message, hint: 'A larger model, or one made for tool calling, follows tool schemas more reliably.' }, { models: listed, usage_reported: first.usage !== null });
    }
    const second = await client.complete({ messages: [...messages, assistantTurn(first.text, [call]), toolResult(call.id, { received: true })], tools: [PROBE_TOOL], signal });
    checks.push({ name: 'tools', status: 'passed', message: 'The model called a tool and answered its result.' });
    return result(null, { models: listed, usage_reported: first.usage !== null && second.usage !== null });
  } catch (e) {
    const problem = problemOf(e, signal);
    checks.push({ name: 'tools', status: 'failed', message: problem.message });
    return result(problem, { models: listed });
  }
}

/** Ollama lists `llama3.2:latest` for the model asked for as `llama3.2`. */
function sameModel(listed: string, wanted: string): boolean {
  return listed === wanted || listed === `${wanted}:latest` || `${listed}:latest` === wanted;
}

function problemOf(e: unknown, signal: AbortSignal): NonNullable<LlmValidation['problem']> {
  if (signal.aborted) throw signal.reason;
  if (e instanceof LlmError) return { code: e.code, message: e.message, hint: e.details.hint ?? null };
  throw e;
}
