import { Link } from 'react-router-dom';
import { airlineLabels } from '../labels.ts';

export interface AirlineHeaderProps {
  title: string;
  name: string | null;
  email: string;
  image: string | null;
  /** Which of the two airline screens to link to. */
  link: 'catalog' | 'sales';
}

/** The airline's profile card on /airlineProfile and /catalogProfile. */
export function AirlineHeader({ title, name, email, image, link }: AirlineHeaderProps) {
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
        {link === 'catalog' ? (
          <Link to="/catalog" className="btn btn-outline btn-sm">
            {airlineLabels.goToCatalog}
          </Link>
        ) : (
          <Link to="/sales" className="btn btn-outline btn-sm">
            {airlineLabels.goToSales}
          </Link>
        )}
      </div>
    </header>
  );
}
