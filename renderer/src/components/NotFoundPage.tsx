import { Link } from 'react-router';
import { PageHeader } from './PageHeader';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is nothing at this address. <Link to="/">Go to your photos</Link>.
      </p>
    </>
  );
}
