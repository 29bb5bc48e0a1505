/** Everything behind sign-in: the frame with navigation, and the pages in it. */
import { Suspense, useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { session } from '../api/session';
import { useMe } from '../api/use-me';
import { AppLayout } from '../components/Layout/AppLayout';
import { ToastProvider } from '../components/Toast';
import { LibrarySectionPage } from '../features/library/LibrarySectionPage';
import { LIBRARY_SECTIONS } from '../features/library/sections';
import { PHOTO_ROUTE } from '../photos/viewer-route';
import { SearchField } from '../features/search/SearchField';
import { SEARCH_PAGE } from '../features/search/search-url';
import { DUPLICATES_PATH } from '../features/duplicates/duplicates-path';
import { PLACES_PATH } from '../features/places/places-path';
import { EVENTS_PATH } from '../features/photo-events/events-path';
import { PEOPLE_PATH } from '../features/people/people-path';
import { IMPORT_PATH } from '../features/import/import-path';
import { BOARD_PATH, useAssistantEnabled } from '../features/assistant-board';
import { ADMIN_ASSISTANT_PATH, ADMIN_JOBS_PATH, ADMIN_MODELS_PATH, ADMIN_PATH, ADMIN_REPOSITORIES_PATH, navigationFor } from './navigation';
import { lazyPage } from '../lib/lazy-page';
import { NotFoundPage } from '../components/NotFoundPage';
import { PHONE_TABS, TabBar } from './TabBar';
import { AssistantButton, AssistantPanel } from '../features/assistant';

// Every page is its own script, fetched when first shown (lazy-page.ts); the map, administration and
// upload pages carry the heavy parts (world outline, QR codes, the upload queue) with them.
const PhotosPage = lazyPage(() => import('../features/library/PhotosPage').then((m) => m.PhotosPage));
const FavouritesPage = lazyPage(() => import('../features/library/FavouritesPage').then((m) => m.FavouritesPage));
const TrashPage = lazyPage(() => import('../features/library/TrashPage').then((m) => m.TrashPage));
const AlbumsPage = lazyPage(() => import('../features/albums/AlbumsPage').then((m) => m.AlbumsPage));
const AlbumPage = lazyPage(() => import('../features/albums/AlbumPage').then((m) => m.AlbumPage));
const FoldersPage = lazyPage(() => import('../features/folders/FoldersPage').then((m) => m.FoldersPage));
const MapPage = lazyPage(() => import('../features/map/MapPage').then((m) => m.MapPage));
const UploadPage = lazyPage(() => import('../features/upload/UploadPage').then((m) => m.UploadPage));
const AccountPage = lazyPage(() => import('../features/account/AccountPage').then((m) => m.AccountPage));
const AdminPage = lazyPage(() => import('../features/admin/AdminPage').then((m) => m.AdminPage));
const RepositoriesPage = lazyPage(() => import('../features/admin/RepositoriesPage').then((m) => m.RepositoriesPage));
const SearchPage = lazyPage(() => import('../features/search/SearchPage').then((m) => m.SearchPage));
const JobsPage = lazyPage(() => import('../features/admin/JobsPage').then((m) => m.JobsPage));
const ModelsPage = lazyPage(() => import('../features/admin/ModelsPage').then((m) => m.ModelsPage));
const PlacesPage = lazyPage(() => import('../features/places/PlacesPage').then((m) => m.PlacesPage));
const PlacePage = lazyPage(() => import('../features/places/PlacePage').then((m) => m.PlacePage));
const DuplicatesPage = lazyPage(() => import('../features/duplicates/DuplicatesPage').then((m) => m.DuplicatesPage));
const EventsPage = lazyPage(() => import('../features/photo-events/EventsPage').then((m) => m.EventsPage));
const EventPage = lazyPage(() => import('../features/photo-events/EventPage').then((m) => m.EventPage));
const PeoplePage = lazyPage(() => import('../features/people/PeoplePage').then((m) => m.PeoplePage));
const PersonPage = lazyPage(() => import('../features/people/PersonPage').then((m) => m.PersonPage));
const ImportPage = lazyPage(() => import('../features/import/ImportPage').then((m) => m.ImportPage));
const BoardPage = lazyPage(() => import('../features/assistant-board/BoardPage').then((m) => m.BoardPage));
const PinPage = lazyPage(() => import('../features/assistant-board/PinPage').then((m) => m.PinPage));
const AssistantSettingsPage = lazyPage(() => import('../features/admin/AssistantSettingsPage').then((m) => m.AssistantSettingsPage));

/** While a page's script loads: the frame stays, the page says it is coming. */
const pageLoading = (
  <p role="status">Loading…</p>
);

/**
 * Pages that list photos: each opens the viewer at its own path plus `photos/<id>` (a child route
 * with no element of its own, so the page stays mounted under the viewer; see viewer-route.ts).
 */
const LISTS_PHOTOS = new Set(['/', '/favourites', '/trash', '/folders', '/map']);

/** Library sections that have their real page; the others still show their empty state. */
const SECTION_PAGES: Record<string, React.ComponentType> = {
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
  const assistantOn = useAssistantEnabled();
  if (!me) return null;
  const isAdmin = me.role === 'admin';

  const signOut = async () => {
    setSigningOut(true);
    await session.signOut();
    // Land on the sign-in page plainly: after choosing to sign out, signing in again starts afresh
    // rather than returning to the page left behind.
    void navigate('/sign-in', { replace: true });
  };

  // Toasts (with Undo) are the signed-in app's: the sign-in page does not load them.
  return (
    <ToastProvider>
      <AppLayout groups={navigationFor(isAdmin, assistantOn)} user={me} onSignOut={signOut} signingOut={signingOut} tabBar={<TabBar tabs={PHONE_TABS} />} search={<SearchField />} assistant={<AssistantButton />}>
        <Suspense fallback={pageLoading}>
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
          <Route path={SEARCH_PAGE} element={<SearchPage />}>
            <Route path={PHOTO_ROUTE} element={null} />
          </Route>
          <Route path={PLACES_PATH} element={<PlacesPage />} />
          <Route path={`${PLACES_PATH}/:placeId`} element={<PlacePage />}>
            <Route path={PHOTO_ROUTE} element={null} />
          </Route>
          <Route path={DUPLICATES_PATH} element={<DuplicatesPage />}>
            <Route path={PHOTO_ROUTE} element={null} />
          </Route>
          <Route path={EVENTS_PATH} element={<EventsPage />} />
          <Route path={`${EVENTS_PATH}/:eventId`} element={<EventPage />}>
            <Route path={PHOTO_ROUTE} element={null} />
          </Route>
          <Route path={PEOPLE_PATH} element={<PeoplePage />} />
          <Route path={`${PEOPLE_PATH}/:personId`} element={<PersonPage />}>
            <Route path={PHOTO_ROUTE} element={null} />
          </Route>
          <Route path={IMPORT_PATH} element={<ImportPage />} />
          {/* Routed whether or not the assistant is on: the Board says so itself when it is off (a link kept from before). */}
          <Route path={BOARD_PATH} element={<BoardPage />} />
          <Route path={`${BOARD_PATH}/:pinId`} element={<PinPage />}>
            <Route path={PHOTO_ROUTE} element={null} />
          </Route>
          <Route path="/account" element={<AccountPage />} />
          <Route path={ADMIN_PATH} element={isAdmin ? <AdminPage /> : <NotFoundPage />} />
          <Route path={ADMIN_REPOSITORIES_PATH} element={isAdmin ? <RepositoriesPage /> : <NotFoundPage />} />
          <Route path={ADMIN_JOBS_PATH} element={isAdmin ? <JobsPage /> : <NotFoundPage />} />
          <Route path={ADMIN_MODELS_PATH} element={isAdmin ? <ModelsPage /> : <NotFoundPage />} />
          <Route path={ADMIN_ASSISTANT_PATH} element={isAdmin ? <AssistantSettingsPage /> : <NotFoundPage />} />
          {SIGNED_OUT_PATHS.map((path) => (
            <Route key={path} path={path} element={<ContinueAfterSignIn />} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
        </Suspense>
      </AppLayout>
      <AssistantPanel />
    </ToastProvider>
  );
}
