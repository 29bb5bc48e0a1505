/**
 * The people in a photo, for the viewer's details panel: each person found in it once, with their face
 * and a link to their page; faces not (yet) given to anyone are counted. Nothing while the face task has
 * not read the photo (or faces are off): the panel does not promise what it does not know.
 */
import { Link } from 'react-router';
import { useAssetFaces } from './people-api';
import { peopleIn } from './people-facts';
import { personPath } from './people-path';
import { PersonCover } from './PersonCover';
import './people.css';

export function ViewerPeople({ assetId }: { assetId: string }) {
  const faces = useAssetFaces(assetId).data?.faces;
  if (!faces || faces.length === 0) return null;
  const people = peopleIn(faces);
  const unknown = faces.filter((f) => f.person_id === null).length;
  return (
    <section aria-label="People in this photo">
      <h3>People</h3>
      {people.length > 0 && (
        <ul className="info__people">
          {people.map((p) => (
            <li key={p.person_id}>
              <Link className="info__person" to={personPath(p.person_id)}>
                {/* The cover's address changes with the person; here the face is the same for the panel's life. */}
                <PersonCover person={{ person_id: p.person_id, name: p.name, updated_at: '', cover_face_image_path: `/api/v1/people/${p.person_id}/cover` }} size="small" />
                {p.name ?? 'Unnamed person'}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {unknown > 0 && <p>{unknown === 1 ? '1 face not recognised.' : `${unknown} faces not recognised.`}</p>}
    </section>
  );
}

