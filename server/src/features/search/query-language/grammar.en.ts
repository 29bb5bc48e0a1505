/**
 * English: every word the query parser understands, in one table. To add a language, copy this
 * file, translate the words (keep keys, numbers, filter values and the tag name "screenshot", which
 * is the classifier's), and hand the table to parseQuery. The matching code never names a word.
 *
 * Choices made here (also the parser's ambiguity rules, see parse-query.ts):
 * - "may", "march" and the short month names are ordinary words too: months only next to an
 *   introducer ("in may", "during march", "from may"), a year ("may 2021"), a day ("may 5"), or in
 *   a range ("may to june", "since march"). "of" is no introducer: "photos of may" may be a person.
 * - "a"/"an" count one only before a unit ("a week ago"), never as a rating ("a star" is a word).
 * - Christmas is the 24th to the 26th (Eve to Boxing Day: the family photos), New Year the 31st and
 *   the 1st (named by the year that begins: "new year 2023" is 31 Dec 2022 – 1 Jan 2023), Easter
 *   Good Friday to Easter Monday, Thanksgiving the US one (fourth Thursday of November).
 * - "photos" is the PHOTO type; "pictures"/"images" too. "screenshots" is the classifier's
 *   `screenshot` tag (any source: one a person set counts as well).
 * - File types are the file name's extension, case ignored ("jpeg" is .jpg and .jpeg); "raw" is
 *   any item holding a camera RAW file.
 * - "apple" and "google" are fruit and search engines first: cameras only after "with", "on", "shot on"….
 */
import type { Grammar } from './grammar.ts';

export const en: Grammar = {
  language: 'en',
  stopWords: ['from', 'in', 'of', 'taken', 'with', 'my', 'on', 'during', 'shot', 'at', 'using', 'by', 'all', 'our', 'the'],
  monthIntroducers: ['in', 'during', 'from'],
  months: [
    ['january', 'jan', 'jan.'],
    ['february', 'feb', 'feb.'],
    ['march', 'mar', 'mar.'],
    ['april', 'apr', 'apr.'],
    ['may'],
    ['june', 'jun', 'jun.'],
    ['july', 'jul', 'jul.'],
    ['august', 'aug', 'aug.'],
    ['september', 'sep', 'sept', 'sep.', 'sept.'],
    ['october', 'oct', 'oct.'],
    ['november', 'nov', 'nov.'],
    ['december', 'dec', 'dec.'],
  ],
  ambiguousMonthWords: ['may', 'march', 'jan', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'feb'],
  ordinalSuffixes: ['st', 'nd', 'rd', 'th'],
  seasons: {
    spring: ['spring'],
    summer: ['summer', 'summertime'],
    autumn: ['autumn', 'fall'],
    winter: ['winter', 'wintertime'],
  },
  holidays: [
    { names: ['christmas', 'xmas', 'x-mas', 'christmas time', 'christmastime'], rule: { anchor: 'fixed', month: 12, day: 25 }, before: 1, after: 1 },
    { names: ['christmas eve'], rule: { anchor: 'fixed', month: 12, day: 24 }, before: 0, after: 0 },
    { names: ['christmas day'], rule: { anchor: 'fixed', month: 12, day: 25 }, before: 0, after: 0 },
    { names: ['boxing day'], rule: { anchor: 'fixed', month: 12, day: 26 }, before: 0, after: 0 },
    { names: ['new year', "new year's", 'new years', 'newyear'], rule: { anchor: 'fixed', month: 1, day: 1 }, before: 1, after: 0 },
    { names: ["new year's eve", 'new years eve', 'new year eve', 'nye'], rule: { anchor: 'fixed', month: 12, day: 31 }, before: 0, after: 0 },
    { names: ["new year's day", 'new years day'], rule: { anchor: 'fixed', month: 1, day: 1 }, before: 0, after: 0 },
    { names: ['easter', 'easter weekend'], rule: { anchor: 'easter' }, before: 2, after: 1 },
    { names: ['easter sunday', 'easter day'], rule: { anchor: 'easter' }, before: 0, after: 0 },
    { names: ['good friday'], rule: { anchor: 'easter' }, before: 2, after: -2 },
    { names: ['easter monday'], rule: { anchor: 'easter' }, before: -1, after: 1 },
    { names: ['halloween', "hallowe'en"], rule: { anchor: 'fixed', month: 10, day: 31 }, before: 0, after: 0 },
    { names: ["valentine's day", 'valentines day', "valentine's", 'valentines'], rule: { anchor: 'fixed', month: 2, day: 14 }, before: 0, after: 0 },
    { names: ['thanksgiving'], rule: { anchor: 'weekday', month: 11, weekday: 4, n: 4 }, before: 0, after: 0 },
  ],
  thisWords: ['this'],
  lastWords: ['last', 'past', 'previous'],
  today: ['today'],
  yesterday: ['yesterday'],
  weekend: ['weekend'],
  units: {
    day: ['day', 'days'],
    week: ['week', 'weeks'],
    month: ['month', 'months'],
    year: ['year', 'years'],
  },
  agoWords: ['ago'],
  decadeSuffixes: ['s', "'s"],
  betweenWords: ['between'],
  andWords: ['and', '&'],
  fromWords: ['from'],
  toWords: ['to', 'until', 'till', 'through', 'thru'],
  sinceWords: ['since'],
  untilWords: ['until', 'till', 'up to'],
  afterWords: ['after'],
  beforeWords: ['before'],
  ofWords: ['of'],
  media: [
    { words: ['live photos', 'live photo', 'live pictures', 'live picture', 'live pics'], kind: 'live_photo', filter: { media_item: { composition: 'live_photo' } } },
    { words: ['screenshots', 'screenshot', 'screen shots', 'screen shot', 'screengrabs', 'screen captures'], kind: 'screenshot', filter: { tag_names: ['screenshot'] } },
    { words: ['videos', 'video', 'clips', 'clip', 'movies', 'footage'], kind: 'media_type', filter: { type: 'VIDEO' } },
    { words: ['photos', 'photo', 'pictures', 'picture', 'pics', 'pic', 'images', 'image', 'photographs', 'snaps'], kind: 'media_type', filter: { type: 'PHOTO' } },
    { words: ['audio', 'recordings', 'recording', 'voice memos', 'voice memo', 'sound recordings'], kind: 'media_type', filter: { type: 'AUDIO' } },
  ],
  favourites: ['favourites', 'favorites', 'favourite', 'favorite', 'faves', 'favs', 'liked', 'loved', 'hearted'],
  starWords: ['stars', 'star', 'starred'],
  atLeastWords: ['at least', 'minimum', 'min', 'no less than'],
  orMoreWords: ['or more', 'and more', 'and up', 'or higher', 'and higher', 'and above', 'or above', 'or better', 'plus'],
  ratedWords: ['rated', 'rating'],
  unratedWords: ['unrated', 'not rated', 'no stars', 'no rating', 'without rating', 'without stars'],
  numberWords: { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 },
  articles: ['a', 'an'],
  fileTypes: [
    { words: ['raw', 'raws', 'raw files', 'camera raw'], filter: { media_item: { composition: 'contains_raw' } } },
    { words: ['heic', 'heics', 'heif', 'heic files'], filter: { filename: { operator: 'matches', value: '*.hei?' } } },
    { words: ['jpeg', 'jpegs', 'jpg', 'jpgs', 'jpeg files', 'jpg files'], filter: { filename: { operator: 'matches', value: '*.jp*g' } } },
    { words: ['png', 'pngs', 'png files'], filter: { filename: { operator: 'matches', value: '*.png' } } },
    { words: ['gif', 'gifs', 'gif files'], filter: { filename: { operator: 'matches', value: '*.gif' } } },
    { words: ['dng', 'dngs'], filter: { filename: { operator: 'matches', value: '*.dng' } } },
    { words: ['mp4', 'mp4s'], filter: { filename: { operator: 'matches', value: '*.mp4' } } },
    { words: ['mov', 'movs'], filter: { filename: { operator: 'matches', value: '*.mov' } } },
  ],
  ordinaryCameraWords: ['apple', 'google', 'leaf', 'phase one'],
  cameraIntroducers: ['with', 'on', 'using', 'by', 'shot on', 'taken with', 'taken on', 'shot with'],
  placeIntroducers: ['in', 'at', 'near', 'around', 'taken in'],
};
