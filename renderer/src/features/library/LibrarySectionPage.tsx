import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import type { LibrarySection } from './sections';

export function LibrarySectionPage({ section }: { section: LibrarySection }) {
  return (
    <>
      <PageHeader title={section.label} />
      <EmptyState icon={section.icon} title={section.emptyTitle}>
        <p>{section.emptyText}</p>
      </EmptyState>
    </>
  );
}
