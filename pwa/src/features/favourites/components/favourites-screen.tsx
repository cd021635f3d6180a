import { Link } from 'react-router-dom';
import { specLabels, type Favourite } from '@skyport/shared';
import { CountryFlag } from '../../../ui/country-flag.tsx';
import { formatDate, formatHour, formatPrice } from '../../../ui/format.ts';
import { HeartIcon, TrendDownIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { PriceFreshness, type CatalogueFreshness } from '../../../ui/price-freshness.tsx';
import type { PriceDrop } from '../../../lib/price-history.ts';
import type { NotificationState } from '../data/price-drop-notifications.ts';
import { favouritesLabels } from '../labels.ts';
import {
  RemoveButton,
  SavedFlightList,
  SavedFlightName,
  SavedFlightPrice,
} from '../../../ui/saved-flight.tsx';
import { ChangeMarker, type ChangeMarkerState } from '../../../ui/change-marker.tsx';

export interface FavouritesScreenProps {
  favourites: readonly Favourite[];
  onRemove: (favourite: Favourite) => void;
  /** Favourites whose last price change was a drop, by flight id (§4.9). */
  priceDrops?: ReadonlyMap<string, PriceDrop>;
  /** How fresh the local catalogue's prices are (null: not known yet, nothing shown). */
  freshness?: CatalogueFreshness | null;
  /** Whether the browser may show price drop notifications, and the button that asks. */
  notifications?: { state: NotificationState; onAsk: () => void };
  /** The sync state of each favourite's latest change, by flight id (decision 017). */
  changeStates?: ReadonlyMap<string, ChangeMarkerState>;
}

const NO_DROPS: ReadonlyMap<string, PriceDrop> = new Map();

/** "Price dropped", with the last price and the new one. */
function PriceDropBadge({ drop }: { drop: PriceDrop }) {
  const from = formatPrice(drop.fromCents);
  const to = formatPrice(drop.toCents);
  return (
    <p
      className="badge badge-success h-auto gap-1 py-0.5 font-semibold"
      data-testid="favourite-price-drop"
    >
      <TrendDownIcon className="size-4 shrink-0" />
      {favouritesLabels.priceDropped}
      <span aria-hidden="true" className="font-normal">
        <s>{from}</s> → {to}
      </span>
      <span className="sr-only">{favouritesLabels.priceDropFromTo(from, to)}</span>
    </p>
  );
}

/** The button that asks for notifications, or what the browser decided. */
function NotificationsOption({ state, onAsk }: { state: NotificationState; onAsk: () => void }) {
  if (state === 'unsupported') return null;
  if (state === 'default') {
    return (
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <button
          type="button"
          className="btn btn-sm btn-outline"
          onClick={onAsk}
          data-testid="notify-price-drops"
        >
          {favouritesLabels.notifyMe}
        </button>
        <span className="text-sm text-base-content/80">{favouritesLabels.notifyMeHint}</span>
      </div>
    );
  }
  return (
    <p
      className="text-sm text-base-content/80"
      data-testid="price-drop-notifications"
      data-state={state}
    >
      {state === 'granted'
        ? favouritesLabels.notificationsOn
        : favouritesLabels.notificationsBlocked}
    </p>
  );
}

/**
 * /favs: the Favorites List, each removable. A favourite whose flight was deleted stays, marked
 * "No longer available" and without its details link (the flight page is gone), until removed.
 * A favourite whose price dropped says so, with the last price and the new one (§4.9); the
 * customer may ask here for system notifications of drops.
 */
export function FavouritesScreen({
  favourites,
  onRemove,
  priceDrops = NO_DROPS,
  freshness = null,
  notifications,
  changeStates,
}: FavouritesScreenProps) {
  return (
    <SavedFlightList
      items={favourites}
      emptyText={uiLabels.noFavourites}
      intro={
        favourites.length === 0 ? null : (
          <div className="flex flex-col gap-2">
            {notifications ? <NotificationsOption {...notifications} /> : null}
            <PriceFreshness freshness={freshness} />
          </div>
        )
      }
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
        const drop = available ? priceDrops.get(favourite.flightId) : undefined;
        // A badge only while it tells the price shown (a later rise ends it, §4.9).
        const dropShown = drop && drop.toCents === favourite.priceCents ? drop : undefined;
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
            {dropShown ? <PriceDropBadge drop={dropShown} /> : null}
            <ChangeMarker state={changeStates?.get(favourite.flightId)} />
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
