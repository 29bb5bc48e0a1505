/**
 * Just enough XML for WebDAV multistatus answers: elements with their namespace URI resolved (servers spell the
 * DAV: prefix as `d:`, `D:`, `ns0:` or a default namespace), text with the predefined and numeric entities
 * decoded, comments, processing instructions and CDATA understood. A DOCTYPE is refused rather than read: no
 * server needs one to answer PROPFIND, and entity definitions are how XML answers are made to explode.
 */
export interface XmlElement {
  ns: string;
  local: string;
  children: XmlElement[];
  text: string;
}

export class XmlError extends Error {}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    const known = ENTITIES[name];
    if (known === undefined) throw new XmlError(`unknown entity ${whole}`);
    return known;
  });
}

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

interface OpenElement {
  element: XmlElement;
  qname: string;
  prefixes: Map<string, string>;
}

function resolve(qname: string, prefixes: Map<string, string>): { ns: string; local: string } {
  const colon = qname.indexOf(':');
  const prefix = colon < 0 ? '' : qname.slice(0, colon);
  const ns = prefixes.get(prefix);
  if (ns === undefined && prefix !== '') throw new XmlError(`undeclared prefix ${prefix}`);
  return { ns: ns ?? '', local: colon < 0 ? qname : qname.slice(colon + 1) };
}

/** Parses a whole document and answers its root element. Throws XmlError when it is not well-formed. */
export function parseXml(source: string): XmlElement {
  const stack: OpenElement[] = [];
  let root: XmlElement | null = null;
  let i = 0;
  const appendText = (text: string) => {
    const top = stack.at(-1);
    if (top) top.element.text += text;
    else if (text.trim() !== '') throw new XmlError('text outside the root element');
  };
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    if (lt < 0) {
      appendText(decodeEntities(source.slice(i)));
      break;
    }
    if (lt > i) appendText(decodeEntities(source.slice(i, lt)));
    if (source.startsWith('<!--', lt)) {
      const end = source.indexOf('-->', lt + 4);
      if (end < 0) throw new XmlError('unterminated comment');
      i = end + 3;
    } else if (source.startsWith('<![CDATA[', lt)) {
      const end = source.indexOf(']]>', lt + 9);
      if (end < 0) throw new XmlError('unterminated CDATA');
      appendText(source.slice(lt + 9, end));
      i = end + 3;
    } else if (source.startsWith('<?', lt)) {
      const end = source.indexOf('?>', lt + 2);
      if (end < 0) throw new XmlError('unterminated processing instruction');
      i = end + 2;
    } else if (source.startsWith('<!', lt)) {
      throw new XmlError('a DOCTYPE or declaration is not accepted');
    } else if (source.startsWith('</', lt)) {
      const end = source.indexOf('>', lt);
      if (end < 0) throw new XmlError('unterminated end tag');
      const qname = source.slice(lt + 2, end).trim();
      const open = stack.pop();
      if (!open || open.qname !== qname) throw new XmlError(`unexpected end tag ${qname}`);
      i = end + 1;
    } else {
      const end = findTagEnd(source, lt);
      const selfClosing = source[end - 1] === '/';
      const inner = source.slice(lt + 1, selfClosing ? end - 1 : end);
      const nameMatch = /^[^\s/>]+/.exec(inner);
      if (!nameMatch) throw new XmlError('a tag without a name');
      const qname = nameMatch[0];
      const prefixes = new Map(stack.at(-1)?.prefixes ?? []);
      for (const m of inner.slice(qname.length).matchAll(ATTRIBUTE)) {
        const name = m[1]!;
        const value = decodeEntities(m[3] ?? m[4] ?? '');
        if (name === 'xmlns') prefixes.set('', value);
        else if (name.startsWith('xmlns:')) prefixes.set(name.slice(6), value);
      }
      const element: XmlElement = { ...resolve(qname, prefixes), children: [], text: '' };
      const parent = stack.at(-1);
      if (parent) parent.element.children.push(element);
      else if (root) throw new XmlError('a second root element');
      else root = element;
      if (!selfClosing) stack.push({ element, qname, prefixes });
      i = end + 1;
    }
  }
  if (stack.length > 0) throw new XmlError(`unclosed element ${stack.at(-1)!.qname}`);
  if (!root) throw new XmlError('no root element');
  return root;
}

/** The `>` that ends the tag starting at `lt`, skipping any inside quoted attribute values. */
function findTagEnd(source: string, lt: number): number {
  let quote: string | null = null;
  for (let j = lt + 1; j < source.length; j++) {
    const c = source[j];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return j;
  }
  throw new XmlError('unterminated tag');
}
