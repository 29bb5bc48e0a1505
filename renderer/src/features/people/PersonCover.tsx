/**
 * A person's face, round (getPersonCover, through the media token like thumbnails). The address carries
 * the person's last change, so a new cover (a merge, a chosen face) is fetched rather than the one the
 * browser kept. A person with no face to show, or an image that does not load, shows their initial.
 */
import { useState } from 'react';
import { useMediaToken } from '../../photos/media-token';
import type { Person } from './people-api';

export function coverUrl(person: Pick<Person, 'person_id' | 'updated_at'>, token: string): string {
  return `/api/v1/people/${person.person_id}/cover?mt=${encodeURIComponent(token)}&v=${encodeURIComponent(person.updated_at)}`;
}

export function PersonCover({ person, size = 'large' }: { person: Pick<Person, 'person_id' | 'updated_at' | 'name' | 'cover_face_image_path'>; size?: 'large' | 'small' }) {
  const token = useMediaToken();
  const [failed, setFailed] = useState<string | null>(null);
  const url = token && person.cover_face_image_path ? coverUrl(person, token) : null;
  const className = `person-cover person-cover--${size}`;
  if (!url || failed === url) {
    return (
      <span className={`${className} person-cover--none`} aria-hidden="true">
        {(person.name ?? '?').slice(0, 1).toUpperCase()}
      </span>
    );
  }
  // The name is beside it: the face itself is decoration for a screen reader.
  return <img className={className} src={url} alt="" draggable={false} onError={() => setFailed(url)} />;
}
