import type { ReactNode } from 'react';
import { BrandMark } from '../../components/Layout/BrandMark';
import { useDocumentTitle } from '../../lib/use-document-title';

/** The frame of the signed-out pages: one centred card, full width on phones. */
export function AuthLayout({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <main className="auth">
      <div className="auth__card">
        <BrandMark size="large" />
        <h1 className="auth__title">{title}</h1>
        {intro && <div className="auth__intro">{intro}</div>}
        {children}
      </div>
    </main>
  );
}
