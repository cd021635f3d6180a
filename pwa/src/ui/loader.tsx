import { uiLabels } from './labels.ts';

/** A spinner with an accessible name; `lines` replace the default "Loading…" text. */
export function Loader({
  lines,
  className = '',
}: {
  lines?: readonly string[];
  className?: string;
}) {
  const text = lines && lines.length > 0 ? lines : [uiLabels.loading];
  return (
    <div
      role="status"
      aria-live="polite"
      className={`flex flex-col items-center gap-2 py-12 text-center ${className}`}
    >
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      {text.map((line, index) => (
        <p key={line} className={index === 0 ? 'text-lg font-semibold' : 'text-base-content/80'}>
          {line}
        </p>
      ))}
    </div>
  );
}
