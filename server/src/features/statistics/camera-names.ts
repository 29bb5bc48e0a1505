/**
 * A camera's name as people say it ("Canon EOS 350D DIGITAL", "Nikon D70"), from the make and model
 * its files record. Cameras write both with little care: the make is often a company name
 * ("NIKON CORPORATION", "OLYMPUS IMAGING CORP.", "EASTMAN KODAK COMPANY") and the model often starts
 * with the make again ("Canon" + "Canon EOS 40D"), so putting the two side by side gives
 * "Canon Canon EOS 40D" or "NIKON CORPORATION NIKON D70".
 *
 * The rule:
 * 1. The brand is the make without its company words (Corporation, Corp., Co., Ltd., Company,
 *    Imaging, Electric, Computer, Optical, Global, Techwin…), a few well-known makers spelled as they
 *    spell themselves (NIKON → Nikon, EASTMAN KODAK → Kodak, FUJIFILM → Fujifilm), otherwise as
 *    recorded ("HMD", "WWL" stay).
 * 2. When the model already starts with the brand (or with the make's first word), the model's own
 *    copy of it is replaced by the brand ("NIKON D70" → "Nikon D70"); otherwise the brand goes in front.
 * 3. No make: the model alone. Nothing is dropped from the model, so two cameras never share a name
 *    unless they record the same model.
 */

/** Makers whose recorded make reads badly as is (all capitals, or with the company around it). */
const BRANDS: readonly [RegExp, string][] = [
  [/^nikon\b/i, 'Nikon'],
  [/^canon\b/i, 'Canon'],
  [/^olympus\b/i, 'Olympus'],
  [/^om digital\b/i, 'OM System'],
  [/^pentax\b/i, 'Pentax'],
  [/^ricoh\b/i, 'Ricoh'],
  [/^(eastman )?kodak\b/i, 'Kodak'],
  [/^fuji(film)?\b/i, 'Fujifilm'],
  [/^sony\b/i, 'Sony'],
  [/^samsung\b/i, 'Samsung'],
  [/^casio\b/i, 'Casio'],
  [/^sanyo\b/i, 'Sanyo'],
  [/^panasonic\b/i, 'Panasonic'],
  [/^leica\b/i, 'Leica'],
  [/^konica minolta\b/i, 'Konica Minolta'],
  [/^minolta\b/i, 'Minolta'],
  [/^motorola\b/i, 'Motorola'],
  [/^hasselblad\b/i, 'Hasselblad'],
  [/^hmd global\b/i, 'HMD'],
  [/^sigma\b/i, 'Sigma'],
  [/^huawei\b/i, 'Huawei'],
  [/^xiaomi\b/i, 'Xiaomi'],
  [/^google\b/i, 'Google'],
  [/^apple\b/i, 'Apple'],
  [/^lg electronics\b/i, 'LG'],
  [/^gopro\b/i, 'GoPro'],
  [/^dji\b/i, 'DJI'],
];

/** Words that name the company rather than the brand. */
const COMPANY_WORDS =
  /[\s,]+(corporation|corp\.?|co\.?,?\s*ltd\.?|co\.?|ltd\.?|limited|inc\.?|company|imaging|electric|electronics|computer|optical|global|techwin|digital solutions|gmbh|ag|s\.?a\.?)\b\.?/gi;

/** Makers whose phones or cameras carry another maker's name in the model ("HMD Global" makes "Nokia 8.3 5G"). */
const MODEL_BRANDS: readonly RegExp[] = [/^nokia\b/i];

export function brandOf(make: string): string {
  const trimmed = make.trim().replace(/\s+/g, ' ');
  for (const [re, brand] of BRANDS) if (re.test(trimmed)) return brand;
  const stripped = trimmed.replace(COMPANY_WORDS, '').replace(/[\s,.]+$/, '').trim();
  return stripped || trimmed;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "Canon" + "Canon EOS 40D" → "Canon EOS 40D"; "NIKON CORPORATION" + "NIKON D70" → "Nikon D70". */
export function cameraName(make: string | null | undefined, model: string): string {
  const m = model.trim().replace(/\s+/g, ' ');
  if (!make?.trim()) return m;
  const brand = brandOf(make);
  if (MODEL_BRANDS.some((re) => re.test(m))) return m;
  const firstWord = make.trim().split(/[\s,]+/)[0]!;
  for (const prefix of [brand, firstWord]) {
    const re = new RegExp(`^${escape(prefix)}(?=$|[\\s_-])`, 'i');
    if (re.test(m)) {
      const rest = m.replace(re, '').replace(/^[\s_]+/, '');
      return rest ? (rest.startsWith('-') ? `${brand}${rest}` : `${brand} ${rest}`) : brand;
    }
  }
  return `${brand} ${m}`;
}
