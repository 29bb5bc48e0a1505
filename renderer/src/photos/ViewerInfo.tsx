/**
 * The viewer's details panel: when, where, which camera, albums, tags, description and rating, and
 * the text read in a photo (search/OcrText.tsx, through viewer-slots.tsx; a line's box is drawn over the photo by the viewer).
 */
import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api/client';
import { messageOf, request } from '../api/problem';
import { Button } from '../components/Button';
import { formatBytes, formatDateTime, placeLine } from '../lib/format';
import { formatCaptureTime } from '../lib/capture-time';
import { assetKeys } from './asset-actions-api';
import { useAssetDetail } from './asset-detail';
import { RatingStars } from './RatingStars';
import type { Quad } from './picture-geometry';
import { viewerSlots } from './viewer-slots';
import { CaptureEdits } from './CaptureEdits';

type Meta = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : '');

function exposureLine(m: Meta): string {
  const parts = [
    m.f_number ? `ƒ/${m.f_number}` : '',
    str(m.exposure_time) ? `${str(m.exposure_time)} s` : '',
    m.iso_speed ? `ISO ${m.iso_speed}` : '',
    m.focal_length ? `${m.focal_length} mm` : '',
  ];
  return parts.filter(Boolean).join(' · ');
}

interface ViewerInfoProps {
  assetId: string;
  rating: number;
  onRate?: ((n: number) => void) | undefined;
  /** A line of the photo's text is hovered or tapped: its box, or null. */
  onOcrLine?: ((quad: Quad | null) => void) | undefined;
}

export function ViewerInfo({ assetId, rating, onRate, onOcrLine }: ViewerInfoProps) {
  const { People, Text } = viewerSlots().infoSections;
  const queryClient = useQueryClient();
  const detail = useAssetDetail(assetId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: assetKeys.detail(assetId) });
  const [description, setDescription] = useState('');
  const [tag, setTag] = useState('');
  useEffect(() => setDescription(detail.data?.description ?? ''), [detail.data?.description]);

  const saveDescription = useMutation({
    mutationFn: () => request(api.PUT('/api/v1/assets/{id}/description', { params: { path: { id: assetId } }, body: { description } })),
    onSuccess: refresh,
  });
  const addTag = useMutation({
    mutationFn: (name: string) => request(api.POST('/api/v1/assets/{id}/tags', { params: { path: { id: assetId } }, body: { tag_name: name } })),
    onSuccess: () => {
      setTag('');
      return refresh();
    },
  });
  const removeTag = useMutation({
    mutationFn: (tagId: number) => request(api.DELETE('/api/v1/assets/{id}/tags/{tagId}', { params: { path: { id: assetId, tagId } } })),
    onSuccess: refresh,
  });

  if (detail.isPending) return <aside className="info" aria-label="Details"><p role="status">Loading details…</p></aside>;
  if (detail.isError) return <aside className="info" aria-label="Details"><p className="field__error">{messageOf(detail.error)}</p></aside>;
  const a = detail.data;
  const m = (a.specific_metadata ?? {}) as Meta;
  const camera = [str(m.camera_make), str(m.camera_model)].filter(Boolean).join(' ');
  const hasGps = typeof a.gps_latitude === 'number' && typeof a.gps_longitude === 'number';
  const placeName = placeLine(a.place);

  return (
    <aside className="info" aria-label="Details">
      <dl className="info__list">
        <dt>Taken</dt>
        <dd>{formatCaptureTime(a) || 'Unknown'}</dd>
        <dt>Added</dt>
        <dd>{formatDateTime(a.upload_time)}</dd>
        {camera && (
          <>
            <dt>Camera</dt>
            <dd>{camera}</dd>
          </>
        )}
        {str(m.lens_model) && (
          <>
            <dt>Lens</dt>
            <dd>{str(m.lens_model)}</dd>
          </>
        )}
        {exposureLine(m) && (
          <>
            <dt>Exposure</dt>
            <dd>{exposureLine(m)}</dd>
          </>
        )}
        <dt>File</dt>
        <dd>
          {a.original_filename}
          <br />
          {[a.width && a.height ? `${a.width} × ${a.height}` : '', formatBytes(a.file_size)].filter(Boolean).join(' · ')}
        </dd>
        {hasGps && (
          <>
            <dt>Place</dt>
            <dd>
              {placeName && (
                <>
                  {placeName}
                  <br />
                </>
              )}
              <Link to={`/map?lat=${a.gps_latitude}&lon=${a.gps_longitude}`}>
                {a.gps_latitude!.toFixed(5)}, {a.gps_longitude!.toFixed(5)}
              </Link>
            </dd>
          </>
        )}
      </dl>

      <CaptureEdits asset={a} />

      {People && <People assetId={assetId} />}

      {onRate && (
        <section>
          <h3>Rating</h3>
          <RatingStars value={rating} onChange={onRate} />
        </section>
      )}

      <section>
        <h3>Description</h3>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            saveDescription.mutate();
          }}
        >
          <textarea className="info__description" aria-label="Description" value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} rows={3} />
          {description !== (a.description ?? '') && (
            <Button type="submit" variant="secondary" busy={saveDescription.isPending} busyLabel="Saving…">
              Save description
            </Button>
          )}
          {saveDescription.isError && <p className="field__error">{messageOf(saveDescription.error)}</p>}
        </form>
      </section>

      <section>
        <h3>Tags</h3>
        <ul className="chips">
          {(a.tags ?? []).map((t) => (
            <li key={t.tag_id} className="chip">
              {t.tag_name}
              {t.source === 'manual' && (
                <button type="button" aria-label={`Remove tag ${t.tag_name}`} onClick={() => removeTag.mutate(t.tag_id)}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
        <form
          className="info__add-tag"
          onSubmit={(e) => {
            e.preventDefault();
            if (tag.trim()) addTag.mutate(tag.trim());
          }}
        >
          <input aria-label="New tag" placeholder="Add a tag" value={tag} maxLength={100} onChange={(e) => setTag(e.target.value)} />
          <Button type="submit" variant="secondary" busy={addTag.isPending} busyLabel="Adding…">
            Add
          </Button>
        </form>
        {(addTag.isError || removeTag.isError) && <p className="field__error">{messageOf(addTag.error ?? removeTag.error)}</p>}
      </section>

      {a.type === 'PHOTO' && onOcrLine && Text && <Text assetId={assetId} onHighlight={onOcrLine} />}

      {(a.albums ?? []).length > 0 && (
        <section>
          <h3>Albums</h3>
          <ul className="info__albums">
            {(a.albums ?? []).map((al) => (
              <li key={al.album_id}>
                <Link to={`/albums/${al.album_id}`}>{al.album_name}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </aside>
  );
}
