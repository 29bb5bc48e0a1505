/**
 * The signed-in frame: a sidebar on wide screens; on phones a top bar whose Menu button opens the
 * same navigation as a drawer. One navigation in the DOM for both, so links are never duplicated
 * for assistive technology; CSS decides where it sits. The closed drawer is visibility:hidden, which
 * also takes it out of the tab order and the accessibility tree. Phones also get a bottom tab bar
 * (`tabBar`, app/TabBar.tsx) with the few places used most; it is display:none on wide screens.
 * The top bar also holds the search field (`search`, features/search/SearchField.tsx): on wide
 * screens it is the bar above the page, beside the sidebar, with the search alone in it.
 * After the search, `assistant` (features/assistant): the button that opens the assistant's panel, when it is on.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import { Icon, type IconName } from '../Icon';
import { BrandMark } from './BrandMark';
import { useSkipTargetFocus } from './skip-target';
import { UserPanel } from './UserPanel';
import type { User } from '../../api/types';

export interface NavItem {
  to: string;
  label: string;
  icon: IconName;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

interface AppLayoutProps {
  groups: NavGroup[];
  user: User;
  onSignOut: () => void;
  signingOut: boolean;
  /** Shown at the bottom on phones only. */
  tabBar?: ReactNode;
  /** The search field, in the top bar at every width. */
  search?: ReactNode;
  /** The assistant's button, in the top bar after the search (absent or null while the assistant is off). */
  assistant?: ReactNode;
  children: ReactNode;
}

export function AppLayout({ groups, user, onSignOut, signingOut, tabBar, search, assistant, children }: AppLayoutProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const focusGrid = useSkipTargetFocus();

  // Following a link closes the drawer on phones.
  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <div className="shell" data-menu-open={menuOpen ? 'true' : 'false'}>
      {/* The links move the focus themselves: following `#main` would also put it in the address,
          which the router reads as a navigation. */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      {focusGrid && (
        <a
          className="skip-link"
          href="#main"
          onClick={(e) => {
            e.preventDefault();
            focusGrid();
          }}
        >
          Skip to photos
        </a>
      )}
      <header className="topbar">
        <BrandMark />
        {search}
        {assistant}
        <button
          ref={menuButton}
          type="button"
          className="pill-button topbar__menu"
          aria-expanded={menuOpen}
          aria-controls="app-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon name={menuOpen ? 'close' : 'menu'} />
          <span>Menu</span>
        </button>
      </header>
      <div className="scrim" hidden={!menuOpen} onClick={() => setMenuOpen(false)} />
      <div id="app-menu" className="sidebar">
        <div className="sidebar__brand">
          <BrandMark />
        </div>
        <nav className="nav" aria-label="Main">
          {groups.map((group) => (
            <div className="nav__group" key={group.label}>
              <h2 className="nav__heading">{group.label}</h2>
              <ul className="nav__list">
                {group.items.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} end className="nav__link">
                      <Icon name={item.icon} />
                      <span>{item.label}</span>
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <UserPanel user={user} onSignOut={onSignOut} signingOut={signingOut} />
        </nav>
      </div>
      <main id="main" className="content" tabIndex={-1}>
        {children}
      </main>
      {tabBar}
    </div>
  );
}
