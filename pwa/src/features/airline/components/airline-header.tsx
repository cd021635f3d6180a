import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { User } from '@skyport/shared';
import { airlineLabels } from '../labels.ts';

export interface AirlineProfilePageProps {
  /** The screen's name, over the airline's. */
  title: string;
  user: Pick<User, 'name' | 'email' | 'image'>;
  /** Which of the two airline screens the card links to. */
  link: 'catalog' | 'sales';
  /** What the page shows under the card (its catalogue or its sales). */
  children: ReactNode;
}

/** /airlineProfile and /catalogProfile: the airline's profile card, then the screen's content. */
export function AirlineProfilePage({ title, user, link, children }: AirlineProfilePageProps) {
  return (
    <div className="flex flex-col gap-6">
      <AirlineHeader title={title} user={user} link={link} />
      {children}
    </div>
  );
}

/** The airline's profile card: its logo, name and account, and the link to the other screen. */
function AirlineHeader({ title, user, link }: Omit<AirlineProfilePageProps, 'children'>) {
  const { name, email, image } = user;
  const other =
    link === 'catalog'
      ? { to: '/catalog', label: airlineLabels.goToCatalog }
      : { to: '/sales', label: airlineLabels.goToSales };
  return (
    <header className="card card-border bg-base-100 shadow-sm" data-testid="airline-header">
      <div className="card-body flex-row flex-wrap items-center gap-4 p-4 sm:p-6">
        <div className="avatar">
          <div className="size-16 rounded-box bg-base-200 ring-1 ring-base-300">
            {image ? <img src={image} alt="" referrerPolicy="no-referrer" /> : null}
          </div>
        </div>
        <div className="min-w-0 flex-1">
          <p className="text-sm text-base-content/70">{title}</p>
          <h1 className="truncate text-2xl font-bold">{name ?? email}</h1>
          <p className="truncate text-sm text-base-content/80">
            {airlineLabels.airlineAccount}: {email}
          </p>
        </div>
        <Link to={other.to} className="btn btn-outline btn-sm">
          {other.label}
        </Link>
      </div>
    </header>
  );
}
