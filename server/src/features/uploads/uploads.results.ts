/** The shapes the upload operations answer with (uploads.routes.ts describes them to clients). */
import type { ReceiptStatus, SessionStatus, StoredProblem } from './uploads.store.ts';

/** What one uploaded file became (single upload, or one file of a batch). */
export interface UploadResult {
  content_hash: string;
  file_name: string;
  message: string;
  receipt_id: string;
  size: number;
  status: 'processing' | 'duplicate';
  /** The catalogued asset: the new one, or the caller's existing one of a duplicate. */
  asset_id: string | null;
  /** The duplicate was the caller's asset in the Trash: the upload brought it back (commit.ts). */
  restored_from_trash: boolean;
}

export interface BatchResult {
  session_id: string;
  success: boolean;
  status: 'uploading' | 'processing' | 'duplicate' | 'failed';
  file_name: string | null;
  receipt_id: string | null;
  content_hash: string | null;
  size: number | null;
  message: string;
  asset_id: string | null;
  /** The duplicate was the caller's asset in the Trash: the upload brought it back (commit.ts). */
  restored_from_trash: boolean;
  /** For chunk parts: which chunk this was, and how many of the session's chunks are now stored. */
  chunk_index: number | null;
  received_chunks: number | null;
  problem: StoredProblem | null;
}

export interface SessionAnswer {
  session_id: string;
  status: SessionStatus;
  total_chunks: number;
  chunk_size: number | null;
  received_chunks: number[];
  bytes_received: number;
  receipt_id: string;
  problem: StoredProblem | null;
  /** Set when this call finished the session (all chunks were already there): what the file became. */
  result: UploadResult | null;
}

export interface ReceiptState {
  receipt_id: string;
  file_name: string;
  status: ReceiptStatus;
  success: boolean;
  terminal: boolean;
  problem: StoredProblem | null;
  asset_id: string | null;
  content_hash: string | null;
  size: number | null;
  updated_at: string;
}

export interface SessionInput {
  session_id?: string | undefined;
  filename: string;
  total_size: number;
  total_chunks: number;
  chunk_size?: number | undefined;
  content_type?: string | undefined;
  repository_id?: string | undefined;
  client_hash?: string | undefined;
  /** When the file was last modified (last-modified.ts). */
  last_modified?: string | number | undefined;
}

/** A batch result before anything is known about its part. */
export function emptyResult(sessionId: string): BatchResult {
  return { session_id: sessionId, success: false, status: 'failed', file_name: null, receipt_id: null, content_hash: null, size: null, message: '', asset_id: null, restored_from_trash: false, chunk_index: null, received_chunks: null, problem: null };
}
