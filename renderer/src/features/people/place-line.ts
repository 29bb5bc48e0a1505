/** Where a photo was taken, by name (getAsset's `place`), for the viewer's details. */
/** "Lisbon, Lisbon, Portugal": the place's names as the gazetteer gives them, town first; null without a place. */
export function placeLine(place: { city: string | null; region: string | null; country: string } | null | undefined): string | null {
  if (!place) return null;
  return [place.city, place.region, place.country].filter(Boolean).join(', ');
}
