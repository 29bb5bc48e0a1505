/**
 * What each template holds (build.ts): the household's members besides alice (the administrator) and
 * the corpus files, by the test's own keys: `key: [corpus path, repository path, owner]` (owner alice
 * when left out). A recipe is the data of the test files that use it, exactly as they ingested it
 * themselves before, so every assertion sees the same catalog; two files that need the same data share
 * one recipe (and one build).
 */
export interface Recipe {
  name: string;
  members: readonly string[];
  files: Readonly<Record<string, readonly [corpus: string, rel: string, owner?: string]>>;
}

function recipe<const R extends Recipe>(r: R): R {
  return r;
}

export const RECIPES = {
  /** search/query-language-filters.test.ts: one owner's cameras, dates, a RAW+JPEG pair, a live photo, a video. */
  queryLanguage: recipe({
    name: 'query-language',
    members: [],
    files: {
      canon: ['gps/Canon_600D_gps.jpg', 'trips/Canon_600D_gps.jpg'],
      dscn10: ['gps/DSCN0010.jpg', 'trips/DSCN0010.jpg'],
      jpeg: ['raw/RAW_NIKON_D1.JPG', 'raw/RAW_NIKON_D1.JPG'],
      raw: ['raw/RAW_NIKON_D1.NEF', 'raw/RAW_NIKON_D1.NEF'],
      still: ['live/IMG_7943.HEIC', 'live/IMG_7943.HEIC'],
      motion: ['live/IMG_7943_HEVC.MOV', 'live/IMG_7943_HEVC.MOV'],
      video: ['video/with-gps.mp4', 'video/with-gps.mp4'],
    },
  }),
} as const satisfies Record<string, Recipe>;
