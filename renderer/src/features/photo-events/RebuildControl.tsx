/**
 * Where the grouping of photos into events stands, and the person's say over it: events are rebuilt
 * by themselves a minute after photos change; "Pause" stops that (a person tidying events by hand may
 * want the list to hold still), "Resume" lets it go on, and "Rebuild now" runs one at once.
 */
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { rebuildBusy, useChangeRebuildState, useRebuildState } from './events-api';
import { LoadError } from '../../components/LoadError';

export function RebuildControl() {
  const state = useRebuildState();
  const change = useChangeRebuildState();
  const s = state.data;

  if (state.isError) {
    return (
      <LoadError error={state.error} onRetry={() => void state.refetch()} as="p" small />
    );
  }
  if (!s) return null;
  const running = Boolean(s.running_run_id);
  const words = running
    ? 'Grouping photos into events…'
    : s.paused
      ? s.pending
        ? 'Paused: new photos wait to be grouped into events.'
        : 'Paused: new photos will wait to be grouped.'
      : rebuildBusy(s)
        ? 'New photos will be grouped into events shortly.'
        : s.last_error_code
          ? 'The last grouping failed; Hearth will try again.'
          : 'Events are up to date.';

  return (
    <div className="events-rebuild" aria-label="Event grouping">
      <p className="events-rebuild__state" role="status">
        {words}
      </p>
      <Button
        variant="secondary"
        className="button--small"
        busy={change.isPending && change.variables?.paused !== undefined}
        busyLabel={s.paused ? 'Resuming…' : 'Pausing…'}
        onClick={() => change.mutate({ paused: !s.paused })}
      >
        {s.paused ? 'Resume' : 'Pause'}
      </Button>
      <Button
        variant="quiet"
        className="button--small"
        disabled={running || Boolean(s.queued_run_id)}
        busy={change.isPending && change.variables?.rebuild === true}
        busyLabel="Starting…"
        onClick={() => change.mutate({ rebuild: true })}
      >
        Rebuild now
      </Button>
      {change.isError && (
        <p className="field__error" role="alert">
          {messageOf(change.error)}
        </p>
      )}
    </div>
  );
}
