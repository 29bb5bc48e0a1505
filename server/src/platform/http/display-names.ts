/**
 * File names and folder paths as Hearth shows them. Names come from disk (files found by watching and
 * scanning keep whatever name they have there) and may carry invisible bidirectional controls: with
 * U+202E (right-to-left override) `photo\u202Egpj.exe` is displayed as `photoexe.jpg`. Every name an
 * answer or a download shows passes through `displayFileName`.
 *
 * Decision: neutralise at output, not in the catalog. The file on disk is never renamed (media files
 * are never rewritten, and a scan must find the file under its real name), and the catalog keeps that
 * name, so search and scans still match it. Uploads are different: there Hearth chooses the name on
 * disk, and `sanitizeFileName` (features/intake/staging.ts) drops these characters at ingest.
 *
 * Neutralising: the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069) are removed, so the name reads in its stored order with its real extension last;
 * C0/C1 control characters (a newline in a name on disk) become `_`.
 *
 * Paths that clients send back (`folder_path`, `storage_path`) are identifiers and stay exact; the
 * names shown for them (`display_name`, `original_filename`) are neutralised.
 */

const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- finding control characters is the point: they are removed from names
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** True when `name` would display differently from its stored order. */
export function hasBidiControls(name: string): boolean {
  return new RegExp(BIDI_CONTROLS.source).test(name);
}

/** `name` safe to display and to offer as a download name. */
export function displayFileName(name: string): string {
  return name.replace(BIDI_CONTROLS, '').replace(CONTROLS, '_');
}
