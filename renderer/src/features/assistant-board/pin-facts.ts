/** Words for a pin: how many photos, over which days, and what live or frozen means for it. */
import { formatDateRange } from '../../lib/dates';
import type { Pin, Widget } from './board-api';

export { itemNoun, photoCount } from './item-count';

export const WIDGET_LABELS: Record<Widget, string> = {
  cover_card: 'Cover',
  number_card: 'Number',
  spark_card: 'Timeline',
  mosaic_card: 'Mosaic',
};

/** "Apr 19, 2007 – Jun 2, 2008" from the facets' local days (read as calendar days, never moved by a zone). */
export function dayRange(range: { from: string | null; to: string | null }): string | null {
  if (!range.from || !range.to) return null;
  return formatDateRange(Date.parse(`${range.from}T00:00:00Z`), Date.parse(`${range.to}T00:00:00Z`), { utc: true });
}

/** The label and the sentence that says what it means. */
export function modeOf(pin: Pin): { label: string; meaning: string } {
  if (pin.mode === 'frozen') return { label: 'Frozen', meaning: 'Keeps the photos it was pinned with.' };
  if (pin.hydration_source === 'snapshot') return { label: 'Live', meaning: 'Re-runs its request when you look; it could not run just now, so these are the photos it had.' };
  return { label: 'Live', meaning: 'Re-runs its request each time you look, so new photos join it.' };
}
