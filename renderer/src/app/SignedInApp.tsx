/** Everything behind sign-in: the frame with navigation, and the pages in it. */
import { useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { session } from '../api/session';
import { useMe } from '../api/use-me';
import { AppLayout } from '../components/Layout/AppLayout';
import { AccountPage } from '../features/account/AccountPage';
import { AdminPage } from '../features/admin/AdminPage';
import { JobsPage } from '../features/admin/JobsPage';
import { RepositoriesPage } from '../features/admin/RepositoriesPage';
import { LibrarySectionPage } from '../features/library/LibrarySectionPage';
import { PhotosPage } from '../features/library/PhotosPage';
import { FavouritesPage } from '../features/library/FavouritesPage';
import { TrashPage } from '../features/library/TrashPage';
import { AlbumsPage } from '../features/albums/AlbumsPage';
import { AlbumPage } from '../features/albums/AlbumPage';
import { MapPage } from '../features/map/MapPage';
import { FoldersPage } from '../features/folders/FoldersPage';
import { LIBRARY_SECTIONS } from '../features/library/sections';
import { UploadPage } from '../features/upload/UploadPage';
import { PHOTO_ROUTE } from '../features/library/viewer-route';
import { ADMIN_JOBS_PATH, ADMIN_PATH, ADMIN_REPOSITORIES_PATH, navigationFor } from './navigation';
import { NotFoundPage } from './NotFoundPage';
import { PHONE_TABS, TabBar } from './TabBar';

/**
 * Pages that list photos: each opens the viewer at its own path plus `photos/<id>` (a child route
 * with no element of its own, so the page stays mounted under the viewer; see viewer-route.ts).
 */
const LISTS_PHOTOS = new Set(['/', '/favourites', '/trash', '/folders', '/map']);

/** Library sections that have their real page; the others still show their empty state. */
const SECTION_PAGES: Record<string, () => React.ReactElement> = {
  '/': PhotosPage,
  '/albums': AlbumsPage,
  '/folders': FoldersPage,
  '/map': MapPage,
  '/favourites': FavouritesPage,
  '/trash': TrashPage,
  '/upload': UploadPage,
};

/** The pages of the signed-out flow; reaching one while signed in means "continue where you were going". */
const SIGNED_OUT_PATHS = ['/sign-in', '/create-account', '/choose-password', '/welcome'];

function ContinueAfterSignIn() {
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return <Navigate to={from && !SIGNED_OUT_PATHS.includes(from) ? from : '/'} replace />;
}

export function SignedInApp() {
  const me = useMe();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  if (!me) return null;
  const isAdmin = me.role === 'admin';

  const signOut = async () => {
    setSigningOut(true);
    await session.signOut();
    // Land on the sign-in page plainly: after choosing to sign out, signing in again starts afresh
    // rather than returning to the page left behind.
    void navigate('/sign-in', { replace: true });
  };

  return (
    <AppLayout groups={navigationFor(isAdmin)} user={me} onSignOut={signOut} signingOut={signingOut} tabBar={<TabBar tabs={PHONE_TABS} />}>
      <Routes>
        {LIBRARY_SECTIONS.map((section) => {
          const Page = SECTION_PAGES[section.path];
          return (
            <Route
              key={section.path}
              path={section.path}
              element={Page ? <Page key={section.path} /> : <LibrarySectionPage key={section.path} section={section} />}
            >
              {LISTS_PHOTOS.has(section.path) && <Route path={PHOTO_ROUTE} element={null} />}
            </Route>
          );
        })}
        <Route path="/albums/:albumId" element={<AlbumPage />}>
          <Route path={PHOTO_ROUTE} element={null} />
        </Route>
        <Route path="/account" element={<AccountPage />} />
        <Route path={ADMIN_PATH} element={isAdmin ? <AdminPage /> : <NotFoundPage />} />
        <Route path={ADMIN_REPOSITORIES_PATH} element={isAdmin ? <RepositoriesPage /> : <NotFoundPage />} />
        <Route path={ADMIN_JOBS_PATH} element={isAdmin ? <JobsPage /> : <NotFoundPage />} />
        {SIGNED_OUT_PATHS.map((path) => (
          <Route key={path} path={path} element={<ContinueAfterSignIn />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </AppLayout>
  );
}
