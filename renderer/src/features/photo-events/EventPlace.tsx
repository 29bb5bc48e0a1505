/**
 * The place of an event in words ("Lisbon, Portugal"): the cover photo's place as getAsset names it
 * (the offline gazetteer). Decision: one photo stands for the place, the one the person sees on the
 * card, so the card and its words agree; an event without a geotagged cover shows no place.
 */
import { useAssetDetail } from '../../photos/asset-detail';

export function placeWords(place: { city: string | null; region: string | null; country: string } | null | undefined): string | null {
  if (!place) return null;
  return [place.city ?? place.region, place.country].filter(Boolean).join(', ');
}

export function usePlaceOf(coverAssetId: string | null, enabled = true): string | null {
  const detail = useAssetDetail(coverAssetId ?? '', enabled && coverAssetId !== null);
  return placeWords(detail.data?.place);
}
