/**
 * Corrections to the generated document, each for a whole class of schemas, so that it validates
 * with external tools (swagger-parser, the test suite's response check) and says what the server
 * really sends:
 *
 * - Parameters are never null and path parameters are always required. A coerced number with a
 *   lower bound (`z.coerce.number().min(0)`) is written as `type: [integer, null]`, and a path
 *   parameter whose schema accepts undefined as `required: false`, which OpenAPI forbids.
 * - A nullable reference (`Schema.nullable()`) is written as `allOf: [{$ref}, {type: [object, null]}]`:
 *   an allOf must match every member, so null fails the `$ref` and the schema forbids the very null
 *   the server sends. It becomes `anyOf: [{$ref}, {type: null}]` (annotations such as `description`
 *   kept beside it).
 */

type Json = Record<string, unknown>;
interface Document {
  paths?: Record<string, Record<string, unknown>>;
  components?: Json;
}

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace']);

export function correctDocument(doc: Document): void {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method) || !op || typeof op !== 'object') continue;
      for (const param of ((op as Json).parameters ?? []) as Json[]) correctParameter(param);
    }
    for (const param of ((item as Json).parameters ?? []) as Json[]) correctParameter(param);
  }
  rewriteNullableRefs(doc);
}

function correctParameter(param: Json): void {
  if (param.in === 'path') param.required = true;
  const schema = param.schema as Json | undefined;
  if (schema && Array.isArray(schema.type)) {
    const types = (schema.type as string[]).filter((t) => t !== 'null');
    schema.type = types.length === 1 ? types[0] : types;
  }
}

/** Rewrites, everywhere in `node`, the nullable-reference pattern described above. */
function rewriteNullableRefs(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) rewriteNullableRefs(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  const nullableRef = nullableRefParts(o);
  if (nullableRef) {
    const { ref, annotations } = nullableRef;
    delete o.allOf;
    Object.assign(o, annotations, { anyOf: [ref, { type: 'null' }] });
  }
  for (const value of Object.values(o)) rewriteNullableRefs(value);
}

function nullableRefParts(o: Json): { ref: Json; annotations: Json } | null {
  const all = o.allOf;
  if (!Array.isArray(all) || all.length !== 2) return null;
  const [ref, nullable] = all as [Json, Json];
  if (typeof ref?.$ref !== 'string' || !nullable || typeof nullable !== 'object') return null;
  const type = nullable.type;
  if (!Array.isArray(type) || !type.includes('null')) return null;
  const { type: _type, ...annotations } = nullable;
  // Only annotations may sit beside the null: anything that constrains would change the meaning.
  if (Object.keys(annotations).some((k) => !['description', 'title', 'example', 'examples', 'deprecated'].includes(k))) return null;
  return { ref, annotations };
}
