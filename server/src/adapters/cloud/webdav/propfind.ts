/** PROPFIND on one URL: the entries of a folder (Depth 1) or of the URL itself (Depth 0). */
import { ProviderError } from '../provider.ts';
import { readBody, type DavClient } from './dav-client.ts';
import { parseMultistatus, PROPFIND_BODY, type DavEntry } from './multistatus.ts';

export type PropfindResult = { status: 207; entries: DavEntry[]; url: URL } | { status: number };

/** A 207 with its entries, or the status the server answered instead (the caller says what that means). */
export async function propfind(client: DavClient, url: URL, depth: '0' | '1', signal: AbortSignal): Promise<PropfindResult> {
  const { response, url: answeredUrl } = await client.request({ method: 'PROPFIND', url, headers: { depth }, body: PROPFIND_BODY, signal });
  const status = response.statusCode ?? 0;
  if (status !== 207) {
    response.resume();
    return { status };
  }
  const body = await readBody(response, signal, url);
  try {
    return { status: 207, entries: parseMultistatus(body), url: answeredUrl };
  } catch (e) {
    throw new ProviderError('protocol', `The server's folder listing could not be read (${(e as Error).message}).`);
  }
}
