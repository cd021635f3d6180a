import { useParams } from 'react-router-dom';
import { FlightDetailScreen } from '../../features/catalog/components/flight-detail.tsx';
import { Loader } from '../../ui/loader.tsx';
import { uiLabels } from '../../ui/labels.ts';
import { useAirlineReviews, useFlight } from '../../features/catalog/data/catalogue.ts';
import { useFavourites } from '../../features/favourites/data/favourites.ts';
import { useCatalogueFreshness } from '../../data/provider.tsx';
import { usePriceHistories } from '../../data/price-histories.ts';
import { useShopActions } from '../actions.ts';
import { roleOf, useCurrentUser } from '../session.ts';
import { NotFoundRoute } from './not-found.tsx';

export function TicketRoute() {
  const { id = '' } = useParams();
  const user = useCurrentUser();
  const role = roleOf(user);
  const flight = useFlight(id);
  const airlineReviews = useAirlineReviews(flight?.airlineId);
  const favourites = useFavourites();
  const actions = useShopActions();
  const freshness = useCatalogueFreshness();
  const histories = usePriceHistories();
  if (flight === undefined) return <Loader />;
  if (flight === null) return <NotFoundRoute message={uiLabels.flightNotFound} />;
  return (
    <FlightDetailScreen
      flight={flight}
      airlineReviews={airlineReviews}
      showBuyActions={role === 'guest' || role === 'customer'}
      isFavourite={favourites.some((favourite) => favourite.flightId === flight.id)}
      freshness={freshness}
      // A customer's own record of the price (§4.9); nobody else follows prices.
      priceHistory={role === 'customer' && histories ? (histories[flight.id] ?? []) : undefined}
      onAddToCart={() => void actions.addToCart(flight)}
      onAddFavourite={() => void actions.addFavourite(flight)}
    />
  );
}
