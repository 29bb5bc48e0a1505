/**
 * The flame is drawn here rather than through Icon: the splash and sign-in screens show this mark
 * first, and Icon's whole set of paths would otherwise come with their script (see lib/lazy-page.ts).
 */
const FLAME = 'M12 3c1.3 3.6 5.5 5.6 5.5 10.5a5.5 5.5 0 0 1-11 0c0-2.4 1.1-4 2.4-5.2.2 1.7 1 2.8 2.1 3.1C10.5 9 10.7 6 12 3z';

/** The Hearth name with its flame; decorative apart from the name itself. */
export function BrandMark({ size = 'normal' }: { size?: 'normal' | 'large' }) {
  const px = size === 'large' ? 28 : 20;
  return (
    <span className={`brand brand--${size}`}>
      <span className="brand__flame">
        <svg
          className="icon"
          width={px}
          height={px}
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
        >
          <path d={FLAME} />
        </svg>
      </span>
      <span className="brand__name">Hearth</span>
    </span>
  );
}
