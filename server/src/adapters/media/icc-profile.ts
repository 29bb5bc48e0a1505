/**
 * Whether an embedded ICC profile describes sRGB, read from the profile's own description tag.
 *
 * Why: sharp converts every image that carries a profile into sRGB through lcms, even when the profile is
 * sRGB already (most camera and web JPEGs that carry one: "sRGB IEC61966-2.1", "sRGB built-in", Facebook's
 * compact "c2"). That conversion is then an identity that costs as much as a WebP encode of a small size
 * (measured on the corpus JPEGs, scripts/bench/ingest.ts). Decoding such an image with its profile ignored
 * gives the same pixels for free; any other profile (Adobe RGB, Display P3, "Generic RGB", CMYK, grey)
 * still goes through the conversion, so wide-gamut photos keep their colours in the sRGB thumbnails.
 *
 * The description is what camera makers, editors and browsers name the profile by; a profile that calls
 * itself sRGB but is not would at worst give a thumbnail whose colours are as slightly off as that profile.
 */

/** Descriptions of sRGB profiles seen on real files ("c2" is the 524-byte sRGB profile Facebook writes). */
const SRGB_DESCRIPTION = /(^|[^a-z])srgb([^a-z]|$)|^c2$/i;

/** The text of the `desc` tag (ICC v2 `desc` or v4 `mluc`, first record), or null when there is none. */
export function iccDescription(icc: Uint8Array): string | null {
  const b = Buffer.from(icc.buffer, icc.byteOffset, icc.byteLength);
  if (b.length < 132) return null;
  const tags = b.readUInt32BE(128);
  for (let i = 0; i < tags && 132 + i * 12 + 12 <= b.length; i++) {
    const at = 132 + i * 12;
    if (b.toString('latin1', at, at + 4) !== 'desc') continue;
    const off = b.readUInt32BE(at + 4);
    const type = off + 12 <= b.length ? b.toString('latin1', off, off + 4) : '';
    if (type === 'desc') {
      const len = b.readUInt32BE(off + 8);
      return clean(b.toString('latin1', off + 12, Math.min(b.length, off + 12 + len)));
    }
    if (type === 'mluc' && off + 28 <= b.length) {
      const len = b.readUInt32BE(off + 20);
      const start = off + b.readUInt32BE(off + 24);
      const text = b.subarray(start, Math.min(b.length, start + len));
      let s = '';
      for (let j = 0; j + 1 < text.length; j += 2) s += String.fromCharCode(text.readUInt16BE(j));
      return clean(s);
    }
    return null;
  }
  return null;
}

const clean = (s: string) => s.replace(/\0.*$/s, '').trim();

/** True when the profile names itself sRGB: converting to sRGB would change nothing. */
export function isSrgbProfile(icc: Uint8Array | undefined): boolean {
  if (!icc) return false;
  const description = iccDescription(icc);
  return description !== null && SRGB_DESCRIPTION.test(description);
}
