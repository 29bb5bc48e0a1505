/**
 * Sends one Google Takeout part to the server, resumably (the server's side: takeout-uploads.service.ts):
 * createTakeoutUpload (which answers the member's unfinished upload of the same file, so a reload or a Retry goes on
 * where it stopped), then chunks in order from `received`. A chunk that fails (no answer, a busy or failing server)
 * is tried again after a growing pause, from what the server says it has (a cut chunk keeps what arrived); after
 * ATTEMPTS failures in a row the part fails with the reason, and Retry starts this again. A refusal that cannot get
 * better by trying again (a bad name, a full disk, the upload gone) fails at once.
 */
import { api } from '../../api/client';
import { ApiError, request } from '../../api/problem';
import type { components } from '../../api/schema';
import { ChunkNetworkError, isAbort, putChunk, type ChunkAnswer } from './takeout-transport';

export type TakeoutUpload = components['schemas']['TakeoutUpload'];

/** 8 MiB: big enough that a 50 GB part is a few thousand requests, small enough that a cut costs seconds. */
export const CHUNK_BYTES = 8 * 1024 * 1024;
/** Failures in a row before the part is given up (Retry starts again). */
export const ATTEMPTS = 4;
/** The first pause after a failure; doubled after each further one (0.5 s, 1 s, 2 s). */
export const BACKOFF_MS = 500;

interface ProblemBody {
  status?: number;
  code?: string;
  detail?: string;
  received?: number;
}

const problemOf = (a: ChunkAnswer): ProblemBody => (a.body && typeof a.body === 'object' ? (a.body as ProblemBody) : {});

function errorOf(a: ChunkAnswer): ApiError {
  const p = problemOf(a);
  return new ApiError(a.status, p.code ?? `http_${a.status}`, p.detail ?? `The upload failed (HTTP ${a.status}).`);
}

/** Answers worth sending again: no answer, the upload busy with a chunk still arriving, a server in trouble. */
function worthRetrying(a: ChunkAnswer): boolean {
  if (a.status === 409) return problemOf(a).code === 'takeout_upload_busy';
  return a.status === 408 || a.status === 429 || a.status === 502 || a.status === 503 || a.status === 504 || a.status === 500;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new DOMException('Stopped.', 'AbortError'));
    }, { once: true });
  });
}

export interface PartProgress {
  uploadId: string;
  /** Bytes on the server, plus what of the chunk in flight was sent. */
  sent: number;
}

/** Uploads `file` into the repository; answers the finished upload (its `part_path` is where the part is). */
export async function uploadPart(file: File, repositoryId: string, onProgress: (p: PartProgress) => void, signal: AbortSignal): Promise<TakeoutUpload> {
  let upload = await request(api.POST('/api/v1/cloud/takeout/uploads', { body: { repository_id: repositoryId, filename: file.name, size: file.size }, signal }));
  let failures = 0;
  let lastFailure: unknown = null;
  while (upload.status !== 'complete') {
    const first = upload.received;
    const id = upload.upload_id;
    onProgress({ uploadId: id, sent: first });
    let answer: ChunkAnswer | null = null;
    try {
      answer = await putChunk(id, file.slice(first, Math.min(first + CHUNK_BYTES, file.size)), first, file.size, (sent) => onProgress({ uploadId: id, sent: first + sent }), signal);
    } catch (e) {
      if (isAbort(e)) throw e;
      lastFailure = e instanceof ChunkNetworkError ? new ApiError(0, 'network', 'Hearth could not be reached. Check the connection, then Retry: it goes on where it stopped.') : e;
    }
    if (answer?.status === 200) {
      upload = answer.body as TakeoutUpload;
      failures = 0;
      continue;
    }
    if (answer && problemOf(answer).code === 'takeout_upload_offset_mismatch' && typeof problemOf(answer).received === 'number') {
      // The server has more (or less) than this page thought: go on from there.
      const received = problemOf(answer).received!;
      if (received !== first) {
        upload = { ...upload, received };
        continue;
      }
    }
    if (answer && !worthRetrying(answer)) throw errorOf(answer);
    if (answer) lastFailure = errorOf(answer);
    if (++failures >= ATTEMPTS) throw lastFailure;
    await pause(BACKOFF_MS * 2 ** (failures - 1), signal);
    // A chunk cut off keeps what reached the server's disk: ask how far it got.
    upload = await request(api.GET('/api/v1/cloud/takeout/uploads/{id}', { params: { path: { id } }, signal })).catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 404) throw e;
      return upload;
    });
  }
  onProgress({ uploadId: upload.upload_id, sent: file.size });
  return upload;
}

/** Stops an unfinished upload on the server (what arrived of it is removed). A failure here changes nothing for the page. */
export async function cancelUpload(uploadId: string): Promise<void> {
  await api.DELETE('/api/v1/cloud/takeout/uploads/{id}', { params: { path: { id: uploadId } } }).catch(() => undefined);
}
