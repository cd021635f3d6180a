import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

/**
 * The input attributes of the kinds of text the forms ask for: the keyboard, and what the browser
 * and password managers may fill in. Spread into a `FormField`.
 */
export const inputKinds = {
  email: { type: 'email', autoComplete: 'email' },
  currentPassword: { type: 'password', autoComplete: 'current-password' },
  newPassword: { type: 'password', autoComplete: 'new-password' },
} as const satisfies Record<string, InputHTMLAttributes<HTMLInputElement>>;

/** What a field's control carries so that its label, hint and error reach assistive technology. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A field's message: a text, or react-hook-form's `FieldError` (its `message`). */
export type FieldMessage = string | { message?: string | undefined } | null | undefined;

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> {
  label: ReactNode;
  /** The control's id (the label points at it); a generated one by default. */
  id?: string;
  /** The input's name, and the error's test id: `error-<name>`. */
  name: string;
  error?: FieldMessage;
  /** A hint under the field (e.g. the expected format), read with the label; hidden by an error. */
  hint?: string;
  /** Something drawn inside the input row, before the input (a flag, an icon). */
  leading?: ReactNode;
  /** `inline`: the control before its label on one line (a checkbox). */
  layout?: 'stacked' | 'inline';
  /**
   * Another control instead of the default one (a textarea, a combobox): it gets the id the label
   * points at and the ARIA attributes that tie the error and hint to it.
   */
  children?: (control: FieldControlProps) => ReactNode;
  /** The input's ref (react-hook-form's `register` passes one, to focus a field in error). */
  ref?: Ref<HTMLInputElement>;
}

/**
 * The one field of every form: a label, the control, the hint, and the error text under it
 * (`aria-describedby`, `aria-invalid`, `data-testid="error-<name>"`). The control is a daisyUI text
 * input by default, a checkbox with `layout="inline"`, or whatever `children` renders. Spread
 * react-hook-form's `register(name)` into it for a plain input.
 */
export function FormField({
  label,
  name,
  error,
  hint,
  leading,
  layout = 'stacked',
  children,
  className = '',
  id: fixedId,
  ref,
  ...input
}: FormFieldProps) {
  const generatedId = useId();
  const id = fixedId ?? generatedId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const message = typeof error === 'string' ? error : (error?.message ?? undefined);
  const showHint = Boolean(hint) && !message;
  const control: FieldControlProps = {
    id,
    'aria-invalid': message ? true : undefined,
    'aria-describedby':
      [message ? errorId : null, showHint ? hintId : null].filter(Boolean).join(' ') || undefined,
  };
  const inline = layout === 'inline';
  const classes = (...names: (string | false)[]) => names.filter(Boolean).join(' ');
  const defaultControl = inline ? (
    <input
      name={name}
      type="checkbox"
      className={classes(
        'checkbox checkbox-primary',
        Boolean(message) && 'checkbox-error',
        className,
      )}
      ref={ref}
      {...control}
      {...input}
    />
  ) : (
    <div className={classes('input w-full', Boolean(message) && 'input-error', className)}>
      {leading}
      <input name={name} className="grow" ref={ref} {...control} {...input} />
    </div>
  );
  const shown = children ? children(control) : defaultControl;
  return (
    <div className="flex flex-col gap-1">
      {inline ? (
        <label htmlFor={id} className="flex cursor-pointer items-center gap-3">
          {shown}
          <span>{label}</span>
        </label>
      ) : (
        <>
          <label htmlFor={id} className="text-sm font-medium">
            {label}
          </label>
          {shown}
        </>
      )}
      {showHint ? (
        <p id={hintId} className="text-xs text-base-content/70">
          {hint}
        </p>
      ) : null}
      {message ? (
        <p id={errorId} className="text-sm text-error" data-testid={`error-${name}`}>
          {message}
        </p>
      ) : null}
    </div>
  );
}
