/**
 * Reads a PROPFIND answer (RFC 4918 multistatus) into one entry per `response`: its href and the properties
 * the server could give (a propstat with another status than 200 holds properties it could not).
 */
import { parseXml, XmlError, type XmlElement } from './xml-tree.ts';

const DAV = 'DAV:';

export interface DavEntry {
  href: string;
  collection: boolean;
  /** As sent, quotes and all (null when the server gives none). */
  etag: string | null;
  size: number | null;
  /** Epoch ms (null when absent or unreadable). */
  modified: number | null;
  /** A response-level status other than 2xx (an entry the server lists but cannot describe). */
  failedStatus: number | null;
}

/** Asks only for the properties the listing reads: servers then answer less (some compute checksums otherwise). */
export const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?>' +
  '<d:propfind xmlns:d="DAV:"><d:prop>' +
  '<d:resourcetype/><d:getetag/><d:getcontentlength/><d:getlastmodified/>' +
  '</d:prop></d:propfind>';

function child(element: XmlElement, local: string): XmlElement | undefined {
  return element.children.find((c) => c.ns === DAV && c.local === local);
}

function children(element: XmlElement, local: string): XmlElement[] {
  return element.children.filter((c) => c.ns === DAV && c.local === local);
}

function statusCode(element: XmlElement | undefined): number | null {
  const m = element ? /^\s*HTTP\/[\d.]+\s+(\d{3})/.exec(element.text) : null;
  return m ? Number(m[1]) : null;
}

/** Throws XmlError when the body is not a multistatus document. */
export function parseMultistatus(body: string): DavEntry[] {
  const root = parseXml(body);
  if (root.ns !== DAV || root.local !== 'multistatus') throw new XmlError('the answer is not a DAV multistatus');
  return children(root, 'response').map((response) => {
    const href = child(response, 'href')?.text ?? '';
    const status = statusCode(child(response, 'status'));
    const entry: DavEntry = {
      href,
      collection: false,
      etag: null,
      size: null,
      modified: null,
      failedStatus: status !== null && (status < 200 || status > 299) ? status : null,
    };
    for (const propstat of children(response, 'propstat')) {
      const propStatus = statusCode(child(propstat, 'status'));
      const prop = child(propstat, 'prop');
      if (!prop || (propStatus !== null && propStatus !== 200)) continue;
      const resourcetype = child(prop, 'resourcetype');
      if (resourcetype && child(resourcetype, 'collection')) entry.collection = true;
      const etag = child(prop, 'getetag')?.text.trim();
      if (etag) entry.etag = etag;
      const length = child(prop, 'getcontentlength')?.text.trim();
      if (length && /^\d+$/.test(length)) entry.size = Number(length);
      const modified = child(prop, 'getlastmodified')?.text.trim();
      const time = modified ? Date.parse(modified) : NaN;
      if (Number.isFinite(time)) entry.modified = time;
    }
    return entry;
  });
}

/** The ETag as a version: `W/` and the quotes stripped (a weak and a strong tag of the same bytes compare equal). */
export function etagVersion(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}
