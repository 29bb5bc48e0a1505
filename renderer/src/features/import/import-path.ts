/** Where the Import page lives (cloud import: connected accounts, what to import, the runs). */
export const IMPORT_PATH = '/import';
