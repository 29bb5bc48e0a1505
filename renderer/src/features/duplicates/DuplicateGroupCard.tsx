/**
 * One pending group: its photos side by side, the suggested keeper chosen until the person taps
 * another, then "Keep one" (merge: the others go to the Trash, their albums, tags, rating and
 * favourite given to the keeper) or "Not duplicates" (dismiss: nothing changes and the pair is not
 * proposed again). What happened is reported by the page (`onResolved`), since the card leaves the
 * list as soon as the server agrees.
 *
 * No confirmation dialog before "Keep one": nothing is deleted, the copies wait in the Trash where
 * they can be restored, and the sentence under the button says so before the tap.
 */
import { useId, useState } from 'react';
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { formatBytes } from '../../lib/format';
import { useDismissGroup, useMergeGroup } from './duplicates-api';
import { DuplicatePhoto } from './DuplicatePhoto';
import { groupTitle, keepOneExplanation, keeperOf, mergedSentence, othersOf, photoName, recoverableWith, type DuplicateGroup } from './group-facts';

interface DuplicateGroupCardProps {
  group: DuplicateGroup;
  onOpen: (assetId: string) => void;
  onResolved: (message: string) => void;
}

export function DuplicateGroupCard({ group, onOpen, onResolved }: DuplicateGroupCardProps) {
  const [chosen, setChosen] = useState<string>();
  const merge = useMergeGroup();
  const dismiss = useDismissGroup();
  const id = useId();
  const keeperId = keeperOf(group, chosen);
  const keeper = group.assets.find((m) => m.asset.asset_id === keeperId);
  const busy = merge.isPending || dismiss.isPending;
  const canMerge = keeper !== undefined && !keeper.asset.is_deleted && othersOf(group, keeperId).length > 0;
  const error = merge.error ?? dismiss.error;
  const headingId = `${id}-title`;
  const explainId = `${id}-explain`;

  // Through the promise, not mutate's own callbacks: the card unmounts as soon as its group leaves
  // the list, and React Query drops a call's callbacks once its component is gone. A failure is shown
  // from the mutation's state (below), hence the empty catch.
  const keepOne = () => {
    if (!keeper) return;
    dismiss.reset();
    merge
      .mutateAsync({ groupId: group.group_id, keeperId: keeper.asset.asset_id })
      .then((result) => onResolved(mergedSentence(result, keeper.asset.original_filename)))
      .catch(() => undefined);
  };
  const notDuplicates = () => {
    merge.reset();
    dismiss
      .mutateAsync({ groupId: group.group_id })
      .then(() => onResolved(`Kept all ${group.asset_count} photos; they will not be suggested as duplicates again.`))
      .catch(() => undefined);
  };

  return (
    <article className="dup-group card" aria-labelledby={headingId} aria-busy={busy || undefined}>
      <header className="dup-group__header">
        <h2 id={headingId} className="dup-group__title">
          {groupTitle(group)}
        </h2>
        <p className="dup-group__space">Keeping one frees {formatBytes(recoverableWith(group, keeperId))}</p>
      </header>

      <fieldset className="dup-group__choice">
        <legend className="visually-hidden">Photo to keep</legend>
        <ul className="dup-group__photos">
          {group.assets.map((m) => (
            <DuplicatePhoto
              key={m.asset.asset_id}
              member={m}
              name={photoName(group, m)}
              radioGroup={`${id}-keeper`}
              keeper={m.asset.asset_id === keeperId}
              recommended={m.asset.asset_id === group.recommended_keeper_asset_id}
              disabled={busy}
              onChoose={() => setChosen(m.asset.asset_id)}
              onOpen={() => onOpen(m.asset.asset_id)}
            />
          ))}
        </ul>
      </fieldset>

      <p id={explainId} className="dup-group__explain">
        {canMerge ? keepOneExplanation(group, keeperId) : 'Only one photo of this group is left outside the Trash.'}
      </p>
      {error && (
        <p className="notice notice--error" role="alert">
          {messageOf(error)}
        </p>
      )}
      <div className="button-row dup-group__actions">
        <Button onClick={keepOne} disabled={!canMerge || dismiss.isPending} busy={merge.isPending} busyLabel="Keeping one…" aria-describedby={explainId}>
          Keep one
        </Button>
        <Button variant="secondary" onClick={notDuplicates} disabled={merge.isPending} busy={dismiss.isPending} busyLabel="Keeping all…">
          Not duplicates
        </Button>
      </div>
    </article>
  );
}
