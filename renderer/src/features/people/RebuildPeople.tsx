/**
 * "Rebuild people": the caller's faces grouped again from scratch, keeping every correction (names,
 * merges, faces moved or rejected, hidden people, chosen covers). It runs as a job; the page follows it
 * (getPeopleRebuild) and reads the people again when it ends. A rebuild already queued or running (409
 * `people_rebuild_running`, perhaps from another tab) is news, not a failure: the people update when it
 * is done. One running when the page opens is said too.
 */
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { peopleKeys, REBUILD_RUNNING, useRebuildPeople, useRebuildState } from './people-api';

export function RebuildPeople() {
  const rebuild = useRebuildPeople();
  const state = useRebuildState();
  const running = state.data?.running ?? false;
  const alreadyRunning = rebuild.error instanceof ApiError && rebuild.error.code === REBUILD_RUNNING;
  // "Done" once a rebuild asked for here (or found under way) is seen to have ended; then the people are
  // read again. Judged only once the request has its answer: a refused request (other than "already
  // running") started nothing.
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const following = useRef(false);
  const settled = !rebuild.isPending;
  const refused = rebuild.isError && !alreadyRunning;
  useEffect(() => {
    if (!settled) return;
    if (running) {
      following.current = true;
      setDone(false);
    } else if (following.current) {
      following.current = false;
      if (!refused) {
        setDone(true);
        void queryClient.invalidateQueries({ queryKey: peopleKeys.lists });
      }
    }
  }, [running, state.dataUpdatedAt, settled, refused, queryClient]);
  const working = rebuild.isPending || running;

  let status: React.ReactNode = null;
  if (working) status = <p>{alreadyRunning ? 'A rebuild of your people is already running; they will update when it is done.' : 'Grouping your faces into people again…'}</p>;
  else if (done) status = <p className="notice notice--success">People rebuilt. Your names and corrections were kept.</p>;
  else if (rebuild.isError && !alreadyRunning) status = <p className="notice notice--error">{messageOf(rebuild.error)}</p>;

  return (
    <div className="people-rebuild">
      <Button
        variant="secondary"
        busy={working}
        busyLabel="Rebuilding…"
        onClick={() => {
          setDone(false);
          following.current = true;
          rebuild.mutate();
        }}
      >
        Rebuild people
      </Button>
      {/* Always in the page, so what appears in it is read out. */}
      <div role="status" className="people-rebuild__status">
        {status}
      </div>
    </div>
  );
}
