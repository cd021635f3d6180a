import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface NoticePageProps {
  /** The section's test id (`airline-only`, `admin-only`, `pending-approval`). */
  testId: string;
  /** The id of the heading that names the section, if it has one. */
  labelledBy?: string;
  /** `wide`: room for a heading and several paragraphs. */
  width?: 'narrow' | 'wide';
  /** The login link's text, when logging in (again) is the way on; no link without it. */
  logIn?: string | null;
  /** The home link's text. */
  backHome: string;
  children: ReactNode;
}

/**
 * A page that only says why the screen is not shown (another role's screen, a request waiting for
 * approval) and offers the ways on: log in, when that helps, and back home.
 */
export function NoticePage({
  testId,
  labelledBy,
  width = 'narrow',
  logIn,
  backHome,
  children,
}: NoticePageProps) {
  const box = width === 'wide' ? 'max-w-xl py-8' : 'max-w-md py-10';
  return (
    <section
      className={`mx-auto flex ${box} flex-col items-center gap-4 text-center`}
      data-testid={testId}
      aria-labelledby={labelledBy}
    >
      {children}
      <div className="flex flex-wrap justify-center gap-2">
        {logIn ? (
          <Link to="/login" className="btn btn-primary">
            {logIn}
          </Link>
        ) : null}
        <Link to="/" className="btn">
          {backHome}
        </Link>
      </div>
    </section>
  );
}
