import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

/** What a section shows while it has nothing to show: honest about why, never placeholder data. */
export function EmptyState({ icon, title, children }: { icon: IconName; title: string; children: ReactNode }) {
  return (
    <section className="empty-state" aria-label={title}>
      <div className="empty-state__icon">
        <Icon name={icon} size={34} />
      </div>
      <h2 className="empty-state__title">{title}</h2>
      <div className="empty-state__body">{children}</div>
    </section>
  );
}
