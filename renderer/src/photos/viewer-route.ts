/**
 * The viewer has an address: `<the list's path>/photos/<asset id>`, with the list's own query string
 * kept (its filters). So the Photos timeline opens `/photos/<id>`, Favourites `/favourites/photos/<id>`,
 * an album `/albums/<album>/photos/<id>`, a folder `/folders/photos/<id>?repo=…&path=…`, the map
 * `/map/photos/<id>`. The page under it stays the list it was opened from, so next and previous walk
 * that list, and the page does not lose its scroll position or loaded pages.
 *
 * Why a path segment under the list rather than a bare `/photos/<id>` for every list: a link or a
 * reload then shows the same photo among the same neighbours it was shared from, and the list's
 * filters survive. A bare `/photos/<id>` is still the address of a photo in the whole timeline.
 *
 * History: opening pushes an entry (so the browser's Back closes the viewer and stays in the app);
 * next and previous replace it (Back still closes, rather than walking back through every photo
 * seen). Close goes back when the viewer was opened here; opened from a link or a reload there is no
 * entry of ours to go back to, so it replaces the address with the list's.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

/** The route segment the pages add under their own path (see app/SignedInApp.tsx). */
export const PHOTO_ROUTE = 'photos/:photoId';

const PHOTO_SUFFIX = /\/photos\/[^/]+\/?$/;

/** The list's path for a location that may have a photo open. */
export function listPathOf(pathname: string): string {
  return pathname.replace(PHOTO_SUFFIX, '') || '/';
}

/** The viewer's address for a photo of the list at `listPath`. */
export function photoPath(listPath: string, assetId: string): string {
  return `${listPath === '/' ? '' : listPath.replace(/\/$/, '')}/photos/${encodeURIComponent(assetId)}`;
}

interface ViewerHistoryState {
  /** Set on the entry pushed when the viewer opened from the list: Back closes it. */
  hearthViewer?: true;
}

export function useViewerRoute() {
  const { photoId } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const listPath = listPathOf(location.pathname);
  const openedHere = (location.state as ViewerHistoryState | null)?.hearthViewer === true;
  // A close can be asked twice for one photo (the Close button, then the dialog's own close event as
  // it goes): going back twice would leave the app. Reset once the photo changes.
  const closing = useRef(false);
  useEffect(() => {
    closing.current = false;
  }, [photoId]);

  const open = useCallback(
    (assetId: string) => void navigate({ pathname: photoPath(listPath, assetId), search: location.search }, { state: { hearthViewer: true } satisfies ViewerHistoryState }),
    [navigate, listPath, location.search],
  );
  const step = useCallback(
    (assetId: string) => void navigate({ pathname: photoPath(listPath, assetId), search: location.search }, { replace: true, state: location.state as unknown }),
    [navigate, listPath, location.search, location.state],
  );
  const close = useCallback(() => {
    if (!photoId || closing.current) return;
    closing.current = true;
    if (openedHere) void navigate(-1);
    else void navigate({ pathname: listPath, search: location.search }, { replace: true });
  }, [photoId, openedHere, navigate, listPath, location.search]);

  return { photoId, listPath, open, step, close };
}
