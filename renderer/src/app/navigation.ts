import type { NavGroup } from '../components/Layout/AppLayout';
import { ADMIN_ASSISTANT_PATH, ADMIN_JOBS_PATH, ADMIN_MODELS_PATH, ADMIN_PATH, ADMIN_REPOSITORIES_PATH } from '../features/admin/admin-paths';
import { BOARD_PATH } from '../features/assistant-board/board-path';
import { DUPLICATES_PATH } from '../features/duplicates/duplicates-path';
import { EVENTS_PATH } from '../features/photo-events/events-path';
import { IMPORT_PATH } from '../features/import/import-path';
import { LIBRARY_SECTIONS } from '../features/library/sections';
import { PLACES_PATH } from '../features/places/places-path';
import { PEOPLE_PATH } from '../features/people/people-path';

export { ADMIN_ASSISTANT_PATH, ADMIN_JOBS_PATH, ADMIN_MODELS_PATH, ADMIN_PATH, ADMIN_REPOSITORIES_PATH };

/**
 * The navigation for a signed-in person; administration only for administrators; the Board only while the
 * assistant is on (useAssistantEnabled: its pins are the assistant's, and the server hides them while it is off).
 */
export function navigationFor(isAdmin: boolean, assistantOn = false): NavGroup[] {
  const groups: NavGroup[] = [
    {
      label: 'Library',
      items: [
        // Places right after the Map (both are "where"); in the sidebar and the phone's Menu (the tab bar is full).
        ...LIBRARY_SECTIONS.flatMap(({ path, label, icon }) => [
          { to: path, label, icon },
          ...(path === '/map' ? [{ to: PLACES_PATH, label: 'Places', icon: 'globe' as const }] : []),
          // Import beside Upload: both bring photos in (from this device; from a cloud or a NAS). Every member.
          ...(path === '/upload' ? [{ to: IMPORT_PATH, label: 'Import', icon: 'download' as const }] : []),
        ]),
        // Browsed now and then, and reached from a photo's details too: the sidebar and the Menu, not a tab.
        { to: PEOPLE_PATH, label: 'People', icon: 'users' as const },
        // Browsed now and then (a trip looked back on), not daily: in the sidebar and the phone's Menu, not a tab.
        { to: EVENTS_PATH, label: 'Events', icon: 'image' as const },
        // A screen for tidying up now and then, not for browsing: in the sidebar and the phone's Menu, not a tab.
        { to: DUPLICATES_PATH, label: 'Duplicates', icon: 'similar' as const },
        // The assistant's pinned results: looked at now and then, like Events; in the sidebar and the Menu.
        ...(assistantOn ? [{ to: BOARD_PATH, label: 'Board', icon: 'star' as const }] : []),
      ],
    },
  ];
  if (isAdmin) {
    groups.push({
      label: 'Administration',
      items: [
        { to: ADMIN_PATH, label: 'Users & settings', icon: 'users' },
        { to: ADMIN_REPOSITORIES_PATH, label: 'Repositories', icon: 'drive' },
        { to: ADMIN_JOBS_PATH, label: 'Jobs', icon: 'jobs' },
        { to: ADMIN_MODELS_PATH, label: 'Models', icon: 'models' },
        { to: ADMIN_ASSISTANT_PATH, label: 'Assistant', icon: 'info' },
      ],
    });
  }
  return groups;
}
