/**
 * Google Takeout on the Import page: an export from takeout.google.com comes in parts (takeout-…-001.zip, -002…).
 *
 *   add parts (drop or choose) ──upload, part by part──▶ parts in the repository ──Preview──▶ counts, albums, dates
 *     ──Import──▶ the run (RunView)
 *
 * The member's unfinished uploads into the repository are listed (TakeoutUnfinished): adding the same file again goes
 * on from what the server has. Parts already in the repository (uploaded before, or copied there by hand) are listed
 * to choose from. When the parts added here are all uploaded, the preview of the chosen parts opens by itself: adding
 * them said what to look at.
 * Uploads go to the chosen repository (the primary unless the member picks another that can be reached) and land in
 * its `Takeout/` folder, where they stay after the import (the member removes them when happy with it).
 */
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { LoadError } from '../../components/LoadError';
import { RepositorySelect } from './RepositorySelect';
import { useImportRepositories, type ImportRun } from './import-api';
import { importProblemWords } from './problem-words';
import { takeoutKeys, useTakeoutPreview, useUnfinishedTakeoutUploads, type UnfinishedUpload } from './takeout-api';
import { TakeoutQueue } from './takeout-queue';
import { TakeoutDropZone } from './TakeoutDropZone';
import { TakeoutParts } from './TakeoutParts';
import { TakeoutPreviewPanel } from './TakeoutPreviewPanel';
import { TakeoutUnfinished } from './TakeoutUnfinished';
import { TakeoutUploads } from './TakeoutUploads';

export function TakeoutCard({ onStarted }: { onStarted: (run: ImportRun) => void }) {
  const repositories = useImportRepositories();
  const queryClient = useQueryClient();
  const queue = useMemo(() => new TakeoutQueue(), []);
  const items = useSyncExternalStore(queue.subscribe, queue.snapshot);
  const preview = useTakeoutPreview();
  const [chosenRepository, setChosenRepository] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const headingId = useId();

  const list = repositories.data ?? [];
  const repository = list.find((r) => r.id === chosenRepository) ?? list.find((r) => r.is_primary) ?? list[0];
  const uploading = items.some((i) => i.state === 'waiting' || i.state === 'uploading');
  const allDone = items.length > 0 && items.every((i) => i.state === 'done');
  const parts = [...chosen].sort();
  const unfinished = useUnfinishedTakeoutUploads(repository?.id);
  // A listed upload this page is sending (or sent) is shown as that part's row, not twice.
  const live = (u: UnfinishedUpload) => items.some((i) => i.uploadId === u.upload_id || (i.repositoryId === u.repository_id && i.file.name === u.filename && i.file.size === u.size));

  // A part that finished or failed changed what the server has unfinished: read the list again.
  const settled = items.filter((i) => i.state === 'done' || i.state === 'failed').map((i) => i.key).join();
  useEffect(() => {
    if (settled) void queryClient.invalidateQueries({ queryKey: takeoutKeys.allUnfinished });
  }, [settled, queryClient]);

  // Leaving the page stops sending; the server keeps the unfinished parts for when they are added again.
  useEffect(() => () => void queue.stop(false), [queue]);

  // Every part added here is in the repository: tick them, list them, and show what they hold.
  const previewed = useRef('');
  useEffect(() => {
    if (!allDone || !repository) return;
    const paths = items.map((i) => i.partPath).filter((p): p is string => !!p);
    const key = paths.join('\n');
    if (previewed.current === key) return;
    previewed.current = key;
    const next = new Set([...chosen, ...paths]);
    setChosen(next);
    void queryClient.invalidateQueries({ queryKey: takeoutKeys.archives(repository.id) });
    preview.mutate({ repositoryId: repository.id, parts: [...next].sort() });
    // Only the uploads finishing starts this (`previewed` keeps it to once per set of parts); the chosen parts and
    // the repository are read as they are then.
  }, [allDone, items]);

  const toggle = (path: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(path);
    else next.delete(path);
    setChosen(next);
    preview.reset();
  };

  const body = () => {
    if (repositories.isError) return <LoadError error={repositories.error} onRetry={() => void repositories.refetch()} />;
    if (!repositories.data) return <p aria-busy="true">Loading…</p>;
    if (!repository) {
      return (
        <p className="notice notice--error" role="alert">
          No repository can be reached right now, so there is nowhere to put the export. Ask your administrator to check the storage.
        </p>
      );
    }
    return (
      <>
        {list.length > 1 && (
          <RepositorySelect list={list} value={repository.id} disabled={uploading} onChange={setChosenRepository} />
        )}
        <TakeoutDropZone onFiles={(files) => queue.add(files, repository.id, unfinished.data)} />
        {items.length > 0 && (
          <TakeoutUploads
            items={items}
            onRetry={(key) => queue.retry(key)}
            onStop={() => void queue.stop(true).then(() => queryClient.invalidateQueries({ queryKey: takeoutKeys.unfinished(repository.id) }))}
          />
        )}
        {unfinished.isError && <LoadError error={unfinished.error} onRetry={() => void unfinished.refetch()} />}
        {unfinished.data && <TakeoutUnfinished uploads={unfinished.data} live={live} />}
        <TakeoutParts repositoryId={repository.id} chosen={chosen} onToggle={toggle} />
        {!preview.data && (
          <div className="form__actions">
            <Button
              variant="secondary"
              busy={preview.isPending}
              busyLabel="Reading the parts…"
              disabled={parts.length === 0 || uploading}
              onClick={() => preview.mutate({ repositoryId: repository.id, parts })}
            >
              Preview {parts.length > 1 ? `these ${parts.length} parts` : 'this export'}
            </Button>
          </div>
        )}
        <FormError message={preview.error ? importProblemWords(preview.error) : null} />
        {preview.data && (
          <TakeoutPreviewPanel
            preview={preview.data}
            repositoryId={repository.id}
            parts={preview.variables?.parts ?? parts}
            onStarted={(run) => {
              preview.reset();
              queue.clear();
              onStarted(run);
            }}
          />
        )}
      </>
    );
  };

  return (
    <section className="card takeout" aria-labelledby={headingId}>
      <h2 className="card__title" id={headingId}>
        Google Takeout
      </h2>
      <p>
        Export your Google Photos at takeout.google.com, then add the parts it gives you here. Hearth reads them together, shows what they hold, and imports the photos and videos with their dates, places and albums.
      </p>
      {body()}
    </section>
  );
}
