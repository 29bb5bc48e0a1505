/**
 * People (issue 14 point 6): the faces Hearth found in the caller's photos, grouped into people.
 *
 * - A grid of round faces with names ("Add a name" for someone unnamed) and photo counts (PersonCard):
 *   the name is edited in place, a face opens the person's page.
 * - Merge: select people (their check; a long press on touch) and "Merge", or on a desktop drag one
 *   person onto another (use-person-drag.ts); either way the page asks which one stays
 *   (MergePeopleDialog).
 * - Hide: a person hidden leaves the grid (and the people suggested in search); "Show hidden people"
 *   lists them again, marked, with "Show" to bring them back.
 * - "Rebuild people" groups the faces again, keeping every correction (RebuildPeople).
 * - While photos are still being read for faces, the page says how far it has got and refreshes itself
 *   (use-face-progress.ts). With no people yet, it says when they come, and where faces are switched on.
 *
 * Decision: People sits in the Library group of the sidebar and in the phone's Menu, not as a tab: the
 * five tabs are the places a phone goes every day (Photos, Albums, Map, Upload, Account), and People is
 * reached from a photo's details too (a face's name links to the person).
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useMe } from '../../api/use-me';
import { ADMIN_MODELS_PATH } from '../admin';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { MergePeopleDialog } from './MergePeopleDialog';
import { usePeople } from './people-api';
import { flattenPeople, personLabel, type Person } from './people-facts';
import { PersonCard } from './PersonCard';
import { PersonCover } from './PersonCover';
import { RebuildPeople } from './RebuildPeople';
import { useFaceProgress } from './use-face-progress';
import { usePersonDrag } from './use-person-drag';
// The albums' styles (the in-place editor), which come with their public surface.
import '../albums';
import '../../photos/library.css';
import './people.css';
import { LoadError } from '../../components/LoadError';

export function PeoplePage() {
  const [showHidden, setShowHidden] = useState(false);
  const list = usePeople(showHidden);
  const people = useMemo(() => flattenPeople(list.data?.pages), [list.data?.pages]);
  const [selected, setSelected] = useState<readonly number[]>([]);
  // The people being merged, as they were when asked: the list is read again during the merge (the
  // others leave it), and the question must stay until the answer is in.
  const [merging, setMerging] = useState<{ people: readonly Person[]; preferred?: number } | null>(null);
  const [merged, setMerged] = useState<string | null>(null);
  const progress = useFaceProgress();
  const me = useMe();
  const { drag, handlersFor } = usePersonDrag((from, onto) => startMerge([from, onto], onto));

  const byId = useMemo(() => new Map(people.map((p) => [p.person_id, p])), [people]);
  // A person merged or hidden elsewhere leaves the selection with the list.
  const chosen = selected.filter((id) => byId.has(id));
  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const startMerge = (ids: readonly number[], preferred?: number) => setMerging({ people: ids.flatMap((id) => byId.get(id) ?? []), ...(preferred !== undefined ? { preferred } : {}) });
  const dragged = drag ? byId.get(drag.from) : undefined;

  return (
    <>
      <PageHeader title="People">
        <div className="people-header">
          <p>
            {list.isSuccess && people.length > 0 && `${people.length.toLocaleString()} ${people.length === 1 ? 'person' : 'people'}. `}
            {progress?.working && `Looking for faces: ${progress.done.toLocaleString()} of ${progress.total.toLocaleString()} photos read.`}
          </p>
          <div className="people-header__actions">
            <button type="button" className="button button--quiet" aria-pressed={showHidden} onClick={() => setShowHidden((v) => !v)}>
              {showHidden ? 'Hide hidden people' : 'Show hidden people'}
            </button>
            <RebuildPeople />
          </div>
        </div>
      </PageHeader>

      {chosen.length > 0 && (
        <div className="selection-bar selection-bar--wrap" role="toolbar" aria-label="Selection">
          <strong>{chosen.length === 1 ? '1 selected' : `${chosen.length} selected`}</strong>
          <Button disabled={chosen.length < 2} title={chosen.length < 2 ? 'Select at least two people' : undefined} onClick={() => startMerge(chosen)}>
            Merge
          </Button>
          <Button variant="quiet" onClick={() => setSelected([])}>
            Clear selection
          </Button>
        </div>
      )}

      <div role="status" className="people-result">
        {merged && (
          <p className="notice notice--success">
            {merged}{' '}
            <Button variant="quiet" className="button--small" onClick={() => setMerged(null)}>
              Dismiss
            </Button>
          </p>
        )}
      </div>

      {list.isPending && <p role="status">Loading…</p>}
      {list.isError && (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      )}
      {list.isSuccess && people.length === 0 && (
        <EmptyState icon="users" title={showHidden ? 'No people, hidden or not' : 'No people yet'}>
          <p>Hearth looks for faces in your photos after they are added and groups them into people; they appear here as it goes.</p>
          {!showHidden && <p>People you have hidden are listed with “Show hidden people”.</p>}
          {progress?.working ? (
            <p>It is reading your photos now.</p>
          ) : me?.role === 'admin' ? (
            <p>
              If nothing appears, check that face recognition is on in <Link to={ADMIN_MODELS_PATH}>Models</Link>.
            </p>
          ) : (
            <p>If nothing appears, face recognition may be switched off: an administrator turns it on in Models.</p>
          )}
        </EmptyState>
      )}

      {people.length > 0 && (
        <ul className="people-grid" aria-label="People">
          {people.map((p) => (
            <PersonCard
              key={p.person_id}
              person={p}
              selected={chosen.includes(p.person_id)}
              selecting={chosen.length > 0}
              onToggle={() => toggle(p.person_id)}
              dragState={drag?.from === p.person_id ? 'from' : drag?.over === p.person_id ? 'over' : undefined}
              dragHandlers={handlersFor(p.person_id)}
            />
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <div className="people-more">
          <Button variant="secondary" onClick={() => void list.fetchNextPage()} busy={list.isFetchingNextPage} busyLabel="Loading more…">
            Show more people
          </Button>
        </div>
      )}

      {drag && dragged && (
        <div className="people-drag" style={{ left: drag.x, top: drag.y }} aria-hidden="true">
          <PersonCover person={dragged} size="small" />
          <span>{drag.over !== null && byId.get(drag.over) ? `Merge into ${personLabel(byId.get(drag.over)!)}` : personLabel(dragged)}</span>
        </div>
      )}

      {merging && merging.people.length >= 2 && (
        <MergePeopleDialog
          people={merging.people}
          preferred={merging.preferred}
          onCancel={() => setMerging(null)}
          onDone={(survivor: Person) => {
            setMerging(null);
            setSelected([]);
            setMerged(`Merged ${merging.people.length} people into ${personLabel(survivor)}.`);
          }}
        />
      )}
    </>
  );
}
