import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { RootLayout } from './root-layout.tsx';
import { Loader } from '../ui/loader.tsx';
import { HomeRoute } from './routes/home.tsx';

/**
 * Every route of spec §2. Screens other than home load lazily, each in its own chunk, so the home
 * page only downloads what it shows (payment SDKs load on /payment only, and only when configured).
 */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return async () => ({ Component: pick(await load()) });
}

const auth = () => import('./routes/auth.tsx');
const shopping = () => import('./routes/shopping.tsx');
const orders = () => import('./routes/orders.tsx');
const airline = () => import('./routes/airline.tsx');
const admin = () => import('./routes/admin.tsx');

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: () => <Loader />,
    children: [
      // The landing page is part of the main chunk: no second round trip before the first screen.
      { index: true, Component: HomeRoute },
      {
        path: 'ticket/:id',
        lazy: page(
          () => import('./routes/ticket.tsx'),
          (m) => m.TicketRoute,
        ),
      },
      // Signed e-tickets (issue 17): anyone verifies one, offline too.
      {
        path: 'verify-ticket',
        lazy: page(
          () => import('./routes/verify-ticket.tsx'),
          (m) => m.VerifyTicketRoute,
        ),
      },
      { path: 'login', lazy: page(auth, (m) => m.LoginRoute) },
      { path: 'register', lazy: page(auth, (m) => m.RegisterRoute) },
      { path: 'verify-email', lazy: page(auth, (m) => m.VerifyEmailRoute) },
      { path: 'reset-password', lazy: page(auth, (m) => m.ResetPasswordRoute) },
      { path: 'profile', lazy: page(auth, (m) => m.ProfileRoute) },
      { path: 'logout', lazy: page(auth, (m) => m.LogoutRoute) },
      { path: 'favs', lazy: page(shopping, (m) => m.FavouritesRoute) },
      { path: 'cart', lazy: page(shopping, (m) => m.CartRoute) },
      { path: 'payment', lazy: page(shopping, (m) => m.PaymentRoute) },
      { path: 'success', lazy: page(shopping, (m) => m.SuccessRoute) },
      { path: 'purchases', lazy: page(orders, (m) => m.PurchasesRoute) },
      { path: 'orders', lazy: page(orders, (m) => m.OrdersRoute) },
      {
        path: 'changes',
        lazy: page(
          () => import('./routes/changes.tsx'),
          (m) => m.PendingChangesRoute,
        ),
      },
      // Airline and administrator screens (issue 7), inside the layout that provides their
      // remote data (TanStack Query: decision 035), loaded with them, not with the home page.
      {
        lazy: page(
          () => import('./remote-data.tsx'),
          (m) => m.RemoteDataLayout,
        ),
        children: [
          { path: 'register/airline', lazy: page(airline, (m) => m.RegisterAirlineRoute) },
          { path: 'catalog', lazy: page(airline, (m) => m.CatalogRoute) },
          { path: 'catalogProfile', lazy: page(airline, (m) => m.CatalogProfileRoute) },
          { path: 'sales', lazy: page(airline, (m) => m.SalesRoute) },
          { path: 'airlineProfile', lazy: page(airline, (m) => m.AirlineProfileRoute) },
          { path: 'userManagement', lazy: page(admin, (m) => m.UserManagementRoute) },
          { path: 'airlineManagement', lazy: page(admin, (m) => m.AirlineManagementRoute) },
          {
            path: 'airlinePendingRequests',
            lazy: page(admin, (m) => m.AirlinePendingRequestsRoute),
          },
          { path: 'business', lazy: page(admin, (m) => m.BusinessRoute) },
        ],
      },
      {
        path: '*',
        lazy: page(
          () => import('./routes/not-found.tsx'),
          (m) => () => <m.NotFoundRoute />,
        ),
      },
    ],
  },
];
