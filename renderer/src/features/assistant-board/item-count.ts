/** How many items a pin holds, in words (no imports: the renderer's unit tests read it directly). */

/** What a pin's items are, in words: "video(s)" when all are videos, "photos and videos" when mixed, else "photo(s)" (facets' counts by type). */
export function itemNoun(n: number, types?: Record<string, number>): string {
  const videos = types?.VIDEO ?? 0;
  if (videos > 0 && videos === n) return n === 1 ? 'video' : 'videos';
  if (videos > 0) return 'photos and videos';
  return n === 1 ? 'photo' : 'photos';
}

/** "1 video", "3 photos", "5 photos and videos". */
export function photoCount(n: number, types?: Record<string, number>): string {
  return `${n.toLocaleString()} ${itemNoun(n, types)}`;
}
