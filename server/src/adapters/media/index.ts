/**
 * Media adapters for the ingest pipeline: pure functions over files, no database, no HTTP.
 * One concern per file; this index is the public surface the services and jobs import.
 *
 *   detect.ts           content type by magic bytes
 *   hash.ts             BLAKE3 of files and of streams being uploaded
 *   photo-metadata.ts   camera, exposure, capture time + zone, GPS, rating, keywords, Live Photo id, size
 *   thumbnails.ts       WebP small/medium/large from one decode (+ pHash)
 *   phash.ts            64-bit DCT perceptual hash and Hamming distance
 *   heic.ts             HEIC/HEIF decode in a worker thread (heic-decode wasm)
 *   raw-preview.ts      embedded JPEG previews of camera RAWs
 *   video.ts            ffprobe metadata, poster frame, H.264/AAC web copy
 *   audio.ts            ffprobe metadata, MP3 web copy
 *   binaries.ts         where ffmpeg/ffprobe are
 */
export { detect, detectBytes, type DetectedType, type MediaKind } from './detect.ts';
export { createContentHasher, hashBytes, hashFile, type ContentHasher } from './hash.ts';
export { extractPhotoMetadata, type PhotoMetadata, type PhotoMetadataResult } from './photo-metadata.ts';
export { generateThumbnails, THUMBNAIL_EDGES, THUMBNAIL_MIME, type ThumbnailResult, type ThumbnailSize } from './thumbnails.ts';
export { computePhash, hammingDistance, phashesFromRaw, phashFromPipeline, phashWindowsFromRaw, PHASH_VERSION, type RawPixels } from './phash.ts';
export { configureHeicDecoder, decodeHeic, shutdownHeicDecoder, type DecodedImage } from './heic.ts';
export { extractRawPreview, inspectRaw, type RawInspection, type RawPreview } from './raw-preview.ts';
export { needsWebVideo, posterFrame, probeVideo, transcodeWebVideo, type VideoInfo, type VideoProbe, type TranscodeProgress } from './video.ts';
export { needsWebAudio, probeAudio, transcodeWebAudio, type AudioInfo, type AudioProbe } from './audio.ts';
export { mediaToolsStatus, requireTool, resolveTool, type ToolResolution } from './binaries.ts';
export { MediaDecodeError, MediaToolError, MediaToolMissingError } from './errors.ts';
export { openImageBytes, DEFAULT_MAX_INPUT_PIXELS } from './image-source.ts';
