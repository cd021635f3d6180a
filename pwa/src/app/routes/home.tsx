import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { messages, type CatalogQuery, type Flight } from '@skyport/shared';
import { HomeScreen } from '../../features/catalog/components/home-screen.tsx';
import { showToast } from '../../ui/toast.tsx';
import {
  departureChoiceFrom,
  departureParams,
  homeQueryFrom,
  type DepartureChoice,
  useAirlines,
  useCatalogPage,
  useCatalogPlaces,
} from '../../features/catalog/data/catalogue.ts';
import { useFavourites } from '../../features/favourites/data/favourites.ts';
import { useCatalogueFreshness } from '../../data/provider.tsx';
import { useShopActions } from '../actions.ts';
import { roleOf, useCurrentUser } from '../session.ts';
import { PendingAirlineHome, SuperAdminHome } from './slots.tsx';

function paramsFrom(query: CatalogQuery, departure: DepartureChoice | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (query.origin) params.set('origin', query.origin);
  if (query.destination) params.set('destination', query.destination);
  if (query.airlineId) params.set('airlineId', query.airlineId);
  if (query.band !== 'all') params.set('band', query.band);
  for (const [key, value] of Object.entries(departureParams(departure))) params.set(key, value);
  if (query.sort !== 'initial') params.set('sort', query.sort);
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

export function HomeRoute() {
  const user = useCurrentUser();
  if (user?.role === 'super_admin') return <SuperAdminHome />;
  if (user?.role === 'airline' && user.airlineStatus !== 'approved') return <PendingAirlineHome />;
  return <CatalogHome />;
}

function CatalogHome() {
  const role = roleOf(useCurrentUser());
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => homeQueryFrom(params), [params]);
  const departure = useMemo(() => departureChoiceFrom(params), [params]);
  const page = useCatalogPage(query);
  const airlines = useAirlines();
  const places = useCatalogPlaces();
  const favourites = useFavourites();
  const actions = useShopActions();
  const freshness = useCatalogueFreshness();
  const favouriteIds = useMemo(
    () => new Set(favourites.map((favourite) => favourite.flightId)),
    [favourites],
  );
  // "opps... Origin not found": tell the user and reset the search (spec §4).
  const originNotFound =
    page?.originNotFound === true && Boolean(query.origin || query.destination);
  useEffect(() => {
    if (!originNotFound) return;
    showToast(messages.originNotFound, 'error');
    setParams(
      paramsFrom({ ...query, origin: undefined, destination: undefined, page: 1 }, departure),
      { replace: true },
    );
  }, [originNotFound, query, departure, setParams]);
  // The same callbacks while the query is the same: the home page's memoised parts keep them.
  // Every change returns to page 1 (spec §4), except a page change itself.
  const onQueryChange = useCallback(
    (change: Partial<CatalogQuery>) =>
      setParams(paramsFrom({ ...query, page: 1, ...change }, departure)),
    [query, departure, setParams],
  );
  const onDepartureChange = useCallback(
    (choice: DepartureChoice | undefined) => setParams(paramsFrom({ ...query, page: 1 }, choice)),
    [query, setParams],
  );
  const onReset = useCallback(() => setParams(new URLSearchParams()), [setParams]);
  const onAddFavourite = useCallback(
    (flight: Flight) => void actions.addFavourite(flight),
    [actions],
  );
  const onAddToCart = useCallback((flight: Flight) => void actions.addToCart(flight), [actions]);

  return (
    <HomeScreen
      query={query}
      page={page}
      airlines={airlines}
      places={places}
      favouriteIds={favouriteIds}
      freshness={freshness}
      showBuyActions={role === 'guest' || role === 'customer'}
      onQueryChange={onQueryChange}
      departure={departure}
      onDepartureChange={onDepartureChange}
      onReset={onReset}
      onAddFavourite={onAddFavourite}
      onAddToCart={onAddToCart}
    />
  );
}
