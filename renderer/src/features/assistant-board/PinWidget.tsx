/**
 * A pin's card face, one of the contract's four widgets: `cover_card` (its first photo, large), `number_card`
 * (how many, over which days), `spark_card` (how its photos spread over time: the facets' histogram as bars) and
 * `mosaic_card` (its first photos side by side). Cover and mosaic read the pin's first photos
 * (getAgentPinAssets); number and spark need only the pin's facets, so they ask for nothing more.
 */
import { Thumbnail } from '../../photos/Thumbnail';
import { usePinPreview, type Pin } from './board-api';
import { dayRange, itemNoun, photoCount } from './pin-facts';

const MOSAIC = 6;

export function PinWidget({ pin }: { pin: Pin }) {
  const needsPhotos = pin.widget === 'cover_card' || pin.widget === 'mosaic_card';
  const preview = usePinPreview(pin.pin_id, pin.widget === 'cover_card' ? 1 : MOSAIC, needsPhotos && pin.count > 0);
  const range = dayRange(pin.facets.date_range);
  const assets = preview.data?.assets ?? [];

  if (pin.count === 0) return <p className="pin-widget pin-widget--empty">No photos (yet).</p>;

  switch (pin.widget) {
    case 'number_card':
      return (
        <div className="pin-widget pin-widget--number">
          <span className="pin-widget__number">{pin.count.toLocaleString()}</span>
          <span>{itemNoun(pin.count, pin.facets.types)}</span>
          {range && <span className="pin-widget__range">{range}</span>}
        </div>
      );
    case 'spark_card':
      return <Spark pin={pin} range={range} />;
    case 'cover_card':
      return (
        <div className="pin-widget pin-widget--cover">
          {assets[0] ? <Thumbnail assetId={assets[0].asset_id} size="medium" alt="" className="pin-widget__cover" fallback={<span className="pin-widget__blank" />} /> : <span className="pin-widget__blank" />}
          <span className="pin-widget__overlay">{photoCount(pin.count, pin.facets.types)}</span>
        </div>
      );
    case 'mosaic_card':
      return (
        <div className="pin-widget pin-widget--mosaic">
          {assets.slice(0, MOSAIC).map((a) => (
            <Thumbnail key={a.asset_id} assetId={a.asset_id} size="small" alt="" className="pin-widget__tile" fallback={<span className="pin-widget__blank" />} />
          ))}
        </div>
      );
  }
}

function Spark({ pin, range }: { pin: Pin; range: string | null }) {
  const bars = pin.facets.histogram;
  const top = Math.max(1, ...bars.map((b) => b.count));
  const per = { day: 'day', month: 'month', year: 'year' }[pin.facets.histogram_granularity];
  return (
    <figure className="pin-widget pin-widget--spark">
      <svg viewBox={`0 0 ${Math.max(1, bars.length) * 10} 40`} preserveAspectRatio="none" role="img" aria-label={`${photoCount(pin.count, pin.facets.types)} by ${per}${range ? `, ${range}` : ''}`}>
        {bars.map((b, i) => {
          const h = Math.max(2, (b.count / top) * 40);
          return (
            <rect key={b.bucket} x={i * 10 + 1} y={40 - h} width={8} height={h} rx={1}>
              <title>{`${b.bucket}: ${photoCount(b.count)}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption>
        {photoCount(pin.count, pin.facets.types)}
        {range && ` · ${range}`}
      </figcaption>
    </figure>
  );
}
