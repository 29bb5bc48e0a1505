/**
 * One host action of the member: its name, where it stands in words, the code to compare with the one the home
 * machine shows while it waits there, and what the member can do: cancel while it waits, try again when it failed,
 * expired or was cancelled, and, when the home machine found a conflict, each allowed choice with what it does.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { formatRelative } from '../../lib/format';
import { isCancellable, isRetryable, useCancelHostAction, useDecideHostAction, useRetryHostAction, type HostAction } from './host-actions-api';
import { answerWithin, RESOLUTION_WORDS, RISK_WORDS, STATUS_WORDS, statusSentence } from './host-action-words';

export function HostActionItem({ action: a, mine }: { action: HostAction; mine: boolean }) {
  const cancel = useCancelHostAction();
  const retry = useRetryHostAction();
  const decide = useDecideHostAction();
  const headingId = useId();
  const waitingAtHome = a.status === 'pending' || a.status === 'presented';
  const conflict = a.status === 'needs_decision' ? (a.result?.conflict ?? null) : null;
  const error = cancel.error ?? retry.error ?? decide.error;

  return (
    <li className={`host-action host-action--${a.status}`} aria-labelledby={headingId} data-testid="host-action">
      <div className="host-action__head">
        <h3 className="host-action__name" id={headingId}>
          {a.name}
        </h3>
        <span className={`status status--host-${a.status}`} data-testid="host-action-status">
          {STATUS_WORDS[a.status]}
        </span>
      </div>
      {!mine && <p className="host-action__who">Asked by {a.actor.username}</p>}
      <p className="host-action__sentence">{statusSentence(a)}</p>

      {waitingAtHome && (
        <p className="host-action__code">
          Code <strong aria-label={`Code ${a.code.split('').join(' ')}`}>{a.code}</strong>
          <span className="host-action__expires"> · {answerWithin(a.expires_at)}</span>
        </p>
      )}

      {conflict && (
        <div className="host-action__conflict" role="group" aria-label={`Choose what to do with ${a.name}`}>
          {conflict.risk_warnings.length > 0 && (
            <ul className="host-action__risks">
              {conflict.risk_warnings.map((w) => (
                <li key={w}>{RISK_WORDS[w]}</li>
              ))}
            </ul>
          )}
          {mine && (
            <ul className="host-action__choices">
              {conflict.allowed_resolutions.map((r) => (
                <li key={r}>
                  <Button
                    variant={r === 'cancel' ? 'secondary' : 'primary'}
                    busy={decide.isPending && decide.variables?.resolution === r}
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ action: a, resolution: r })}
                  >
                    {RESOLUTION_WORDS[r].label}
                  </Button>
                  <span className="host-action__explain">{RESOLUTION_WORDS[r].explain}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      {a.status === 'completed' && (
        <p>
          <Link to="/">See the photos</Link>
        </p>
      )}

      {mine && (isCancellable(a.status) || isRetryable(a.status)) && (
        <div className="host-action__actions">
          {isCancellable(a.status) && (
            <Button variant="secondary" busy={cancel.isPending} busyLabel="Cancelling…" onClick={() => cancel.mutate(a)} aria-label={`Cancel the request for ${a.name}`}>
              Cancel request
            </Button>
          )}
          {isRetryable(a.status) && (
            <Button variant="secondary" busy={retry.isPending} busyLabel="Asking…" onClick={() => retry.mutate(a)} aria-label={`Ask again for ${a.name}`}>
              Ask again
            </Button>
          )}
        </div>
      )}
      {error && (
        <p className="field__error" role="alert">
          {messageOf(error)}
        </p>
      )}
      <p className="host-action__when">Asked {formatRelative(a.created_at)}</p>
    </li>
  );
}
