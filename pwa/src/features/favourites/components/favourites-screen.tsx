import { Link } from 'react-router-dom';
import { isFlightAvailable, specLabels, type Favourite } from '@skyport/shared';
import { CountryFlag } from '../../../ui/country-flag.tsx';
import { formatDate, formatPrice } from '../../../ui/format.ts';
import { HeartIcon, TrashIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';

export interface FavouritesScreenProps {
  favourites: readonly Favourite[];
  onRemove: (favourite: Favourite) => void;
}

/**
 * /favs: the Favorites List, each removable. A favourite whose flight was deleted stays, marked
 * "No longer available" and without its details link (the flight page is gone), until removed.
 */
export function FavouritesScreen({ favourites, onRemove }: FavouritesScreenProps) {
  return (
    <section aria-labelledby="favs-title" className="flex flex-col gap-4">
      <h1 id="favs-title" className="flex items-center gap-2 text-2xl font-bold">
        <HeartIcon filled className="size-6 text-error" />
        {specLabels.favoritesList}
      </h1>
      {favourites.length === 0 ? (
        <p className="text-base-content/80" data-testid="favourites-empty">
          {uiLabels.noFavourites}
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="favourites">
          {favourites.map((favourite) => {
            const route = `${favourite.origin} → ${favourite.destination}`;
            const available = isFlightAvailable(favourite);
            return (
              <li
                key={favourite.flightId}
                className="card card-border bg-base-100"
                data-testid="favourite"
                data-available={available}
              >
                <div className="card-body gap-2 p-4">
                  <p className="flex flex-wrap items-center gap-2 font-semibold">
                    {favourite.airlineName}
                    {available ? null : (
                      <span
                        className="badge badge-warning font-semibold"
                        data-testid="favourite-unavailable"
                      >
                        {uiLabels.noLongerAvailable}
                      </span>
                    )}
                  </p>
                  <p className="flex flex-wrap items-center gap-1.5">
                    <CountryFlag country={favourite.origin} />
                    {favourite.origin} <span aria-hidden="true">→</span>
                    <span className="sr-only">{uiLabels.to}</span>
                    <CountryFlag country={favourite.destination} />
                    {favourite.destination}
                  </p>
                  <p className="text-sm text-base-content/80">
                    {formatDate(favourite.departureDate)} · {favourite.departureHour} –{' '}
                    {favourite.arrivalHour}
                  </p>
                  <div className="card-actions items-center justify-between">
                    <span
                      className={`text-lg font-bold ${available ? 'text-primary' : 'text-base-content/60 line-through'}`}
                    >
                      {available ? null : (
                        <span className="sr-only">{uiLabels.noLongerAvailable}: </span>
                      )}
                      {formatPrice(favourite.priceCents)}
                    </span>
                    <div className="flex gap-2">
                      {available ? (
                        <Link
                          to={`/ticket/${favourite.flightId}`}
                          className="btn btn-sm btn-outline"
                          aria-label={`${uiLabels.viewDetails}: ${route}`}
                        >
                          {uiLabels.viewDetails}
                        </Link>
                      ) : null}
                      <button
                        type="button"
                        className="btn btn-sm btn-ghost text-error"
                        aria-label={`${uiLabels.removeFromFavourites}: ${route}`}
                        onClick={() => onRemove(favourite)}
                        data-testid="remove-favourite"
                      >
                        <TrashIcon />
                      </button>
                    </div>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
