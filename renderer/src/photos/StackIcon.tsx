/**
 * Layered squares, the sign of a stack (as in other galleries). Drawn here rather than added to the
 * shared icon set, which only this feature needs it from.
 */
export function StackIcon({ size = 14 }: { size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="3" y="8" width="13" height="13" rx="2" />
      <path d="M7.5 4.5H18A2.5 2.5 0 0 1 20.5 7v10.5" />
    </svg>
  );
}
