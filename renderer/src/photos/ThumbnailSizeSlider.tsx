/** The desktop's thumbnail size control (thumbnail-size.ts): a slider in the page header. Phones pinch instead (CSS hides it there). */
import { SIZE_STEPS } from './thumbnail-size';

export function ThumbnailSizeSlider({ step, onChange }: { step: number; onChange: (step: number) => void }) {
  return (
    <label className="size-slider">
      <span className="size-slider__label">Thumbnail size</span>
      <input
        type="range"
        min={0}
        max={SIZE_STEPS.length - 1}
        step={1}
        value={step}
        aria-valuetext={`${SIZE_STEPS[step]} pixels high`}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </label>
  );
}
