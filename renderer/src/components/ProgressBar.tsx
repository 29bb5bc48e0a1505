/** A labelled progress bar (0–100), readable by assistive technology as a progressbar. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const v = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={v}>
      <div className="progress__fill" style={{ width: `${v}%` }} />
    </div>
  );
}
