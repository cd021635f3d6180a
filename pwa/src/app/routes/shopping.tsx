import { useCallback, useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  calculateCartTotals,
  messages,
  payableCartLines,
  SUCCESS_REDIRECT_MS,
} from '@skyport/shared';
import { FavouritesScreen } from '../../features/favourites/components/favourites-screen.tsx';
import { CartScreen } from '../../features/cart/components/cart-screen.tsx';
import { CheckoutPage } from '../../features/checkout/components/checkout-page.tsx';
import { SuccessScreen } from '../../features/checkout/components/success-screen.tsx';
import { logOut } from '../../features/identity/api/identity-api.ts';
import { Loader } from '../../ui/loader.tsx';
import { showToast } from '../../ui/toast.tsx';
import { uiLabels } from '../../ui/labels.ts';
import { useCart, useCartLines } from '../../features/cart/data/cart.ts';
import { useFavourites } from '../../features/favourites/data/favourites.ts';
import { usePriceDrops } from '../../features/favourites/data/price-watch.ts';
import { useNotificationPermission } from '../../features/favourites/data/price-drop-notifications.ts';
import { useShopActions } from '../actions.ts';
import { useItemChangeStates } from '../../data/change-states.ts';
import { useCatalogueFreshness, useLocalData } from '../../data/provider.tsx';
import { setSessionUser, useSession } from '../session.ts';
import { LoginRoute } from './auth.tsx';

export function FavouritesRoute() {
  useLocalData(); // the route's loader shows until the local data layer is open
  const session = useSession();
  const favourites = useFavourites();
  const priceDrops = usePriceDrops();
  const freshness = useCatalogueFreshness();
  const permission = useNotificationPermission();
  const actions = useShopActions();
  const favouriteChanges = useItemChangeStates('favourites');
  if (session.status === 'loading') return <Loader />;
  if (!session.user) return <LoginRoute />;
  return (
    <FavouritesScreen
      favourites={favourites}
      onRemove={(favourite) => void actions.removeFavourite(favourite.flightId)}
      priceDrops={priceDrops}
      freshness={freshness}
      notifications={{ state: permission.state, onAsk: () => void permission.ask() }}
      changeStates={favouriteChanges}
    />
  );
}

export function CartRoute() {
  useLocalData();
  const session = useSession();
  const navigate = useNavigate();
  const lines = useCartLines();
  const actions = useShopActions();
  const cartChanges = useItemChangeStates('cart');
  const totals = useMemo(() => calculateCartTotals(lines), [lines]);
  const checkout = () => {
    const user = session.user;
    if (!user) {
      showToast(messages.loginToBuy, 'error');
      navigate('/login');
      return;
    }
    if (!user.emailVerified) {
      // Spec §4: an unverified user is signed out and sent home.
      showToast(messages.verifyEmailToBuy, 'error');
      void logOut().finally(() => setSessionUser(null));
      navigate('/', { replace: true });
      return;
    }
    navigate('/payment');
  };
  return (
    <CartScreen
      lines={lines}
      totals={totals}
      onIncrement={(line) => void actions.increment(line)}
      onDecrement={(line) => void actions.decrement(line)}
      onRemove={(line) => void actions.remove(line)}
      onCheckout={checkout}
      changeStates={cartChanges}
    />
  );
}

export function PaymentRoute() {
  useLocalData();
  const session = useSession();
  const navigate = useNavigate();
  // `undefined` while the local cart is still being read: nothing can be paid before it is.
  const cart = useCart();
  // Lines of deleted flights cannot be bought: they are neither saved for checkout nor paid for.
  const lines = useMemo(() => payableCartLines(cart?.lines ?? []), [cart]);
  const unavailable = (cart?.lines.length ?? 0) - lines.length;
  const actions = useShopActions();
  const totals = useMemo(() => calculateCartTotals(lines), [lines]);
  const succeed = useCallback(() => {
    showToast(messages.paymentSuccessful);
    // The server emptied the saved cart; the local one follows at once (and through sync).
    void actions.clearCart();
    navigate('/success', { replace: true });
  }, [actions, navigate]);

  if (session.status === 'loading' || !cart) return <Loader />;
  if (!session.user) return <LoginRoute />;
  // The payment methods the server runs and the purchase attempt: features/checkout.
  return (
    <CheckoutPage
      user={session.user}
      lines={lines}
      totals={totals}
      notice={unavailable > 0 ? uiLabels.unavailableNotPaid(unavailable) : null}
      onSucceeded={succeed}
    />
  );
}

/** "PAGO EXITOSO", then My Orders after the spec's 4 s. */
export function SuccessRoute() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate('/purchases', { replace: true }), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return <SuccessScreen />;
}
