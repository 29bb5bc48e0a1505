/**
 * Downloads the registry's missing model files into the models folder: what `npm run models:fetch`
 * runs, and what the admin "Install" action will run (a module both use, reporting progress).
 *
 * For each file that is not installed, or is there but wrong (a refused file is replaced):
 * - it is written to `<file>.part` beside its place (the same folder, so the final rename never
 *   crosses file systems); the model catalog reports the model `downloading` while that grows;
 * - an interrupted download resumes: the next attempt (and the next run) asks for the rest with an
 *   HTTP Range request from the `.part`'s size; a server that ignores ranges (200) starts it over;
 * - a stalled connection is cut after `idleTimeoutMs` without bytes and resumed, up to `attempts`;
 * - the whole `.part` is then hashed: a wrong size or sha256 deletes it and fails that file loudly
 *   (the expected and received digests in the error), never placing it;
 * - a good `.part` is flushed and renamed into place (atomic: the model is there whole or not at all).
 *
 * The URL is the file's pinned `source_url`, or `<baseUrl>/<file path>` when a base is given
 * (HEARTH_MODELS_BASE_URL: a mirror, or the loopback server of the tests).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ModelCatalog } from './model-catalog.ts';
import { PART_SUFFIX, sha256File } from './model-files.ts';
import { modelEntry, requiredModelIds, type ModelFile } from './model-manifest.ts';

export interface FetchProgress {
  model_id: string;
  path: string;
  /** `start` (with the offset resumed from), `data`, `verify`, `done`, `retry`, `failed`. */
  phase: 'start' | 'data' | 'verify' | 'done' | 'retry' | 'failed';
  received: number;
  bytes: number;
  message?: string;
}

export interface FetchOptions {
  /** Models to fetch (default: every model a capability needs). */
  ids?: string[];
  baseUrl?: string | null;
  onProgress?: (p: FetchProgress) => void;
  signal?: AbortSignal;
  /** Tries per file in this run (a cut connection resumes from what arrived). */
  attempts?: number;
  /** A connection that sends nothing for this long is cut and resumed. */
  idleTimeoutMs?: number;
  /** Wait before a retry (doubles each time). */
  retryDelayMs?: number;
}

export interface FetchResult {
  /** Files downloaded and placed in this run. */
  fetched: string[];
  /** Files that were already installed and verified. */
  present: string[];
  failed: { path: string; error: string; code?: 'source_unreachable' | null }[];
}

export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(
    message: string,
    /** A retry cannot help (a 404, a wrong hash). */
    readonly final: boolean,
    /** `source_unreachable`: no connection to the source at all (offline, DNS, refused, no answer). */
    readonly code: 'source_unreachable' | null = null,
  ) {
    super(message);
  }
}

/** Why a connection could not be made, in words, by the system's error code (undici puts it in `cause`). */
const UNREACHABLE: Record<string, string> = {
  ENOTFOUND: 'its name does not resolve (is this machine offline?)',
  EAI_AGAIN: 'its name does not resolve (is this machine offline?)',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was closed before it answered',
  ETIMEDOUT: 'it did not answer in time',
  UND_ERR_CONNECT_TIMEOUT: 'it did not answer in time',
  EHOSTUNREACH: 'there is no route to it',
  ENETUNREACH: 'this machine has no network',
  ENETDOWN: 'this machine has no network',
};

/**
 * A fetch that never got an answer ("fetch failed") as a plain sentence naming the host. Final: a
 * machine without internet does not get it back in the seconds the retries wait, and the Models page
 * then offers the manual way at once (the files, their sha256 and the folder, or an upload).
 */
export function unreachable(url: string, e: unknown): FetchError | null {
  let cause: unknown = e;
  for (let i = 0; i < 4 && cause; i++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE[code]) {
      return new FetchError(`This machine cannot reach ${new URL(url).host}: ${UNREACHABLE[code]}.`, true, 'source_unreachable');
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}

function urlOf(file: ModelFile, baseUrl: string | null | undefined): string {
  return baseUrl ? `${baseUrl.replace(/\/+$/, '')}/${file.path}` : file.source_url;
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return 0;
  }
}

export async function fetchModels(catalog: ModelCatalog, opts: FetchOptions = {}): Promise<FetchResult> {
  const result: FetchResult = { fetched: [], present: [], failed: [] };
  for (const id of opts.ids ?? requiredModelIds()) {
    const entry = modelEntry(id);
    if (!entry) {
      result.failed.push({ path: id, error: `${id} is not in the model registry` });
      continue;
    }
    const status = await catalog.status(id);
    for (const [i, file] of entry.files.entries()) {
      if (status.files[i]!.state === 'ready') {
        result.present.push(file.path);
        continue;
      }
      opts.signal?.throwIfAborted();
      if (entry.test_only && !opts.baseUrl) {
        const error = `${file.path} is made by ${file.source_url}, not downloaded (or give HEARTH_MODELS_BASE_URL, a mirror that has it)`;
        opts.onProgress?.({ model_id: id, path: file.path, phase: 'failed', received: 0, bytes: file.bytes, message: error });
        result.failed.push({ path: file.path, error });
        continue;
      }
      try {
        await fetchFile(catalog.pathOf(file), file, id, opts);
        result.fetched.push(file.path);
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        const error = (e as Error).message;
        opts.onProgress?.({ model_id: id, path: file.path, phase: 'failed', received: 0, bytes: file.bytes, message: error });
        result.failed.push({ path: file.path, error, code: e instanceof FetchError ? e.code : null });
      }
    }
  }
  return result;
}

async function fetchFile(dest: string, file: ModelFile, modelId: string, opts: FetchOptions): Promise<void> {
  const part = dest + PART_SUFFIX;
  const attempts = opts.attempts ?? 5;
  const report = (phase: FetchProgress['phase'], received: number, message?: string) =>
    opts.onProgress?.({ model_id: modelId, path: file.path, phase, received, bytes: file.bytes, message });
  await fs.mkdir(path.dirname(dest), { recursive: true });
  let delay = opts.retryDelayMs ?? 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      await download(file, part, opts, report);
      break;
    } catch (e) {
      if (opts.signal?.aborted || (e instanceof FetchError && e.final) || attempt >= attempts) throw e;
      report('retry', await sizeOf(part), `${(e as Error).message}; resuming (try ${attempt + 1} of ${attempts})`);
      await new Promise((r) => setTimeout(r, delay));
      delay *= 2;
    }
  }
  report('verify', file.bytes);
  const size = await sizeOf(part);
  const digest = size === file.bytes ? await sha256File(part) : null;
  if (digest !== file.sha256) {
    await fs.rm(part, { force: true });
    throw new FetchError(
      digest === null
        ? `${file.path}: received ${size} bytes, expected ${file.bytes}; the download was deleted`
        : `${file.path}: sha256 ${digest} does not match the registry's ${file.sha256}; the download was deleted and nothing was installed`,
      true,
    );
  }
  const handle = await fs.open(part, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(part, dest);
  report('done', file.bytes);
}

/** One request: appends the rest of the file to `part` (from its current size). */
async function download(file: ModelFile, part: string, opts: FetchOptions, report: (phase: FetchProgress['phase'], received: number) => void): Promise<void> {
  let offset = await sizeOf(part);
  if (offset > file.bytes) {
    await fs.rm(part, { force: true });
    offset = 0;
  }
  if (offset === file.bytes) return;
  const idle = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, idle.signal]) : idle.signal;
  const idleMs = opts.idleTimeoutMs ?? 60_000;
  let overflow = false;
  let timer = setTimeout(() => idle.abort(new Error(`no data for ${idleMs / 1000} s`)), idleMs);
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(new Error(`no data for ${idleMs / 1000} s`)), idleMs);
  };
  try {
    const url = urlOf(file, opts.baseUrl);
    let res: Response;
    try {
      res = await fetch(url, { headers: offset > 0 ? { range: `bytes=${offset}-` } : {}, signal, redirect: 'follow' });
    } catch (e) {
      throw (!signal.aborted && unreachable(url, e)) || e;
    }
    if (res.status === 416) {
      // The part holds at least the whole file: verification decides.
      await res.body?.cancel();
      return;
    }
    if (res.status !== 200 && res.status !== 206) {
      await res.body?.cancel();
      throw new FetchError(`${url} answered ${res.status} ${res.statusText}`, res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429);
    }
    if (!res.body) throw new FetchError(`${url} answered without a body`, false);
    // 200 to a range request: the server sends the whole file; start the part over.
    const append = res.status === 206 && offset > 0;
    let received = append ? offset : 0;
    report('start', received);
    // Each chunk is written before the next is read, so whatever arrived before a cut is in the part
    // (a pipeline would drop writes still buffered when the connection fails).
    const out = await fs.open(part, append ? 'a' : 'w');
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        touch();
        received += chunk.length;
        overflow ||= received > file.bytes;
        if (overflow) throw new FetchError(`${url} sent more than the ${file.bytes} bytes expected`, true);
        await out.write(chunk);
        report('data', received);
      }
    } finally {
      await out.close();
    }
  } catch (e) {
    if (idle.signal.aborted && !opts.signal?.aborted) throw new FetchError(String((idle.signal.reason as Error)?.message ?? 'stalled'), false);
    // Bytes past the registry's size: what arrived cannot be the file, so nothing of it is kept.
    if (overflow) await fs.rm(part, { force: true });
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
