/**
 * Video adapter entry point: probe (video-probe.ts), poster frame (video-poster.ts) and web transcode
 * (video-transcode.ts). Each lives in its own file; this module only gathers them under one name.
 */
export { needsWebVideo, parseIso6709, probeVideo, readVideoContainer, videoInfoFromMovie, videoInfoFromProbe, type VideoInfo, type VideoProbe } from './video-probe.ts';
export { posterFrame, posterTime, type PosterOptions } from './video-poster.ts';
export { progressParser, transcodeWebVideo, webScaleFilter, type TranscodeOptions, type TranscodeProgress } from './video-transcode.ts';
