import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  name: string;
  error?: string | undefined;
  /** A hint under the field (e.g. the expected format), read with the label. */
  hint?: string;
  /** Something drawn inside the input row, before the input (a flag, an icon). */
  leading?: ReactNode;
}

/** A labelled input whose error message is tied to it for screen readers. */
export function Field({ label, name, error, hint, leading, className = '', ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy =
    [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className={`input w-full ${error ? 'input-error' : ''} ${className}`}>
        {leading}
        <input
          id={id}
          name={name}
          className="grow"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
      </div>
      {hint && !error ? (
        <p id={hintId} className="text-xs text-base-content/70">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-error" data-testid={`error-${name}`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** zod issues → the first message of each field (the issue path's last key). */
export function fieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  depth = 0,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[depth] ?? '');
    errors[key] ??= issue.message;
  }
  return errors;
}
