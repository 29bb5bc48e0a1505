/** Photos: the whole library as a timeline, newest capture first, grouped by day, with filters and "On this day" memories. */
import { Link } from 'react-router';
import { SharedWithYouNotice } from '../sharing';
import { AssetCollectionPage } from '../../photos/AssetCollectionPage';
import { FilterBar, useUrlFilter, useUrlStackMode } from './FilterBar';
import { OnThisDay } from './OnThisDay';

const EMPTY_LIBRARY = {
  icon: 'photos' as const,
  title: 'No photos yet',
  text: (
    <>
      Photos and videos you add appear here, newest first. <Link to="/upload">Upload from this device</Link>, or ask the administrator to add a
      folder that already holds your pictures.
    </>
  ),
};
const NOTHING_MATCHES = { icon: 'photos' as const, title: 'Nothing matches', text: 'No photo or video matches these filters. Clear a filter to see more.' };

function describe(n: number, filtered: boolean): string {
  if (filtered) return `${n === 1 ? '1 photo or video matches' : `${n.toLocaleString()} photos and videos match`} the filters.`;
  return n === 1 ? '1 photo or video, by the day it was taken.' : `${n.toLocaleString()} photos and videos, by the day they were taken.`;
}

export function PhotosPage() {
  const { filter, active } = useUrlFilter();
  const stackMode = useUrlStackMode();
  return (
    <AssetCollectionPage
      name="timeline"
      title="Photos"
      listLabel="Photos and videos"
      filter={filter}
      toolbar={
        <>
          <FilterBar />
          {/* A partner's photos wait for the member's choice: say so where the timeline is (issue 24). */}
          {active === 0 && <SharedWithYouNotice />}
          {/* Memories belong to the whole library, not to a filtered view. */}
          {active === 0 && <OnThisDay />}
        </>
      }
      sortBy="date_captured"
      stackMode={stackMode}
      groupByDay
      describe={(n) => describe(n, active > 0)}
      empty={active ? NOTHING_MATCHES : EMPTY_LIBRARY}
    />
  );
}
