/**
 * "On this day": a strip of memories on the Photos page, one card per earlier year with photos taken
 * on today's month and day ("3 years ago"), from the featured operation (getFeaturedPhotos with
 * `on_this_day`, the viewer's own today). A card opens the timeline on that day (the date filter, so
 * the photos are there with the viewer, the chips and Back). Nothing shows when there are none.
 *
 * Decisions: the year of a photo is that of its own clock (lib/capture-time.ts), as the server picks
 * them; today's date is the viewer's, so memories change at the viewer's midnight; the day filter
 * reads days in the viewer's zone, so a photo taken near midnight far away may fall on the next or
 * previous day there (it still shows on its own day in the strip).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { request } from '../../api/problem';
import { wallClockMs } from '../../lib/capture-time';
import { Thumbnail } from '../../photos/Thumbnail';
import './memories.css';

/** The viewer's today as YYYY-MM-DD, in the viewer's zone. */
function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

interface Memory {
  year: number;
  date: string;
  cover: string;
  count: number;
}

export function OnThisDay() {
  const today = localToday();
  const featured = useQuery({
    queryKey: ['library', 'on-this-day', today],
    queryFn: ({ signal }) => request(api.GET('/api/v1/assets/featured', { params: { query: { on_this_day: today, count: 24, candidate_limit: 240 } }, signal })),
    staleTime: 10 * 60_000,
  });
  const thisYear = Number(today.slice(0, 4));
  const byYear = new Map<number, Memory>();
  for (const a of featured.data?.assets ?? []) {
    const wall = wallClockMs(a.taken_time, a.capture_offset_minutes);
    if (wall === null) continue;
    const year = new Date(wall).getUTCFullYear();
    const m = byYear.get(year);
    if (m) m.count++;
    else byYear.set(year, { year, date: `${year}${today.slice(4)}`, cover: a.asset_id, count: 1 });
  }
  const memories = [...byYear.values()].sort((x, y) => y.year - x.year);
  if (memories.length === 0) return null;

  return (
    <section className="memories" aria-labelledby="memories-heading">
      <h2 className="memories__title" id="memories-heading">
        On this day
      </h2>
      <ul className="memories__strip">
        {memories.map((m) => {
          const ago = thisYear - m.year;
          const label = ago === 1 ? '1 year ago' : `${ago} years ago`;
          return (
            <li key={m.year}>
              <Link
                className="memory-card"
                to={`/?${new URLSearchParams({ from: m.date, to: m.date }).toString()}`}
                aria-label={`${label}: photos from ${m.date.slice(0, 4)}`}
              >
                <Thumbnail assetId={m.cover} size="small" alt="" className="memory-card__image" fallback={null} />
                <span className="memory-card__text">
                  <strong>{label}</strong>
                  <span>{m.year}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
