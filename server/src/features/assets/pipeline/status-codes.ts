/**
 * The asset's `status` array (the contract leaves the codes "not shown"): the integer codes of the
 * processing steps that have completed, in order, plus at most one failure code. `state` says the
 * whole story in one word (pending, processing, ready, failed) and `last_error` says why it failed.
 *
 * | code | meaning                                                        |
 * |------|----------------------------------------------------------------|
 * | 10   | indexed: content type detected, BLAKE3 hash computed           |
 * | 20   | metadata extracted (EXIF/IPTC/XMP or ffprobe)                  |
 * | 30   | thumbnails small/medium/large written                          |
 * | 31   | placeholder thumbnails written instead: the photo's pixels      |
 * |      | cannot be shown (a RAW with no usable embedded preview); its    |
 * |      | metadata is kept and `specific_metadata.preview_missing` is true |
 * | 40   | perceptual hash computed (photos and video posters)            |
 * | 50   | web copy ready (H.264/AAC MP4 or MP3), or the original plays   |
 * | 60   | linked into its media item (RAW+JPEG pair, live photo, single)  |
 * | 900  | failed: the file is damaged, cut short or unsupported; never    |
 * |      | retried, `last_error` is a fixed sentence per format (damage.ts) |
 * | 910  | failed: the file disappeared before processing                 |
 * | 920  | failed: a tool failed repeatedly (it crashed, timed out, …)    |
 * | 930  | waiting for a tool: ffprobe or ffmpeg is not installed. Not a  |
 * |      | failure of the file: `state` stays `pending`, `last_error` says |
 * |      | which tool is missing and how to install it, the metadata read  |
 * |      | from the container's own boxes is kept (with 20) and placeholder |
 * |      | thumbnails (31) stand in; processed again by itself once the    |
 * |      | tool is found (at start, or recheckMediaTools; waiting-for-tools.ts) |
 */
export const STATUS = {
  indexed: 10,
  metadata: 20,
  thumbnails: 30,
  placeholderThumbnails: 31,
  phash: 40,
  webCopy: 50,
  mediaItem: 60,
  failedCorrupt: 900,
  failedMissing: 910,
  failedTool: 920,
  waitingForTool: 930,
} as const;
