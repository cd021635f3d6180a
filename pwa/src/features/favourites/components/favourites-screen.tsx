import { Link } from 'react-router-dom';
import { specLabels, type Favourite } from '@skyport/shared';
import { CountryFlag } from '../../../ui/country-flag.tsx';
import { formatDate, formatHour, formatPrice } from '../../../ui/format.ts';
import { HeartIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import {
  RemoveButton,
  SavedFlightList,
  SavedFlightName,
  SavedFlightPrice,
} from '../../../ui/saved-flight.tsx';

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
    <SavedFlightList
      items={favourites}
      emptyText={uiLabels.noFavourites}
      testIds={{ empty: 'favourites-empty', list: 'favourites', item: 'favourite' }}
      listClassName="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
      title={
        <>
          <HeartIcon filled className="size-6 text-error" />
          {specLabels.favoritesList}
        </>
      }
    >
      {(favourite, available) => {
        const route = `${favourite.origin} → ${favourite.destination}`;
        return (
          <div className="card-body gap-2 p-4">
            <SavedFlightName
              airlineName={favourite.airlineName}
              available={available}
              badgeTestId="favourite-unavailable"
            />
            <p className="flex flex-wrap items-center gap-1.5">
              <CountryFlag country={favourite.origin} />
              {favourite.origin} <span aria-hidden="true">→</span>
              <span className="sr-only">{uiLabels.to}</span>
              <CountryFlag country={favourite.destination} />
              {favourite.destination}
            </p>
            <p className="text-sm text-base-content/80">
              {formatDate(favourite.departureDate)} · {formatHour(favourite.departureHour)} –{' '}
              {formatHour(favourite.arrivalHour)}
            </p>
            <div className="card-actions items-center justify-between">
              <SavedFlightPrice
                available={available}
                className={`text-lg font-bold${available ? ' text-primary' : ''}`}
              >
                {formatPrice(favourite.priceCents)}
              </SavedFlightPrice>
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
                <RemoveButton
                  label={`${uiLabels.removeFromFavourites}: ${route}`}
                  onClick={() => onRemove(favourite)}
                  testId="remove-favourite"
                />
              </div>
            </div>
          </div>
        );
      }}
    </SavedFlightList>
  );
}
