import type { ReactNode } from 'react';
import { BrandMark } from './Layout/BrandMark';

/** Full-page state while Hearth starts up or cannot be reached. */
export function Splash({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <main className="splash">
      <BrandMark />
      <p className="splash__message" role="status">
        {message}
      </p>
      {children}
    </main>
  );
}
