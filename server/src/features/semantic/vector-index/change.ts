/**
 * The change events the vector index follows. These mirror, field for field, the types the semantic store
 * exports (server/src/features/semantic/semantic.store.ts, agreed in the session's interface note): TypeScript
 * compares them structurally, so the store's `onChange` listener can hand its events straight to
 * `VectorIndex.apply`. They are declared here so the index does not depend on the store's file; when both are on
 * main, this file can re-export the store's types instead.
 */
export interface FrameVector {
  /** -1 for a photo, else the video frame's timestamp in ms */
  frameTsMs: number;
  /** unit length, 512 dimensions */
  vector: Float32Array;
}

export type VectorChange =
  | { kind: 'replace'; assetId: string; assetRowid: number; modelId: string; frames: FrameVector[] }
  | { kind: 'remove'; assetId: string; assetRowid: number }
  | { kind: 'reset' };

export const DIMENSIONS = 512;
