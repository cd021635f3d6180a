import { RATING_MAX, RATING_MIN } from '@skyport/shared';
import { uiLabels } from './labels.ts';

const stars = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, index) => RATING_MIN + index);

/** A read-only rating in half stars (the spec's "average rating with half-step precision"). */
export function RatingStars({ value, size = 'rating-sm' }: { value: number; size?: string }) {
  return (
    <div
      className={`rating rating-half ${size}`}
      role="img"
      aria-label={uiLabels.ratingOutOf(value)}
    >
      {stars.flatMap((star) => [
        <div
          key={`${star}-a`}
          className="mask mask-star-2 mask-half-1 bg-warning"
          aria-hidden="true"
          aria-current={value === star - 0.5 ? 'true' : undefined}
        />,
        <div
          key={`${star}-b`}
          className="mask mask-star-2 mask-half-2 bg-warning"
          aria-hidden="true"
          aria-current={value === star ? 'true' : undefined}
        />,
      ])}
    </div>
  );
}

/** Star radio buttons from 1 to 5 for the review form; keyboard: arrows move between stars. */
export function RatingInput({
  name,
  value,
  onChange,
  label,
}: {
  name: string;
  value: number | null;
  onChange: (value: number) => void;
  label: string;
}) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">{label}</legend>
      <div className="rating rating-lg">
        {stars.map((star) => (
          <input
            key={star}
            type="radio"
            name={name}
            className="mask mask-star-2 bg-warning"
            aria-label={uiLabels.ratingOutOf(star)}
            checked={value === star}
            onChange={() => onChange(star)}
          />
        ))}
      </div>
    </fieldset>
  );
}
