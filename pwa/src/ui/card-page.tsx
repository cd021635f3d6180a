import type { FormEventHandler, ReactNode } from 'react';
import { Link } from 'react-router-dom';

const WIDTHS = { md: 'max-w-md', xl: 'max-w-xl' } as const;

/** A small page that is one card, centred: login, registration, password and verification. */
export function CardPage({
  width = 'md',
  children,
}: {
  width?: keyof typeof WIDTHS;
  children: ReactNode;
}) {
  return (
    <div className={`mx-auto w-full ${WIDTHS[width]}`}>
      <div className="card card-border bg-base-100 shadow-sm">{children}</div>
    </div>
  );
}

export interface FormCardProps {
  title: string;
  /** The heading's id, given when the form is labelled by it (a named `form` landmark). */
  titleId?: string;
  width?: keyof typeof WIDTHS;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}

/**
 * A page whose card is a form under its heading (the forms validate with their shared schema, so
 * the browser's own validation is off).
 */
export function FormCard({ title, titleId, width, onSubmit, children }: FormCardProps) {
  return (
    <CardPage width={width}>
      <form className="card-body gap-4" onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
        <h1 id={titleId} className="card-title text-2xl">
          {title}
        </h1>
        {children}
      </form>
    </CardPage>
  );
}

/** The line under an account form that leads to the other one ("Already have an account? Log In"). */
export function AccountSwitchLink({
  question,
  to,
  label,
}: {
  question: string;
  to: string;
  label: string;
}) {
  return (
    <p className="text-sm">
      {question}{' '}
      <Link to={to} className="link link-primary">
        {label}
      </Link>
    </p>
  );
}
