/**
 * Path rules for a WebDAV source. Everything a server says about names is data, not trusted: a segment that
 * could climb out of the scope or smuggle a separator or a control character is refused here, before it can
 * become an item id, a folder name or a path on this machine.
 *
 * Segments are kept as the server spelled them (decoded) so requests go back with the same bytes (a server on
 * macOS may answer in NFD); ids and folders are NFC so the same name always gives the same id.
 */
import { ProviderError } from '../provider.ts';

/** Why a decoded segment is not a usable name, or null when it is. */
export function segmentProblem(segment: string): string | null {
  if (segment === '') return 'an empty name';
  if (segment === '.' || segment === '..') return `the name "${segment}" (it would point outside its folder)`;
  if (segment.includes('/') || segment.includes('\\')) return 'a name with a path separator in it';
  if (hasControlCharacter(segment)) return 'a name with a control character in it';
  return null;
}

/** C0 controls (NUL included), DEL and the C1 controls: they break logs, reports and file systems. */
function isControl(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return true;
  return false;
}

/** A name safe to print in a reason: control characters shown as \u escapes. */
export function printable(name: string): string {
  let out = '';
  for (const c of name) out += isControl(c.charCodeAt(0)) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c;
  return out;
}

/**
 * The scope folder a person typed or picked ('' = everything under the URL), as segments. Leading, trailing and
 * doubled slashes are forgiven; a segment that is not a name is `bad_input`.
 */
export function parseFolder(folder: string | undefined, field = 'folder'): string[] {
  const segments = (folder ?? '')
    .trim()
    .split('/')
    .filter((s) => s !== '');
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem) throw new ProviderError('bad_input', `The folder cannot contain ${problem}.`, false, { field });
  }
  return segments.map((s) => s.normalize('NFC'));
}

/** The request URL of a folder (trailing slash: servers answer a collection without a redirect) or a file. */
export function urlOf(base: URL, segments: readonly string[], collection: boolean): URL {
  const tail = segments.map((s) => encodeURIComponent(s)).join('/');
  return new URL(base.pathname + tail + (collection && tail ? '/' : ''), base);
}

export type HrefResult = { ok: true; segments: string[] } | { ok: false; reason: string };

/**
 * The decoded path segments of a multistatus `href`. Read from the raw text, not through URL resolution: the
 * WHATWG parser folds `%2e%2e` into `..` and resolves it away, which would hide exactly the names to refuse.
 */
export function hrefSegments(href: string, base: URL): HrefResult {
  let rawPath = href.trim();
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(rawPath);
  if (absolute) {
    let origin: string;
    try {
      origin = new URL(absolute[0]).origin;
    } catch {
      return { ok: false, reason: 'the server named an entry with an address that does not parse' };
    }
    if (origin !== base.origin) return { ok: false, reason: 'the server named an entry on another host' };
    rawPath = rawPath.slice(absolute[0].length) || '/';
  }
  if (!rawPath.startsWith('/')) return { ok: false, reason: 'the server named an entry with a relative address' };
  rawPath = rawPath.replace(/[?#].*$/, '');
  const parts = rawPath.split('/').slice(1);
  if (parts.at(-1) === '') parts.pop(); // a collection's trailing slash
  const segments: string[] = [];
  for (const part of parts) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return { ok: false, reason: 'the server named an entry with a malformed escape' };
    }
    segments.push(decoded);
  }
  return { ok: true, segments };
}

/** The base URL's own path as decoded segments (what every href of the account starts with). */
export function baseSegments(base: URL): string[] {
  const result = hrefSegments(base.pathname, base);
  if (!result.ok) throw new ProviderError('bad_input', 'The address has a malformed escape in it.', false, { field: 'url' });
  return result.segments;
}

export function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s.normalize('NFC') === b[i]!.normalize('NFC'));
}
