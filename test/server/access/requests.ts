/**
 * Requests made from the served OpenAPI document alone, for the permission matrix: every operation
 * with its path parameters, required query parameters and a minimal valid body built from the
 * declared schemas. Values that name a resource (`{id}` after `/assets`, `asset_ids`, `receipt_ids`,
 * `chunk_{session_id}_…`) are taken from a table of real ids, so an operation added tomorrow is called
 * with the owner's resources without new code here. A path parameter or body field marked
 * `x-hearth-owner-scoped` (router.ts ownedPathParam, ownedBodyField) names its kind itself; others are
 * read from the path or the field's name. OVERRIDES holds the few values a schema alone cannot make
 * meaningful.
 */
import crypto from 'node:crypto';

type Schema = any;
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

export interface Operation {
  operationId: string;
  'x-hearth-access': 'public' | 'user' | 'admin' | 'media';
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; example?: unknown; 'x-hearth-owner-scoped'?: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

export interface DocOperation {
  method: string;
  path: string;
  op: Operation;
  /** Path parameters that name one of the caller's own resources: parameter → resource kind. */
  owned: Map<string, string>;
  /** Body fields (dotted paths) marked as naming the caller's own resources: field → resource kind. */
  ownedBody: Map<string, string>;
  /** Every path parameter with the resource kind it names (declared, or read from the path). */
  kinds: Map<string, string>;
  /** The answer is a server-sent event stream (it never ends by itself). */
  streams: boolean;
}

/** Real values to put in requests. */
export interface Ids {
  /** Ids by resource kind, the first one used where one is wanted: `asset` → the owner's asset ids. */
  byKind: Record<string, (string | number)[]>;
  /** The bytes sent for a file field. */
  file: Buffer;
  /** What a field called `hash` gets. */
  hash: string;
}

const one = (ids: Ids, kind: string | undefined) => (kind ? ids.byKind[kind]?.[0] : undefined);

export interface BuiltRequest {
  method: string;
  url: string;
  body?: Buffer | string;
  contentType?: string;
}

export function operationsOf(doc: Doc): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'patch', 'delete'].includes(method)) continue;
      const owned = new Map<string, string>();
      const kinds = new Map<string, string>();
      for (const prm of op.parameters ?? []) {
        // A marked query parameter (the assistant's `thread_id`) is judged as a marked path parameter is.
        if (prm.in === 'query' && prm['x-hearth-owner-scoped']) owned.set(prm.name, prm['x-hearth-owner-scoped']);
        if (prm.in !== 'path') continue;
        if (prm['x-hearth-owner-scoped']) owned.set(prm.name, prm['x-hearth-owner-scoped']);
        kinds.set(prm.name, prm['x-hearth-owner-scoped'] ?? pathKind(p, prm.name));
      }
      const streams = Object.values(op.responses).some((r) => r.content && 'text/event-stream' in r.content);
      const ownedBody = new Map<string, string>();
      const json = op.requestBody?.content['application/json']?.schema;
      if (json) markedFields(doc, json, 'body', ownedBody, 0);
      out.push({ method: method.toUpperCase(), path: p, op, owned, ownedBody, kinds, streams });
    }
  }
  return out;
}

/** The body fields marked `x-hearth-owner-scoped`, by dotted path (an array's marking is on the array). */
function markedFields(doc: Doc, schema: Schema, at: string, out: Map<string, string>, depth: number): void {
  const s = resolve(doc, schema);
  if (!s || depth > 6) return;
  if (typeof s['x-hearth-owner-scoped'] === 'string') out.set(at, s['x-hearth-owner-scoped']);
  for (const x of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) markedFields(doc, x, at, out, depth + 1);
  for (const [k, prop] of Object.entries<Schema>(s.properties ?? {})) markedFields(doc, prop, `${at}.${k}`, out, depth + 1);
}

/**
 * The words a path uses for kinds that are named otherwise: `/people/{id}` is a person, `/events/{id}` a
 * photo event, `/duplicates/groups/{id}` a duplicate group.
 */
const PATH_WORDS: Record<string, string> = { people: 'person', events: 'photo_event', 'duplicates/groups': 'duplicate_group' };

/** Parameters whose segment before does not name their kind: `/events/{id}/members/{mediaItemId}` is a media item. */
const PARAM_KINDS: Record<string, string> = { mediaItemId: 'item' };

/** `/albums/{id}/assets/{assetId}`: `id` names an album, `assetId` an asset (the segment before, singular). */
export function pathKind(p: string, name: string): string {
  if (PARAM_KINDS[name]) return PARAM_KINDS[name];
  const segs = p.split('/');
  const i = segs.indexOf(`{${name}}`);
  const word = segs[i - 1] ?? name;
  return PATH_WORDS[`${segs[i - 2]}/${word}`] ?? PATH_WORDS[word] ?? singular(word);
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** The resource a field or parameter names by its name: `cover_asset_id` → asset, `receipt_ids` → receipt. */
export function fieldKind(name: string): string | undefined {
  const m = /(?:^|_)([a-z]+)_ids?$/.exec(name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase());
  return m?.[1];
}

/**
 * Values a schema cannot give, by field name: `hash` is the BLAKE3 of the owner's file (a precheck
 * must not reveal that someone else holds it), `mt` is left out (the bearer token is the caller's
 * identity here).
 */
const OVERRIDES: Record<string, (ids: Ids) => unknown> = {
  hash: (ids) => ids.hash,
  mt: () => undefined,
  // An upload session of an empty file is refused before anything else is looked at.
  total_size: () => 10,
};

/**
 * Body fields a schema cannot give by operation: the assistant's chat needs words or a tool call (one of two
 * optional fields), and a resume the effects it answers as a map keyed by their ids.
 */
const BODY_ADDITIONS: Record<string, (ids: Ids) => Record<string, unknown>> = {
  chatAgent: () => ({ query: 'show photos' }),
  resumeAgentChat: (ids) => ({ targets: Object.fromEntries((ids.byKind.agent_effect ?? [crypto.randomUUID()]).map((id) => [id, { approved: false }])) }),
};

export function buildRequest(doc: Doc, o: DocOperation, ids: Ids): BuiltRequest {
  let url = o.path;
  for (const [name, kind] of o.kinds) {
    const prm = o.op.parameters!.find((x) => x.in === 'path' && x.name === name)!;
    const v = one(ids, kind) ?? valueFor(doc, prm.schema, name, ids, prm.example);
    url = url.replace(`{${name}}`, encodeURIComponent(String(v)));
  }
  const query = new URLSearchParams();
  for (const prm of o.op.parameters ?? []) {
    if (prm.in !== 'query') continue;
    const kind = prm['x-hearth-owner-scoped'] ?? fieldKind(prm.name);
    const known = one(ids, kind);
    if (!prm.required && known === undefined) continue;
    const v = prm.name in OVERRIDES ? OVERRIDES[prm.name]!(ids) : (known ?? valueFor(doc, prm.schema, prm.name, ids, prm.example));
    if (v !== undefined) query.set(prm.name, String(v));
  }
  const q = query.toString();
  const req: BuiltRequest = { method: o.method, url: q ? `${url}?${q}` : url };
  const content = o.op.requestBody?.content ?? {};
  if (content['application/json']) {
    const body = valueFor(doc, content['application/json'].schema, '', ids) ?? {};
    const extra = BODY_ADDITIONS[o.op.operationId]?.(ids);
    req.body = JSON.stringify(extra ? { ...(body as object), ...extra } : body);
    req.contentType = 'application/json';
  } else if (content['multipart/form-data']) {
    const boundary = `matrix-${crypto.randomBytes(6).toString('hex')}`;
    req.body = multipart(doc, content['multipart/form-data'].schema, ids, boundary);
    req.contentType = `multipart/form-data; boundary=${boundary}`;
  }
  return req;
}

function resolve(doc: Doc, s: Schema): Schema {
  while (s && s.$ref) s = doc.components!.schemas![s.$ref.split('/').pop()!];
  return s;
}

/** Fills `{session_id}`-style placeholders in a field name from the ids table. */
function fillName(name: string, ids: Ids): string {
  return name.replace(/\{([a-z_]+)\}/g, (_, n: string) => {
    if (n === 'index') return '0';
    if (n === 'total') return '1';
    const kind = fieldKind(n);
    return String(one(ids, kind) ?? 'x');
  });
}

function multipart(doc: Doc, schema: Schema, ids: Ids, boundary: string): Buffer {
  const s = resolve(doc, schema);
  const parts: Buffer[] = [];
  const required = new Set<string>(s.required ?? []);
  for (const [rawName, prop] of Object.entries<Schema>(s.properties ?? {})) {
    const p = resolve(doc, prop);
    const name = fillName(rawName, ids);
    const kind = fieldKind(rawName);
    const binary = p.format === 'binary';
    if (!binary && !required.has(rawName) && one(ids, kind) === undefined) continue;
    if (binary) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="matrix.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`));
      parts.push(ids.file);
    } else {
      const v = one(ids, kind) ?? valueFor(doc, p, rawName, ids);
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(v)}`));
    }
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/**
 * A minimal valid value of `schema`: required properties only, plus any property that names a
 * resource we hold an id for (so an optional `repository_id` or `avatar_asset_id` carries the owner's).
 */
export function valueFor(doc: Doc, schema: Schema, name: string, ids: Ids, example?: unknown): unknown {
  const s = resolve(doc, schema);
  if (name in OVERRIDES) return OVERRIDES[name]!(ids);
  const kind = markedKind(s) ?? fieldKind(name);
  const known = kind ? ids.byKind[kind] : undefined;
  if (known?.length) return s?.type === 'array' ? known.slice(0, Math.max(1, s.minItems ?? 0)) : known[0];
  if (!s) return undefined;
  if (example !== undefined) return example;
  if (s.example !== undefined) return s.example;
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (s.anyOf || s.oneOf) return valueFor(doc, (s.anyOf ?? s.oneOf).find((x: Schema) => resolve(doc, x)?.type !== 'null'), name, ids);
  if (s.allOf) return valueFor(doc, s.allOf[0], name, ids);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [k, prop] of Object.entries<Schema>(s.properties ?? {})) {
        const pk = markedKind(resolve(doc, prop)) ?? fieldKind(k);
        if (!required.has(k) && one(ids, pk) === undefined) continue;
        const v = valueFor(doc, prop, k, ids);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'array': {
      const n = Math.max(1, s.minItems ?? 0);
      return Array.from({ length: n }, () => valueFor(doc, s.items, singular(name), ids));
    }
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'string':
      return stringFor(s);
    default:
      return undefined;
  }
}

/** The kind a schema's `x-hearth-owner-scoped` marking names (router.ts ownedBodyField), if any. */
function markedKind(s: Schema): string | undefined {
  const m = s?.['x-hearth-owner-scoped'];
  return typeof m === 'string' ? m : undefined;
}

function stringFor(s: Schema): string {
  if (s.format === 'uuid') return crypto.randomUUID();
  if (s.format === 'date-time') return new Date(0).toISOString();
  if (s.format === 'date') return '2020-01-01';
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Infinity;
  const pattern = s.pattern ? new RegExp(s.pattern, 'u') : null;
  // `r1`: an assistant ref id (`r<seq>`, features/agent).
  const candidates = ['hearth-matrix', 'hearthmatrix', 'a', '1', 'r1', ...[8, 16, 32, 40, 64].map((n) => 'a'.repeat(n))];
  for (const c of candidates) {
    const v = c.length < min ? c + 'x'.repeat(min - c.length) : c;
    if (v.length <= max && (!pattern || pattern.test(v))) return v;
  }
  throw new Error(`no value fits the string schema ${JSON.stringify(s)}: add one to OVERRIDES`);
}
