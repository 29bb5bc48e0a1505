/**
 * One turn of the conversation: the member's words, then the answer as it streams: the mentions the server
 * dropped, the tool steps (collapsed; the running one named in the summary), the text, the cards, the
 * confirmations, and a failure in words with Retry.
 */
import { Button } from '../../components/Button';
import { ConfirmationCard } from './ConfirmationCard';
import { ResultCard } from './ResultCard';
import { formatDuration, stepLabel, type Confirmation, type Step, type Turn } from './transcript';

interface TurnViewProps {
  turn: Turn;
  busy: boolean;
  onAnswer: (c: Confirmation, approved: boolean) => void;
  onRetry: () => void;
}

export function TurnView({ turn, busy, onAnswer, onRetry }: TurnViewProps) {
  return (
    <li className="assistant-turn">
      {turn.asked !== undefined && (
        <div className="assistant-turn__asked">
          <p className="assistant-bubble assistant-bubble--mine">{turn.asked}</p>
          {turn.about && <p className="assistant-turn__about">About {turn.about.join(', ')}</p>}
        </div>
      )}
      <div className="assistant-turn__answer" aria-busy={turn.status === 'streaming'}>
        {turn.dropped.length > 0 && (
          <p className="assistant-turn__dropped" role="note">
            Not understood: {turn.dropped.map((d) => `${d.type === 'album' ? '#' : d.type === 'person' ? '@' : ''}${d.label ?? d.type} (${d.reason.replace(/_/g, ' ')})`).join(', ')}
          </p>
        )}
        {turn.steps.length > 0 && <Steps steps={turn.steps} />}
        {turn.text && <p className="assistant-bubble">{turn.text}</p>}
        {turn.status === 'streaming' && !turn.text && turn.steps.length === 0 && <p className="assistant-turn__thinking">Thinking…</p>}
        {turn.cards.map((c) => (
          <ResultCard key={`${c.refId}-${c.title}`} card={c} />
        ))}
        {turn.confirmations.map((c) => (
          <ConfirmationCard key={c.effectId} confirmation={c} disabled={busy} onAnswer={(approved) => onAnswer(c, approved)} />
        ))}
        {turn.status === 'cancelled' && <p className="assistant-turn__note">Stopped.</p>}
        {turn.status === 'failed' && (
          <div className="assistant-turn__failed" role="alert">
            <p>{turn.error ?? 'The assistant failed on this request.'}</p>
            {turn.question && (
              <Button variant="secondary" disabled={busy} onClick={onRetry}>
                Retry
              </Button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}

function Steps({ steps }: { steps: Step[] }) {
  const running = steps.findLast((s) => s.status === 'running');
  const failed = steps.filter((s) => s.status === 'error').length;
  const summary = running ? `Working: ${stepLabel(running.name)}…` : `${steps.length} ${steps.length === 1 ? 'step' : 'steps'}${failed ? `, ${failed} failed` : ''}`;
  return (
    <details className="assistant-steps">
      <summary>{summary}</summary>
      <ol className="assistant-steps__list">
        {steps.map((s) => (
          <li key={s.id} className="assistant-step" data-status={s.status}>
            <span className="assistant-step__name">{stepLabel(s.name)}</span>
            <span className="assistant-step__status">
              {s.status === 'running' ? 'running' : s.status === 'success' ? 'done' : 'failed'}
              {s.durationMs !== undefined ? ` in ${formatDuration(s.durationMs)}` : ''}
            </span>
            {s.status === 'error' && s.message && <span className="assistant-step__message">{s.message}</span>}
          </li>
        ))}
      </ol>
    </details>
  );
}
