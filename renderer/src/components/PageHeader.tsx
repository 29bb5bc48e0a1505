import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/use-document-title';

/** The page's one h1, which also names the browser tab. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <header className="page-header">
      <h1 className="page-header__title">{title}</h1>
      {children && <div className="page-header__intro">{children}</div>}
    </header>
  );
}
