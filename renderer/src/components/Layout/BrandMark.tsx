import { Icon } from '../Icon';

/** The Hearth name with its flame; decorative apart from the name itself. */
export function BrandMark({ size = 'normal' }: { size?: 'normal' | 'large' }) {
  return (
    <span className={`brand brand--${size}`}>
      <span className="brand__flame">
        <Icon name="flame" size={size === 'large' ? 28 : 20} />
      </span>
      <span className="brand__name">Hearth</span>
    </span>
  );
}
