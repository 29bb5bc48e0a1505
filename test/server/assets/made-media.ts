/**
 * Media the tests make at run time (never committed): short clips from ffmpeg's test sources, files cut
 * short, noise PNGs. Everything is written to a fresh temporary folder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

export function scratchDir(prefix = 'hearth-made-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A short H.264 clip (with AAC audio unless `audio: false`) and any extra ffmpeg output options. */
export function makeClip(out: string, opts: { seconds?: number; size?: string; audio?: boolean; args?: string[] } = {}): Buffer {
  const seconds = String(opts.seconds ?? 2);
  const inputs = ['-f', 'lavfi', '-i', `testsrc=size=${opts.size ?? '160x120'}:rate=15`];
  if (opts.audio !== false) inputs.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=22050');
  const codecs = ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', ...(opts.audio !== false ? ['-c:a', 'aac', '-shortest'] : [])];
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-t', seconds, ...codecs, ...(opts.args ?? []), out], { stdio: ['ignore', 'ignore', 'pipe'] });
  return fs.readFileSync(out);
}

/** The first `fraction` of the bytes (a copy or upload interrupted part way). */
export function cutShort(bytes: Buffer, fraction = 0.5): Buffer {
  return Buffer.from(bytes.subarray(0, Math.floor(bytes.length * fraction)));
}

/** A PNG of noise (so that its compressed data spans the whole file). */
export function noisePng(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();
}

export type MotionDialect = 'MotionPhoto' | 'MicroVideo';

/** The XMP a Samsung/Google camera writes into a motion photo, in one of the two dialects. */
export function motionPhotoXmp(dialect: MotionDialect, videoLength: number, presentationUs = 500_000): string {
  const camera =
    dialect === 'MotionPhoto'
      ? `GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="${presentationUs}"`
      : `GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="${videoLength}" GCamera:MicroVideoPresentationTimestampUs="${presentationUs}"`;
  const directory =
    dialect === 'MotionPhoto'
      ? `<Container:Directory><rdf:Seq>` +
        `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li>` +
        `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="${videoLength}" Item:Padding="0"/></rdf:li>` +
        `</rdf:Seq></Container:Directory>`
      : '';
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
    `<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" ` +
    `xmlns:Item="http://ns.google.com/photos/1.0/container/item/" ${camera}>${directory}</rdf:Description>` +
    `</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
  );
}

/** A JPEG with `xmp` in an APP1 segment right after its start marker. */
export function withXmp(jpeg: Buffer, xmp: string): Buffer {
  const payload = Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(xmp, 'utf8')]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

/** A camera-like motion photo: a JPEG still with the XMP of `dialect` and the MP4 clip appended. */
export async function motionPhotoJpeg(dialect: MotionDialect, clip: Buffer): Promise<Buffer> {
  const still = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 120, b: 200 } } }).jpeg().toBuffer();
  return Buffer.concat([withXmp(still, motionPhotoXmp(dialect, clip.length)), clip]);
}

/** The XMP packet a camera or an editor writes into a movie, with `dateTimeOriginal` as exif:DateTimeOriginal. */
export function movieXmp(dateTimeOriginal: string): string {
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
    `<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:DateTimeOriginal="${dateTimeOriginal}"/>` +
    `</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
  );
}

/** A movie with an XMP `uuid` box (BE7ACFCB-97A9-42E8-9C71-999491E3AFAC) appended at its top level. */
export function withXmpBox(movie: Buffer, dateTimeOriginal: string): Buffer {
  const xmp = Buffer.from(movieXmp(dateTimeOriginal), 'utf8');
  const header = Buffer.alloc(24);
  header.writeUInt32BE(24 + xmp.length, 0);
  header.write('uuid', 4, 'latin1');
  Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex').copy(header, 8);
  return Buffer.concat([movie, header, xmp]);
}
