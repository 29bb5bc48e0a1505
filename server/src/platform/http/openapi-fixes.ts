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
 * - An extended schema (`Parent.extend({...})`) is written as `allOf: [{$ref: Parent}, {properties}]`.
 *   When the extension redefines a property of the parent (making it optional, say), allOf cannot
 *   relax the parent's rule: the property stays required. Such a schema is written out whole instead.
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
  mergeOverridingExtensions(doc, (doc.components?.schemas ?? {}) as Record<string, Json>);
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

/** Writes out whole every `allOf: [{$ref}, {extension}]` whose extension redefines a parent property. */
function mergeOverridingExtensions(node: unknown, components: Record<string, Json>): void {
  if (Array.isArray(node)) {
    for (const item of node) mergeOverridingExtensions(item, components);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  for (const value of Object.values(o)) mergeOverridingExtensions(value, components);
  const all = o.allOf;
  if (!Array.isArray(all) || all.length !== 2) return;
  const [ref, ext] = all as [Json, Json];
  const name = typeof ref?.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(ref.$ref)?.[1] : undefined;
  const parent = name ? components[name] : undefined;
  if (!parent || parent.type !== 'object' || !ext || ext.type !== 'object') return;
  const parentProps = (parent.properties ?? {}) as Json;
  const extProps = (ext.properties ?? {}) as Json;
  const overridden = Object.keys(extProps).filter((k) => k in parentProps);
  if (!overridden.length) return;
  const extRequired = new Set((ext.required ?? []) as string[]);
  const required = [
    ...((parent.required ?? []) as string[]).filter((k) => !overridden.includes(k) || extRequired.has(k)),
    ...[...extRequired].filter((k) => !((parent.required ?? []) as string[]).includes(k)),
  ];
  const { allOf: _allOf, ...rest } = o;
  for (const k of Object.keys(o)) delete o[k];
  Object.assign(o, { ...parent, ...rest, ...omit(ext, ['properties', 'required', 'type']), type: 'object', properties: { ...parentProps, ...extProps } });
  if (required.length) o.required = required;
  else delete o.required;
}

function omit(o: Json, keys: string[]): Json {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
}
