/**
 * The suffix Google Photos gives an edited copy (`IMG_1-edited.jpg` beside `IMG_1.jpg`), in the account's
 * language. An edited copy has no sidecar of its own: it shares the original's and is stacked with it.
 *
 * Collected from the issue's list and from the lists public Takeout tools keep from their users' exports
 * (TheLastGimbus/GooglePhotosTakeoutHelper `extra_formats`, simulot/immich-go's Takeout reader). Compared after
 * NFC normalisation and lower-casing, as macOS archives may store names decomposed.
 */
export const EDITED_SUFFIXES: readonly string[] = [
  '-edited', // English
  '-bearbeitet', // German
  '-modifié', // French
  '-editado', // Spanish, Portuguese
  '-ha editado', // Spanish (older exports)
  '-editada', // Portuguese (feminine)
  '-modificato', // Italian
  '-modificata', // Italian (feminine)
  '-bewerkt', // Dutch
  '-redigerad', // Swedish
  '-redigeret', // Danish
  '-redigert', // Norwegian
  '-muokattu', // Finnish
  '-editat', // Catalan, Romanian
  '-upravené', // Slovak
  '-upraveno', // Czech
  '-edytowane', // Polish
  '-szerkesztett', // Hungarian
  '-düzenlendi', // Turkish
  '-изменено', // Russian
  '-編集済み', // Japanese
  '-편집됨', // Korean
  '-已修改', // Chinese (simplified)
  '-已編輯', // Chinese (traditional)
];

const NORMALISED = EDITED_SUFFIXES.map((s) => s.normalize('NFC').toLowerCase());

/** The name without its edited suffix when `stem` (a name without extension) ends with one, else null. */
export function stripEditedSuffix(stem: string): string | null {
  const lower = stem.normalize('NFC').toLowerCase();
  for (const suffix of NORMALISED) {
    if (lower.endsWith(suffix) && lower.length > suffix.length) return stem.normalize('NFC').slice(0, lower.length - suffix.length);
  }
  return null;
}
