import fs from 'node:fs';
import path from 'node:path';

/**
 * What each template holds (build.ts): the household's members besides alice (the administrator) and
 * the corpus files, by the test's own keys: `key: [corpus path, repository path, owner]` (owner the
 * administrator when left out). A recipe is the data of the test files that use it, exactly as they ingested it
 * themselves before, so every assertion sees the same catalog; two files that need the same data share
 * one recipe (and one build).
 */
export interface Recipe {
  name: string;
  /**
   * The administrator as a browser spec signs up (its own name and password, shown in its pages);
   * left out: alice, as registerAdmin makes her (the server tests' helpers).
   */
  admin?: { username: string; password: string; display_name: string };
  members: readonly string[];
  files: Readonly<Record<string, readonly [corpus: string, rel: string, owner?: string]>>;
}

const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpus');
/** Every geotagged-or-not JPEG of the corpus's gps folder (places.test.ts checks each one's place). */
export const GPS_FILES = fs.readdirSync(path.join(CORPUS, 'gps')).filter((f) => f.endsWith('.jpg')).sort();

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
  /**
   * browse/camera-make.test.ts and browse/rating-min.test.ts: four of alice's cameras and one of bob's
   * (neither file asserts a file name, so both use these keys and paths).
   */
  cameras: recipe({
    name: 'cameras',
    members: ['bob'],
    files: {
      canon40d: ['exif/Canon_40D.jpg', 'cams/canon40d.jpg'],
      canonG9: ['exif/Canon_PowerShot_G9.jpg', 'cams/canonG9.jpg'],
      nikon: ['exif/Nikon_D70.jpg', 'cams/nikon.jpg'],
      olympus: ['exif/Olympus_E-P3.jpg', 'cams/olympusTrashed.jpg'],
      bobsCanon: ['exif/Canon_DIGITAL_IXUS_400.jpg', 'cams/bobsCanon.jpg', 'bob'],
    },
  }),
  /** folders/folders.test.ts: a tree of folders in the primary repository, alice's and bob's. */
  folders: recipe({
    name: 'folders',
    members: ['bob'],
    files: {
      canon: ['gps/Canon_600D_gps.jpg', 'holidays/2015/yosemite/canon.jpg'],
      clip: ['video/with-gps.mp4', 'holidays/2015/yosemite/clip.mp4'],
      broken: ['exif/corrupted.jpg', 'holidays/2015/broken.jpg'],
      canon40d: ['exif/Canon_40D.jpg', 'holidays/2008/canon40d.jpg'],
      trashed: ['exif/Canon_DIGITAL_IXUS_400.jpg', 'holidays/2008/trashed.jpg'],
      nikon: ['exif/Nikon_D70.jpg', 'holidays/nikon.jpg'],
      inbox: ['exif/no_exif.jpg', 'inbox/no_exif.jpg'],
      root: ['exif/Pentax_K10D.jpg', 'root.jpg'],
      bob1: ['gps/DSCN0010.jpg', 'holidays/2015/bob.jpg', 'bob'],
      bob2: ['gps/DSCN0012.jpg', 'bobonly/x.jpg', 'bob'],
    },
  }),
  /** places/places.test.ts: every photo of the corpus's gps folder (alice's, keyed by file name), and two of bob's. */
  places: recipe({
    name: 'places',
    members: ['bob'],
    files: {
      ...Object.fromEntries(GPS_FILES.map((f) => [f, [`gps/${f}`, `alice/${f}`] as const])),
      helsinki: ['gps/HMD_Nokia_8.3_5G.jpg', 'bob/helsinki.jpg', 'bob'],
      sydney: ['gps/sydney_opera_house.jpg', 'bob/sydney.jpg', 'bob'],
    },
  }),
  /** places/map-points.test.ts: geotagged photos and videos, one without GPS, an empty GPS block, one of bob's. */
  mapPoints: recipe({
    name: 'map-points',
    members: ['bob'],
    files: {
      canon: ['gps/Canon_600D_gps.jpg', 'map/Canon_600D_gps.jpg'],
      bigben: ['gps/big_ben.jpg', 'map/big_ben.jpg'],
      sydney: ['gps/sydney_opera_house.jpg', 'map/sydney_opera_house.jpg'],
      kenya: ['gps/Kodak_CX7530_kenya.jpg', 'map/Kodak_CX7530_kenya.jpg'],
      video: ['video/with-gps.mp4', 'map/with-gps.mp4'],
      zeroVideo: ['video/ftyp3gp5.mp4', 'map/ftyp3gp5.mp4'],
      noGps: ['exif/Canon_40D.jpg', 'map/Canon_40D.jpg'],
      emptyGps: ['gps/empty_gps.jpg', 'map/empty_gps.jpg'],
      trashed: ['gps/thompson-springs.jpg', 'map/thompson-springs.jpg'],
      bob: ['gps/DSCN0010.jpg', 'map/DSCN0010.jpg', 'bob'],
    },
  }),
  /**
   * e2e/browse.spec.ts: photos taken on different days, plus a video, as its administrator's, in a dated
   * folder like the one uploads land in (`uploads/YYYY/MM/`: its Folders test walks down into it).
   */
  e2eBrowse: recipe({
    name: 'e2e-browse',
    admin: { username: 'demeter', password: 'harvest-of-the-year', display_name: 'Demeter' },
    members: [],
    files: {
      DSCN0010: ['gps/DSCN0010.jpg', 'uploads/2026/01/DSCN0010.jpg'],
      big_ben: ['gps/big_ben.jpg', 'uploads/2026/01/big_ben.jpg'],
      Canon_40D: ['exif/Canon_40D.jpg', 'uploads/2026/01/Canon_40D.jpg'],
      Canon_600D_gps: ['gps/Canon_600D_gps.jpg', 'uploads/2026/01/Canon_600D_gps.jpg'],
      with_gps: ['video/with-gps.mp4', 'uploads/2026/01/with-gps.mp4'],
    },
  }),
  /**
   * agent/*.test.ts: alice's cameras over several years (2007–2018, summer 2008 among them), a video and
   * geotagged photos; bob's own photos (never to enter alice's refs) and two he shares with alice in the test.
   */
  agent: recipe({
    name: 'agent',
    members: ['bob'],
    files: {
      canon40d: ['exif/Canon_40D.jpg', 'a/canon40d.jpg'],
      canonG9: ['exif/Canon_PowerShot_G9.jpg', 'a/canonG9.jpg'],
      nikonD70: ['exif/Nikon_D70.jpg', 'a/nikonD70.jpg'],
      pentax: ['exif/Pentax_K10D.jpg', 'a/pentax.jpg'],
      panasonic: ['exif/Panasonic_DMC-FZ30.jpg', 'a/panasonic.jpg'],
      canon500d: ['exif/Canon_EOS_500D_rating.jpg', 'a/canon500d.jpg'],
      sony: ['exif/Sony_DSLR-A200.jpg', 'a/sony.jpg'],
      olympus: ['exif/Olympus_E-P3.jpg', 'a/olympus.jpg'],
      door: ['exif/door-knocker.jpg', 'a/door-knocker.jpg'],
      dscn10: ['gps/DSCN0010.jpg', 'a/DSCN0010.jpg'],
      bigben: ['gps/big_ben.jpg', 'a/big_ben.jpg'],
      video: ['video/with-gps.mp4', 'a/with-gps.mp4'],
      bobIxus: ['exif/Canon_DIGITAL_IXUS_400.jpg', 'b/ixus.jpg', 'bob'],
      bobCoolpix: ['exif/Nikon_COOLPIX_P1.jpg', 'b/coolpix.jpg', 'bob'],
      bobFuji: ['exif/Fujifilm_FinePix_E500.jpg', 'b/fuji.jpg', 'bob'],
    },
  }),
} as const satisfies Record<string, Recipe>;
