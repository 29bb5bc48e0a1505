/**
 * Every JSON answer the test client receives is checked against the schema the served OpenAPI
 * document declares for its operation, status and media type (JSON Schema 2020-12, as OpenAPI 3.1
 * uses, through ajv). In variant B the envelope `{code, data, error, message}` is checked and `data`
 * against the same schema. A mismatch fails the test that made the request: the document must say
 * what the server sends.
 *
 * Not checked: requests to paths the document does not know (tests of unknown routes), and answers
 * that are not JSON (files, streams).
 */
import { AssertionError } from 'node:assert';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  /** Literal segments first: `/jobs/stats` wins over `/jobs/{id}`. */
  literals: number;
  op: Operation;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const DOC_ID = 'https://hearth.invalid/openapi.json';

export interface ResponseCheck {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: unknown;
  variant: string;
}

export class ResponseSchemas {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor(readonly doc: { paths: Record<string, Record<string, Operation>>; components?: Json }) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ $id: DOC_ID, components: doc.components ?? {} });
    this.routes = Object.entries(doc.paths).flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'put', 'post', 'patch', 'delete', 'head'].includes(method))
        .map(([method, op]) => ({
          method,
          template,
          pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
          literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
          op,
        })),
    );
    this.routes.sort((a, b) => b.literals - a.literals);
  }

  /** Throws an AssertionError naming the operation and the mismatches when the answer does not fit. */
  check(r: ResponseCheck): void {
    const route = this.route(r.method, r.path);
    if (!route) return;
    const where = `${r.method.toUpperCase()} ${r.path} → ${r.status} (${route.template}, variant ${r.variant})`;
    let payload = r.body;
    if (r.variant === 'B' && r.contentType.startsWith('application/json')) {
      const env = r.body as Json;
      const shapeOk =
        env && typeof env === 'object' && !Array.isArray(env) && Object.keys(env).sort().join(',') === 'code,data,error,message' &&
        typeof env.code === 'number' && typeof env.error === 'string' && typeof env.message === 'string';
      if (!shapeOk) fail(where, `not a variant B envelope: ${JSON.stringify(r.body).slice(0, 300)}`);
      payload = env.data;
    }
    const validate = this.validator(route, r.status, r.contentType, r.variant);
    if (validate === undefined) fail(where, `the document declares no JSON answer for status ${r.status}`);
    if (validate === null) return; // declared without a schema
    if (!validate(payload)) {
      const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
      fail(where, `${errors.join('; ')}\nbody: ${JSON.stringify(payload).slice(0, 600)}`);
    }
  }

  /** The compiled schema of an operation's answer; undefined when the status is not declared as JSON. */
  private validator(route: Route, status: number, contentType: string, variant: string): ValidateFunction | null | undefined {
    const responses = route.op.responses ?? {};
    const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (!declared) return undefined;
    const content = declared.content ?? {};
    // Variant B wraps problems in an application/json envelope: their schema is the problem's.
    const type = contentType.split(';')[0]!.trim();
    const media = content[type] ?? (variant === 'B' ? (content['application/problem+json'] ?? content['application/json']) : undefined);
    if (!media) return undefined;
    if (!media.schema) return null;
    const key = `${route.method} ${route.template} ${status} ${type} ${variant}`;
    if (!this.compiled.has(key)) this.compiled.set(key, this.ajv.compile(anchored(media.schema)));
    return this.compiled.get(key)!;
  }

  private route(method: string, path: string): Route | undefined {
    const m = method.toLowerCase();
    return this.routes.find((r) => r.method === m && r.pattern.test(path));
  }
}

/** A schema whose `#/components/...` references point into the document registered under DOC_ID. */
function anchored(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, `"$ref":"${DOC_ID}#/components/`)) as Json;
}

function fail(where: string, message: string): never {
  throw new AssertionError({ message: `The answer does not match the OpenAPI document: ${where}: ${message}` });
}

const byBase = new Map<string, Promise<ResponseSchemas>>();

/** The checker for the server at `base`, built once from the document it serves. */
export function responseSchemasFor(base: string): Promise<ResponseSchemas> {
  let p = byBase.get(base);
  if (!p) {
    p = fetch(`${base}/api/openapi.json`).then(async (res) => {
      if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
      return new ResponseSchemas((await res.json()) as ConstructorParameters<typeof ResponseSchemas>[0]);
    });
    byBase.set(base, p);
  }
  return p;
}
