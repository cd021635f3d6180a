import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  calculateCartTotals,
  messages,
  payableCartLines,
  specLabels,
  SUCCESS_REDIRECT_MS,
} from '@skyport/shared';
import { FavouritesScreen } from '../../features/favourites/components/favourites-screen.tsx';
import { CartScreen } from '../../features/cart/components/cart-screen.tsx';
import { PaymentScreen } from '../../features/checkout/components/payment-screen.tsx';
import { SuccessScreen } from '../../features/checkout/components/success-screen.tsx';
import {
  TestCardField,
  type CardFieldState,
} from '../../features/checkout/components/test-card-field.tsx';
import * as checkoutApi from '../../features/checkout/api/checkout-api.ts';
import { logOut } from '../../features/identity/api/identity-api.ts';
import { Loader } from '../../ui/loader.tsx';
import { showToast } from '../../ui/toast.tsx';
import { uiLabels } from '../../ui/labels.ts';
import { ApiError, errorMessage, reportApiError } from '../api-client.ts';
import { useCart, useCartLines } from '../../features/cart/data/cart.ts';
import { useFavourites } from '../../features/favourites/data/favourites.ts';
import { useShopActions } from '../actions.ts';
import { useLocalData } from '../../data/provider.tsx';
import { setSessionUser, useSession } from '../session.ts';
import { LoginRoute } from './auth.tsx';

const STRIPE_KEY: string | undefined = import.meta.env.VITE_STRIPE_PUBLISHABLE_KEY || undefined;
const WALLET_LABEL =
  import.meta.env.VITE_WALLET_PROVIDER === 'paypal'
    ? uiLabels.payWithPaypal
    : uiLabels.payWithWallet;
/** Stripe.js and its React bindings load only on /payment, and only when Stripe is configured. */
const StripeCardField = lazy(
  () => import('../../features/checkout/components/stripe-card-field.tsx'),
);

export function FavouritesRoute() {
  useLocalData(); // the route's loader shows until the local data layer is open
  const session = useSession();
  const favourites = useFavourites();
  const actions = useShopActions();
  if (session.status === 'loading') return <Loader />;
  if (!session.user) return <LoginRoute />;
  return (
    <FavouritesScreen
      favourites={favourites}
      onRemove={(favourite) => void actions.removeFavourite(favourite.flightId)}
    />
  );
}

export function CartRoute() {
  useLocalData();
  const session = useSession();
  const navigate = useNavigate();
  const lines = useCartLines();
  const actions = useShopActions();
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
    />
  );
}

function newKey() {
  return crypto.randomUUID();
}

export function PaymentRoute() {
  useLocalData();
  const session = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  // `undefined` while the local cart is still being read: nothing can be paid before it is.
  const cart = useCart();
  // Lines of deleted flights cannot be bought: they are neither saved for checkout nor paid for.
  const lines = useMemo(() => payableCartLines(cart?.lines ?? []), [cart]);
  const unavailable = (cart?.lines.length ?? 0) - lines.length;
  const actions = useShopActions();
  const totals = useMemo(() => calculateCartTotals(lines), [lines]);
  // One key per purchase attempt: a retried request after a lost answer never pays twice.
  const attemptKey = useRef(newKey());
  const [walletBusy, setWalletBusy] = useState(false);

  const succeed = () => {
    showToast(messages.paymentSuccessful);
    // The server emptied the saved cart; the local one follows at once (and through sync).
    void actions.clearCart();
    navigate('/success', { replace: true });
  };

  // Back from the wallet provider's approval page.
  const walletCheckout = params.get('checkout');
  const walletResult = params.get('wallet');
  useEffect(() => {
    if (!walletCheckout || !walletResult) return;
    setParams({}, { replace: true });
    if (walletResult !== 'approved') {
      showToast(uiLabels.paymentFailed, 'error');
      return;
    }
    checkoutApi.confirmWalletCheckout(walletCheckout).then((answer) => {
      if (answer.status === 'succeeded') succeed();
    }, reportApiError);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [walletCheckout, walletResult]);

  if (session.status === 'loading' || !cart) return <Loader />;
  if (!session.user) return <LoginRoute />;
  const user = session.user;
  if (lines.length === 0) {
    return (
      <section className="flex flex-col items-start gap-3" data-testid="payment-empty">
        <h1 className="text-2xl font-bold">{uiLabels.cart}</h1>
        <p className="text-base-content/80">{uiLabels.emptyCart}</p>
        <Link to="/" className="btn btn-primary">
          {specLabels.goToHome}
        </Link>
      </section>
    );
  }

  const pay = async ({
    email,
    createPaymentMethod,
  }: {
    email: string;
    createPaymentMethod: (email: string) => Promise<string>;
  }) => {
    try {
      const paymentMethodId = await createPaymentMethod(email);
      await checkoutApi.saveCart(lines);
      const answer = await checkoutApi.payByCard({
        paymentMethodId,
        amountCents: totals.totalCents,
        email,
        idempotencyKey: attemptKey.current,
      });
      attemptKey.current = newKey();
      if (answer.status === 'succeeded') {
        succeed();
        return null;
      }
      return uiLabels.paymentFailed;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        reportApiError(error);
        return null;
      }
      // A definite refusal (declined, no stock, price changed) ends this attempt; a lost answer
      // keeps the key so that trying again cannot charge twice.
      if (!(error instanceof ApiError) || !error.isOffline) attemptKey.current = newKey();
      return error instanceof Error ? errorMessage(error, error.message) : uiLabels.paymentFailed;
    }
  };

  const payWithWallet = async () => {
    setWalletBusy(true);
    try {
      await checkoutApi.saveCart(lines);
      const answer = await checkoutApi.startWalletCheckout({
        amountCents: totals.totalCents,
        email: user.email,
        idempotencyKey: newKey(),
      });
      if (answer.status === 'approval_required') window.location.assign(answer.approvalUrl);
      else succeed();
    } catch (error) {
      reportApiError(error);
      setWalletBusy(false);
    }
  };

  return (
    <PaymentScreen
      totals={totals}
      notice={unavailable > 0 ? uiLabels.unavailableNotPaid(unavailable) : null}
      defaultEmail={user.email}
      testMode={!STRIPE_KEY}
      renderCardField={(onChange: (state: CardFieldState) => void, disabled: boolean) =>
        STRIPE_KEY ? (
          <Suspense
            fallback={<span className="loading loading-dots" aria-label={uiLabels.loading} />}
          >
            <StripeCardField publishableKey={STRIPE_KEY} onChange={onChange} disabled={disabled} />
          </Suspense>
        ) : (
          <TestCardField onChange={onChange} disabled={disabled} />
        )
      }
      walletButton={
        <button
          type="button"
          className="btn btn-outline"
          disabled={walletBusy || lines.length === 0}
          onClick={() => void payWithWallet()}
          data-testid="wallet"
        >
          {walletBusy ? (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          ) : null}
          {WALLET_LABEL}
        </button>
      }
      onPay={pay}
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
