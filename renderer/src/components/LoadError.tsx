import { messageOf } from '../api/problem';
import { Button } from './Button';

/**
 * What a screen shows when something it needs could not be loaded: why, in the server's words, and a
 * "Try again" that asks again. Failures are visible and retryable, never a blank page. role="alert" so it
 * is announced when it appears. `as="p"` where it sits in running text (a header, a page's foot); `small`
 * for a compact button beside other controls.
 */
export function LoadError({ error, onRetry, as: Tag = 'div', small = false }: { error: unknown; onRetry: () => void; as?: 'div' | 'p'; small?: boolean }) {
  return (
    <Tag className="notice notice--error" role="alert">
      {messageOf(error)}{' '}
      <Button variant="secondary" className={small ? 'button--small' : undefined} onClick={onRetry}>
        Try again
      </Button>
    </Tag>
  );
}
