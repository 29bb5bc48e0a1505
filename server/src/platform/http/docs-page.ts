/**
 * `/api/docs`: a readable, self-contained page rendered from the OpenAPI document. No CDN scripts:
 * Hearth runs on home networks without internet, and the docs must work there too.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks a loosely shaped OpenAPI JSON document; every value is only printed, through esc()
type AnyRecord = Record<string, any>;

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

function schemaSummary(schema: AnyRecord | undefined, doc: AnyRecord, depth = 0): string {
  if (!schema) return '';
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    return depth > 0 ? `<a href="#schema-${esc(name)}">${esc(name)}</a>` : schemaSummary(doc.components?.schemas?.[name], doc, depth + 1);
  }
  if (schema.type === 'object' && schema.properties) {
    const req = new Set<string>(schema.required ?? []);
    const rows = Object.entries(schema.properties as AnyRecord)
      .map(([k, v]) => `<li><code>${esc(k)}</code>${req.has(k) ? '' : '?'}: ${typeLabel(v as AnyRecord)}${v.description ? ` — ${esc(v.description)}` : ''}</li>`)
      .join('');
    return `<ul>${rows}</ul>`;
  }
  return typeLabel(schema);
}

function typeLabel(s: AnyRecord): string {
  if (s.$ref) {
    const name = String(s.$ref).split('/').pop()!;
    return `<a href="#schema-${esc(name)}">${esc(name)}</a>`;
  }
  if (s.enum) return s.enum.map((e: unknown) => `<code>${esc(e)}</code>`).join(' | ');
  if (s.type === 'array') return `array of ${typeLabel(s.items ?? {})}`;
  if (s.anyOf) return s.anyOf.map((x: AnyRecord) => typeLabel(x)).join(' | ');
  return esc(Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any'));
}

export function renderDocsPage(doc: AnyRecord): string {
  const byTag = new Map<string, string[]>();
  for (const [p, item] of Object.entries(doc.paths ?? {}) as [string, AnyRecord][]) {
    for (const [method, op] of Object.entries(item) as [string, AnyRecord][]) {
      const tag = op.tags?.[0] ?? 'Other';
      const params = (op.parameters ?? [])
        .map((x: AnyRecord) => `<li><code>${esc(x.name)}</code> (${esc(x.in)}${x.required ? ', required' : ''}): ${typeLabel(x.schema ?? {})}${x.description ? ` — ${esc(x.description)}` : ''}</li>`)
        .join('');
      const body = op.requestBody?.content?.['application/json']?.schema;
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => `<li><b>${esc(status)}</b> ${esc((r as AnyRecord).description)}</li>`)
        .join('');
      const html = `<section class="op" id="${esc(op.operationId)}">
  <h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(p)}</code></h3>
  <p><b>${esc(op.operationId)}</b> — ${esc(op.summary)} <span class="access">access: ${esc(op['x-hearth-access'] ?? '')}</span></p>
  ${op.description ? `<p>${esc(op.description)}</p>` : ''}
  ${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}
  ${body ? `<h4>Body</h4>${schemaSummary(body, doc)}` : ''}
  <h4>Responses</h4><ul>${responses}</ul>
</section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const nav = [...byTag.keys()].map((t) => `<li><a href="#tag-${esc(t)}">${esc(t)}</a></li>`).join('');
  const sections = [...byTag.entries()].map(([t, ops]) => `<h2 id="tag-${esc(t)}">${esc(t)}</h2>${ops.join('\n')}`).join('\n');
  const schemas = Object.entries(doc.components?.schemas ?? {})
    .map(([name, s]) => `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3>${schemaSummary(s as AnyRecord, doc, 1)}</section>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info?.title)} — reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#222}
code{background:#f3f1ee;padding:0 .25em;border-radius:3px}
.op{border:1px solid #e4e0da;border-radius:8px;padding:.25rem 1rem;margin:1rem 0}
.m{display:inline-block;min-width:4.5em;text-align:center;border-radius:4px;color:#fff;font-size:.8em;padding:.1em .4em;background:#666}
.m.get{background:#2f7d4f}.m.post{background:#2763a8}.m.put,.m.patch{background:#a86a27}.m.delete{background:#a83227}
.access{color:#777;font-size:.85em;margin-left:.5em}
</style></head><body>
<h1>${esc(doc.info?.title)} <small>${esc(doc.info?.version)}</small></h1>
<p>${esc(doc.info?.description)}</p>
<p>Machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a></p>
<ul>${nav}<li><a href="#schemas">Schemas</a></li></ul>
${sections}
<h2 id="schemas">Schemas</h2>
${schemas}
</body></html>`;
}
