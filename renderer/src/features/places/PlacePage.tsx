/**
 * One place's photos: the grid of the photos taken there (queryAssets `filter.place_id`), by the day
 * they were taken, opening the viewer at `/places/<id>/photos/<asset>`; "Show on map" opens the map
 * at the place's centre. A place with none of the member's photos (an old link, photos moved to the
 * Trash) says so with a way back to Places.
 */
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/problem';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { AssetCollectionPage } from '../../photos/AssetCollectionPage';
import { photosText, usePlace } from './places-api';
import { PLACES_PATH } from './places-path';
import './places.css';
import { LoadError } from '../../components/LoadError';

export function PlacePage() {
  const placeId = useParams().placeId ?? '';
  const place = usePlace(placeId);
  const filter = useMemo(() => ({ place_id: placeId }), [placeId]);
  if (place.isPending) return <p role="status">Loading the place…</p>;
  if (place.isError) {
    const gone = place.error instanceof ApiError && (place.error.status === 404 || place.error.status === 422);
    return (
      <>
        <PageHeader title="Places" />
        {gone ? (
          <EmptyState icon="map" title="No photos here">
            <p>
              None of your photos is in this place any more. <Link to={PLACES_PATH}>See all places</Link>
            </p>
          </EmptyState>
        ) : (
          <LoadError error={place.error} onRetry={() => void place.refetch()} />
        )}
      </>
    );
  }
  const p = place.data;
  const where = p.level === 'country' ? p.name : `${p.name}, ${p.country}`;
  const mapLink = `/map?lat=${p.latitude.toFixed(5)}&lon=${p.longitude.toFixed(5)}`;
  return (
    <AssetCollectionPage
      name={`place:${placeId}`}
      title={where}
      listLabel={`Photos taken in ${where}`}
      filter={filter}
      sortBy="date_captured"
      groupByDay
      describe={(n) => `${photosText(n)} taken here.`}
      empty={{ icon: 'map', title: 'No photos here', text: 'None of your photos is in this place any more.' }}
      toolbar={
        <nav className="place-links" aria-label="Place">
          <Link to={PLACES_PATH} className="button button--quiet">
            All places
          </Link>
          <Link to={mapLink} className="button button--secondary">
            Show on map
          </Link>
        </nav>
      }
    />
  );
}
