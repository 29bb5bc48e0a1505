/**
 * The phone's bottom tab bar: the places a phone goes most (Photos, Albums, Map, Upload, Account),
 * one thumb away. The rest of the navigation (Folders, Favourites, Trash, administration, sign out)
 * stays in the Menu drawer, which has everything. Hidden on wide screens, where the sidebar shows
 * it all (layout.css).
 *
 * A tab stays marked while a photo of its list is open (`/photos/<id>` is still Photos).
 */
import { Link, useLocation } from 'react-router';
import { Icon } from '../components/Icon';
import type { NavItem } from '../components/Layout/AppLayout';
import { listPathOf } from '../photos/viewer-route';

export const PHONE_TABS: NavItem[] = [
  { to: '/', label: 'Photos', icon: 'photos' },
  { to: '/albums', label: 'Albums', icon: 'albums' },
  { to: '/map', label: 'Map', icon: 'map' },
  { to: '/upload', label: 'Upload', icon: 'upload' },
  { to: '/account', label: 'Account', icon: 'account' },
];

const isCurrent = (tab: string, list: string) => (tab === '/' ? list === '/' : list === tab || list.startsWith(`${tab}/`));

export function TabBar({ tabs }: { tabs: NavItem[] }) {
  const list = listPathOf(useLocation().pathname);
  return (
    <nav className="tabbar" aria-label="Tabs">
      <ul className="tabbar__list">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link to={tab.to} className="tabbar__tab" aria-current={isCurrent(tab.to, list) ? 'page' : undefined}>
              <Icon name={tab.icon} />
              <span>{tab.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
