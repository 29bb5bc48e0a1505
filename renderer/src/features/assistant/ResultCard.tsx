/**
 * A result card (a `widget_show` of the answer): cover_card (the first photo large), number_card (the count),
 * mosaic_card (the first four), spark_card (the count with its photos over time, from getAgentRef's histogram).
 * Each opens its photos (RefPhotosDialog) and can be pinned to the Board (pinAgentRef); one pinned already says
 * Pinned, also in a reopened conversation. A card of a reopened conversation is a card again only while its ref lives.
 */
import { useState } from 'react';
import { messageOf } from '../../api/problem';
import { Icon } from '../../components/Icon';
import { Thumbnail } from '../../photos/Thumbnail';
import { useAgentRef, useIsPinned, usePinRef, useRefAssets } from './agent-api';
import { RefPhotosDialog } from './RefPhotosDialog';
import type { Card } from './transcript';

export function ResultCard({ card }: { card: Card }) {
  return card.restored ? <RestoredCard card={card} /> : <LiveCard card={card} />;
}

/**
 * A card of a reopened conversation (history.ts): a card again while its ref still answers getAgentRef,
 * otherwise the receipt in words (refs expire two hours after their last use; the server keeps no photos).
 */
function RestoredCard({ card }: { card: Card }) {
  const ref = useAgentRef(card.threadId, card.refId);
  if (ref.isSuccess) return <LiveCard card={card} />;
  const items = `${card.count} ${card.count === 1 ? 'item' : 'items'}`;
  return (
    <p className="assistant-card__receipt">
      {card.title}: {items}
      {ref.isError ? '. These results have expired.' : ''}
    </p>
  );
}

function LiveCard({ card }: { card: Card }) {
  const [open, setOpen] = useState(false);
  const pin = usePinRef();
  const pinned = useIsPinned(card.threadId, card.refId) || pin.isSuccess;
  const items = `${card.count} ${card.count === 1 ? 'item' : 'items'}`;
  return (
    <article className={`assistant-card assistant-card--${card.widget}`} aria-label={`${card.title}: ${items}`}>
      <button type="button" className="assistant-card__open" onClick={() => setOpen(true)} aria-label={`Open ${card.title} (${items})`}>
        <CardFace card={card} />
        <span className="assistant-card__title">{card.title}</span>
        {/* A number card's face is its count already. */}
        {card.widget !== 'number_card' && <span className="assistant-card__count">{items}</span>}
      </button>
      <div className="assistant-card__actions">
        <button
          type="button"
          className="button button--quiet"
          aria-label={pinned ? `Pinned ${card.title}` : `Pin ${card.title}`}
          disabled={pin.isPending || pinned}
          onClick={() => pin.mutate({ thread_id: card.threadId, ref_id: card.refId, title: card.title, widget: card.widget })}
        >
          <Icon name="pin" size={18} />
          <span>{pinned ? 'Pinned' : pin.isPending ? 'Pinning…' : 'Pin'}</span>
        </button>
      </div>
      {pin.isError && (
        <p role="alert" className="assistant-card__error">
          {messageOf(pin.error)}
        </p>
      )}
      {open && <RefPhotosDialog card={card} onClose={() => setOpen(false)} />}
    </article>
  );
}

function CardFace({ card }: { card: Card }) {
  if (card.widget === 'number_card') return <span className="assistant-card__number">{card.count}</span>;
  if (card.widget === 'spark_card') return <Spark card={card} />;
  return <Covers card={card} many={card.widget === 'mosaic_card'} />;
}

function Covers({ card, many }: { card: Card; many: boolean }) {
  const assets = useRefAssets(card.threadId, card.refId);
  const shown = (assets.data?.assets ?? []).slice(0, many ? 4 : 1);
  if (assets.isError) return <span className="assistant-card__expired">These results have expired.</span>;
  return (
    <span className={many ? 'assistant-card__mosaic' : 'assistant-card__cover'}>
      {shown.map((a) => (
        <Thumbnail key={a.asset_id} assetId={a.asset_id} size="small" alt="" fallback={<Icon name="image" />} />
      ))}
    </span>
  );
}

/** The card's photos by day, month or year, as bars (getAgentRef's facets). */
function Spark({ card }: { card: Card }) {
  const ref = useAgentRef(card.threadId, card.refId);
  const bars = ref.data?.facets.histogram ?? [];
  const max = Math.max(1, ...bars.map((b) => b.count));
  return (
    <span className="assistant-card__spark" aria-hidden="true">
      {bars.slice(-24).map((b) => (
        <span key={b.bucket} className="assistant-card__bar" style={{ height: `${Math.max(8, (b.count / max) * 100)}%` }} title={`${b.bucket}: ${b.count}`} />
      ))}
    </span>
  );
}
