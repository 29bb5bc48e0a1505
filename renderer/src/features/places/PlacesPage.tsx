/**
 * Places: the cities and countries the household's photos were taken in, as cards (cover, name,
 * count), most photos first. Two tabs, Cities and Countries; the tab is in the address
 * (`?level=country`) so Back and a reload keep it. A card opens the place's photos (PlacePage).
 * Places appear as soon as a photo's position is named on the server (moments after it is added).
 */
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { Thumbnail } from '../../photos/Thumbnail';
import { photosText, usePlaces, type PlaceLevel } from './places-api';
import { placePath } from './places-path';
import './places.css';
import { LoadError } from '../../components/LoadError';

const TABS: { level: PlaceLevel; label: string }[] = [
  { level: 'city', label: 'Cities' },
  { level: 'country', label: 'Countries' },
];

export function PlacesPage() {
  const [params, setParams] = useSearchParams();
  const level: PlaceLevel = params.get('level') === 'country' ? 'country' : 'city';
  const list = usePlaces(level);
  const places = list.data?.pages.flatMap((p) => p.places) ?? [];
  const total = list.data?.pages.at(-1)?.total ?? 0;
  const tabLabel = TABS.find((t) => t.level === level)!.label;
  return (
    <>
      <PageHeader title="Places">
        {list.isSuccess && total > 0 && <p>{level === 'city' ? (total === 1 ? '1 town or area.' : `${total} towns and areas.`) : total === 1 ? '1 country.' : `${total} countries.`}</p>}
      </PageHeader>
      <div className="places-tabs" role="tablist" aria-label="Group places by">
        {TABS.map((t) => (
          <button
            key={t.level}
            type="button"
            role="tab"
            id={`places-tab-${t.level}`}
            aria-selected={t.level === level}
            aria-controls="places-panel"
            className={`places-tabs__tab${t.level === level ? ' places-tabs__tab--on' : ''}`}
            onClick={() => setParams(t.level === 'city' ? {} : { level: t.level }, { replace: true })}
          >
            {t.label}
          </button>
        ))}
      </div>
      <section id="places-panel" role="tabpanel" aria-labelledby={`places-tab-${level}`}>
        {list.isPending && <p role="status">Loading places…</p>}
        {list.isError && (
          <LoadError error={list.error} onRetry={() => void list.refetch()} />
        )}
        {list.isSuccess && places.length === 0 && (
          <EmptyState icon="globe" title="No places yet">
            <p>Photos that know where they were taken (GPS in their metadata) are gathered here by town and country.</p>
          </EmptyState>
        )}
        {places.length > 0 && (
          <ul className="place-cards" aria-label={tabLabel}>
            {places.map((p) => (
              <li key={p.place_id} className="place-card">
                <Link to={placePath(p.place_id)} className="place-card__link">
                  <span className="place-card__cover">
                    <Thumbnail assetId={p.cover_asset_id} size="medium" alt="" className="place-card__image" fallback={<span className="place-card__blank" />} />
                  </span>
                  <strong className="place-card__name">{p.name}</strong>
                  <span className="place-card__meta">
                    {level === 'city' && <span>{p.country} · </span>}
                    {photosText(p.photo_count)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {list.hasNextPage && (
          <p className="places-more">
            <Button variant="secondary" busy={list.isFetchingNextPage} busyLabel="Loading…" onClick={() => void list.fetchNextPage()}>
              Show more places
            </Button>
          </p>
        )}
      </section>
    </>
  );
}
