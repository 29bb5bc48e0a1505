/**
 * The kinds of OpenAI-compatible servers Hearth knows by name, and what differs between them: where they usually
 * listen and whether they need an API key. They all speak the same wire format (`POST {base}/chat/completions`,
 * `GET {base}/models`), so one client serves them all; `custom` is any other server with that format (vLLM,
 * LocalAI, a proxy), for which the administrator gives the base URL.
 *
 * The list is repeated as a plain enum in config/settings.ts (config may not import adapters); the settings
 * feature maps one onto the other, and the type checker keeps them equal.
 */
import net from 'node:net';

export const PROVIDER_KINDS = ['openai', 'ollama', 'lmstudio', 'llamacpp', 'custom'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export interface ProviderFacts {
  title: string;
  /** Where the server listens when nobody changed it; null: the administrator must say (custom). */
  defaultBaseUrl: string | null;
  /** Without a key the server refuses every request. Local servers take any key or none. */
  needsApiKey: boolean;
}

export const PROVIDERS: Record<ProviderKind, ProviderFacts> = {
  openai: { title: 'OpenAI', defaultBaseUrl: 'https://api.openai.com/v1', needsApiKey: true },
  ollama: { title: 'Ollama', defaultBaseUrl: 'http://127.0.0.1:11434/v1', needsApiKey: false },
  lmstudio: { title: 'LM Studio', defaultBaseUrl: 'http://127.0.0.1:1234/v1', needsApiKey: false },
  llamacpp: { title: 'llama.cpp server', defaultBaseUrl: 'http://127.0.0.1:8080/v1', needsApiKey: false },
  custom: { title: 'OpenAI-compatible server', defaultBaseUrl: null, needsApiKey: false },
};

/**
 * Where a model server runs, seen from this one, for the settings page's "what leaves the house" sentence:
 * `this_device` (loopback), `home_network` (a private or link-local address, or a `.local` / `.lan` / `.home.arpa`
 * name), else `internet`. A name that resolves to a private address is still counted as `internet`: names are not
 * resolved here, and saying "it may leave the house" when unsure is the safe side.
 */
export type ModelLocality = 'this_device' | 'home_network' | 'internet';

export function localityOf(baseUrl: URL): ModelLocality {
  const host = baseUrl.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'this_device';
  const kind = net.isIP(host);
  if (kind === 4) {
    const [a, b] = host.split('.').map(Number) as [number, number];
    if (a === 127) return 'this_device';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) return 'home_network';
    return 'internet';
  }
  if (kind === 6) {
    if (host === '::1') return 'this_device';
    if (/^f[cd]/.test(host) || /^fe[89ab]/.test(host)) return 'home_network';
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return localityOf(new URL(`http://${mapped[1]}/`));
    return 'internet';
  }
  if (host.endsWith('.local') || host.endsWith('.lan') || host.endsWith('.home.arpa') || !host.includes('.')) return 'home_network';
  return 'internet';
}

/** The base URL as the client uses it: http(s), no credentials, no query, path ending in '/'. */
export function normaliseBaseUrl(raw: string): URL {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${url.protocol} is not http or https`);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}
