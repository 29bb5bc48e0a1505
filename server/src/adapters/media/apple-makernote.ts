/**
 * The one Apple MakerNote tag we need: the Live Photo content identifier.
 *
 * An iPhone Live Photo is two files, a still (HEIC/JPEG) and a QuickTime movie, linked by a UUID: the movie
 * carries it as `com.apple.quicktime.content.identifier`, the still in its Apple MakerNote, tag 0x0011
 * (ExifTool calls it MediaGroupUUID; Apple's own API calls it the asset identifier). exifr returns the
 * MakerNote as raw bytes without decoding it, so we read that single IFD entry here.
 *
 * Layout (iOS): "Apple iOS\0" + u16 version + "MM" + a big-endian IFD at offset 14; value offsets are
 * relative to the start of the MakerNote.
 */

const CONTENT_IDENTIFIER_TAG = 0x0011;
const UUID_RE = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i;

export function appleContentIdentifier(makerNote: Uint8Array | undefined): string | null {
  if (!makerNote || makerNote.length < 16) return null;
  const header = String.fromCharCode(...makerNote.subarray(0, 9));
  if (header !== 'Apple iOS') return null;
  const v = new DataView(makerNote.buffer, makerNote.byteOffset, makerNote.byteLength);
  const le = makerNote[12] === 0x49; // "II" would be little-endian; iOS writes "MM"
  const ifd = 14;
  if (ifd + 2 > makerNote.length) return null;
  const count = v.getUint16(ifd, le);
  for (let i = 0; i < count && i < 512; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > makerNote.length) return null;
    if (v.getUint16(at, le) !== CONTENT_IDENTIFIER_TAG || v.getUint16(at + 2, le) !== 2) continue;
    const n = v.getUint32(at + 4, le);
    const start = n <= 4 ? at + 8 : v.getUint32(at + 8, le);
    if (start + n > makerNote.length) return null;
    let s = '';
    for (let j = start; j < start + n && makerNote[j] !== 0; j++) s += String.fromCharCode(makerNote[j]!);
    s = s.trim();
    return UUID_RE.test(s) ? s.toUpperCase() : null;
  }
  return null;
}
