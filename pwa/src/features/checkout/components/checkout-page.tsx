import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { specLabels, type CartLine, type Totals } from '@skyport/shared';
import { ApiError, errorMessage, reportApiError } from '../../../api/api-client.ts';
import { formatPrice } from '../../../ui/format.ts';
import { uiLabels } from '../../../ui/labels.ts';
import type { CheckoutConfig } from '../api/checkout-api.ts';
import { cartFingerprint, pendingAttempt, type CheckoutState } from '../attempt/attempt-machine.ts';
import type { CheckoutDriver, NewAttempt } from '../attempt/checkout-driver.ts';
import { useCheckout } from '../attempt/use-checkout.ts';
import { useCheckoutConfig } from '../data/checkout-config.ts';
import { checkoutLabels } from '../labels.ts';
import { requoteOf, timeLeft } from '../hold/hold-clock.ts';
import { useNow, useSeatHold } from '../hold/seat-hold.ts';
import { AttemptStatus } from './attempt-status.tsx';
import { HoldPanel } from './hold-panel.tsx';
import { PaymentScreen } from './payment-screen.tsx';
import { TestCardField, type CardFieldState } from './test-card-field.tsx';

/** Stripe.js and its React bindings load only on /payment, and only when the server runs Stripe. */
const StripeCardField = lazy(() => import('./stripe-card-field.tsx'));
/** PayPal's SDK loads only on /payment, and only when the server runs PayPal wallets. */
const PayPalWalletButtons = lazy(() => import('../paypal/paypal-buttons.tsx'));

const newKey = () => crypto.randomUUID();

/** What the page was opened with when the wallet provider sent the buyer back. */
function useWalletReturn(): { paymentId: string; approved: boolean } | null {
  const [params, setParams] = useSearchParams();
  const [walletReturn] = useState(() => {
    const paymentId = params.get('checkout');
    const result = params.get('wallet');
    return paymentId && result ? { paymentId, approved: result === 'approved' } : null;
  });
  const clearParams = useEffectEvent(() => {
    if (walletReturn) setParams({}, { replace: true });
  });
  useEffect(() => {
    clearParams();
    // Once: the parameters are read into state above.
  }, []);
  return walletReturn;
}

/**
 * /payment for a signed-in buyer: the payment methods the server runs (read at run time), and
 * the purchase attempt (attempt/): one key per attempt, kept until a definite answer, across
 * reloads and the wallet's round trip, with no second attempt meanwhile.
 */
export function CheckoutPage({
  user,
  lines,
  totals,
  notice,
  onSucceeded,
}: {
  user: { id: string; email: string };
  /** The lines this payment buys (lines of deleted flights are left out by the route). */
  lines: CartLine[];
  totals: Totals;
  /** A warning above the form (lines left out of the payment). */
  notice: string | null;
  /** The server confirmed the purchase (toast, local cart, /success). */
  onSucceeded: () => void;
}) {
  const configState = useCheckoutConfig();
  const walletReturn = useWalletReturn();
  const { driver, state } = useCheckout(user.id, (opened) => {
    if (walletReturn) {
      // Back from the wallet with no stored attempt (another browser's storage): the checkout is
      // confirmed by its id; what it pays was decided when it started.
      opened.returnFromWallet(
        walletReturn.paymentId,
        walletReturn.approved,
        uiLabels.paymentFailed,
        {
          key: newKey(),
          cart: cartFingerprint(lines, totals.totalCents),
          amountCents: totals.totalCents,
          method: 'wallet',
          paymentMethodId: null,
          receiptEmail: user.email,
        },
      );
    } else {
      opened.resume();
    }
  });
  const [walletBusy, setWalletBusy] = useState(false);

  // The seat hold (issue 17): taken once the page knows no attempt is under way, counted down,
  // and its quote (the server's prices) is what an attempt pays, once a new price is confirmed.
  const attempt = pendingAttempt(state);
  const seatHold = useSeatHold(lines, driver !== null && state.name === 'ready');
  const held = seatHold.state.name === 'held' ? seatHold.state : null;
  const now = useNow(held !== null);
  const leftMs = held ? timeLeft(held.deadline, now) : 0;
  const [acceptedQuote, setAcceptedQuote] = useState<{
    holdId: string;
    totalCents: number;
  } | null>(null);
  const requote = held ? requoteOf(totals.totalCents, held.hold, acceptedQuote) : null;
  const canPay = held !== null && leftMs > 0 && requote === null;
  const quoted: Totals = held
    ? {
        subtotalCents: held.hold.subtotalCents,
        feeCents: held.hold.feeCents,
        totalCents: held.hold.totalCents,
      }
    : totals;

  const newAttempt = (
    method: 'card' | 'wallet',
    paymentMethodId: string | null,
    email: string,
  ): NewAttempt => ({
    key: newKey(),
    cart: cartFingerprint(lines, quoted.totalCents),
    amountCents: quoted.totalCents,
    method,
    paymentMethodId,
    receiptEmail: email,
    holdId: held?.hold.holdId ?? null,
  });

  const succeeded = state.name === 'succeeded';
  const done = useRef(false);
  useEffect(() => {
    if (succeeded && !done.current) {
      done.current = true;
      onSucceeded();
    }
  }, [succeeded, onSucceeded]);

  if (succeeded) return null;
  if (!attempt && lines.length === 0) {
    return (
      <section className="flex flex-col items-start gap-3" data-testid="payment-empty">
        <h1 className="text-2xl font-bold">{uiLabels.cart}</h1>
        {state.name === 'ready' && state.error ? (
          <p className="alert alert-error" role="alert" data-testid="payment-error">
            {state.error}
          </p>
        ) : null}
        <p className="text-base-content/80">{uiLabels.emptyCart}</p>
        <Link to="/" className="btn btn-primary">
          {specLabels.goToHome}
        </Link>
      </section>
    );
  }

  /**
   * What comes before an attempt (its payment method, the saved cart). A failure here sends
   * nothing to the checkout: `message` to show, or null when signed out (the login page shows).
   */
  const prepare = async (
    run: () => Promise<void>,
  ): Promise<{ ok: true } | { ok: false; message: string | null }> => {
    try {
      await run();
      return { ok: true };
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        reportApiError(error);
        return { ok: false, message: null };
      }
      const message =
        error instanceof Error ? errorMessage(error, error.message) : uiLabels.paymentFailed;
      return { ok: false, message };
    }
  };

  const payByCard = async ({
    email,
    createPaymentMethod,
  }: {
    email: string;
    createPaymentMethod: (email: string) => Promise<string>;
  }): Promise<string | null> => {
    if (!driver || driver.getState().name !== 'ready' || !canPay) return null;
    let paymentMethodId = '';
    // One payment method per attempt: created here once; every retry of the attempt reuses it.
    // (The cart was saved when its seats were held.)
    const prepared = await prepare(async () => {
      paymentMethodId = await createPaymentMethod(email);
    });
    if (!prepared.ok) return prepared.message;
    driver.start(newAttempt('card', paymentMethodId, email));
    return null;
  };

  /** Starts a wallet attempt (or takes the pending one) up to the buyer's approval step. */
  const walletApproval = async (): Promise<Extract<
    CheckoutState,
    { name: 'approving' }
  > | null> => {
    if (!driver) return null;
    if (driver.getState().name === 'ready') {
      if (!canPay) return null;
      driver.start(newAttempt('wallet', null, user.email));
    }
    const reached = await driver.waitFor((s) => s.name !== 'submitting' && s.name !== 'confirming');
    return reached.name === 'approving' ? reached : null;
  };

  const payWithTestWallet = async () => {
    setWalletBusy(true);
    try {
      const approving = await walletApproval();
      // Off to the approval page the server serves; it sends the buyer back to /payment.
      if (approving) window.location.assign(approving.approvalUrl);
      else setWalletBusy(false);
    } catch {
      setWalletBusy(false);
    }
  };

  const config = configState.status === 'ready' ? configState.config : null;
  const locked = attempt !== null;
  const busy = state.name === 'submitting' && state.tries === 0;

  const walletButton = config
    ? walletFor(config, {
        driver,
        disabled: walletBusy || (locked ? state.name !== 'approving' : !canPay),
        busy: walletBusy,
        payWithTestWallet,
        walletApproval,
      })
    : null;

  const methodsNotice =
    configState.status === 'loading' ? (
      <p className="flex items-center gap-2 text-sm" data-testid="methods-loading">
        <span className="loading loading-dots" aria-hidden="true" />
        {checkoutLabels.configLoading}
      </p>
    ) : configState.status === 'failed' ? (
      <div className="alert alert-warning flex-col items-start" role="alert">
        <p>{checkoutLabels.configFailed}</p>
        <button type="button" className="btn btn-sm" onClick={configState.retry}>
          {checkoutLabels.retry}
        </button>
      </div>
    ) : config && !config.card && !config.wallet ? (
      <p className="alert alert-warning">{checkoutLabels.noMethods}</p>
    ) : null;

  const approvalActions =
    state.name === 'approving' ? (
      <div className="flex flex-wrap gap-2">
        {config?.wallet === 'test' ? (
          <a
            className="btn btn-sm btn-primary"
            href={state.approvalUrl}
            data-testid="continue-wallet"
          >
            {checkoutLabels.continueToWallet}
          </a>
        ) : null}
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => driver?.buyerCancelled(uiLabels.paymentFailed)}
          data-testid="cancel-wallet"
        >
          {checkoutLabels.cancelWallet}
        </button>
      </div>
    ) : null;

  return (
    <PaymentScreen
      totals={
        lines.length > 0
          ? quoted
          : { subtotalCents: 0, feeCents: 0, totalCents: attempt?.amountCents ?? 0 }
      }
      holdPanel={
        attempt === null || leftMs > 0 ? (
          <HoldPanel
            state={seatHold.state}
            leftMs={leftMs}
            requote={attempt === null ? requote : null}
            onHoldAgain={seatHold.holdAgain}
            onAcceptRequote={() =>
              held &&
              setAcceptedQuote({ holdId: held.hold.holdId, totalCents: held.hold.totalCents })
            }
          />
        ) : null
      }
      canPay={canPay}
      notice={notice}
      defaultEmail={user.email}
      testMode={config?.testMode ?? false}
      renderCardField={config ? cardFieldFor(config) : null}
      walletButton={walletButton}
      onPay={payByCard}
      locked={locked}
      busy={busy}
      error={state.name === 'ready' ? state.error : null}
      status={
        <AttemptStatus
          state={state}
          onCheckNow={() => driver?.retryNow()}
          approvalActions={approvalActions}
        />
      }
      methodsNotice={
        methodsNotice ??
        (attempt && lines.length === 0 ? (
          <p className="text-sm">
            {checkoutLabels.pendingAmount}: {formatPrice(attempt.amountCents)}
          </p>
        ) : null)
      }
    />
  );
}

/** The card field of the server's card provider, or null when it takes no cards. */
function cardFieldFor(config: CheckoutConfig) {
  if (config.card === 'test') {
    return (onChange: (state: CardFieldState) => void, disabled: boolean) => (
      <TestCardField onChange={onChange} disabled={disabled} />
    );
  }
  const key = config.stripePublishableKey;
  if (config.card === 'stripe' && key) {
    return (onChange: (state: CardFieldState) => void, disabled: boolean) => (
      <Suspense
        fallback={
          <span role="status" className="loading loading-dots" aria-label={uiLabels.loading} />
        }
      >
        <StripeCardField publishableKey={key} onChange={onChange} disabled={disabled} />
      </Suspense>
    );
  }
  return null;
}

/** The wallet of the server's wallet provider, or null when it runs none. */
function walletFor(
  config: CheckoutConfig,
  options: {
    driver: CheckoutDriver | null;
    disabled: boolean;
    busy: boolean;
    payWithTestWallet: () => Promise<void>;
    walletApproval: () => Promise<Extract<CheckoutState, { name: 'approving' }> | null>;
  },
) {
  if (config.wallet === 'test') {
    return (
      <button
        type="button"
        className="btn btn-outline"
        disabled={options.disabled}
        onClick={() => void options.payWithTestWallet()}
        data-testid="wallet"
      >
        {options.busy ? (
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        ) : null}
        {uiLabels.payWithWallet}
      </button>
    );
  }
  const clientId = config.paypalClientId;
  if (config.wallet === 'paypal' && clientId) {
    const { driver } = options;
    return (
      <Suspense
        fallback={
          <span role="status" className="loading loading-dots" aria-label={uiLabels.loading} />
        }
      >
        <PayPalWalletButtons
          clientId={clientId}
          disabled={options.disabled}
          createOrder={async () => {
            const approving = await options.walletApproval();
            if (!approving?.walletOrderId) throw new Error(uiLabels.paymentFailed);
            return approving.walletOrderId;
          }}
          onApprove={() => driver?.buyerDone()}
          onCancel={() => driver?.buyerCancelled(uiLabels.paymentFailed)}
        />
      </Suspense>
    );
  }
  return null;
}
