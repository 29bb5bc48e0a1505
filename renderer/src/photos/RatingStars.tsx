/** Five stars as a radio group: click a star to rate, click the current one again to clear. */
import { Icon } from '../components/Icon';

export function RatingStars({ value, onChange, disabled }: { value: number; onChange: (rating: number) => void; disabled?: boolean }) {
  return (
    <div className="stars" role="radiogroup" aria-label="Rating">
      {[1, 2, 3, 4, 5].map((n) => (
        <button
          key={n}
          type="button"
          role="radio"
          aria-checked={value === n}
          aria-label={`${n} star${n > 1 ? 's' : ''}`}
          className={n <= value ? 'stars__star stars__star--on' : 'stars__star'}
          disabled={disabled}
          onClick={() => onChange(value === n ? 0 : n)}
        >
          <Icon name="star" size={18} />
        </button>
      ))}
    </div>
  );
}
