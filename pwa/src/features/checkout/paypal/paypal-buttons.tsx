import {
  PayPalButtons,
  PayPalScriptProvider,
  usePayPalScriptReducer,
} from '@paypal/react-paypal-js';
import { WALLET_CURRENCY } from '@skyport/shared';
import { checkoutLabels } from '../labels.ts';

/**
 * PayPal's buttons (`@paypal/react-paypal-js`), shown when the server runs PayPal wallets. The
 * order is created and captured on the server: `createOrder` starts (or resumes, with the same key)
 * the checkout and hands PayPal the order id the server created; after the buyer approves in
 * PayPal's window, `onApprove` lets the checkout confirm it (authorise, order, capture). This
 * module and PayPal's SDK load only on /payment, only then (React.lazy).
 */
export default function PayPalWalletButtons({
  clientId,
  disabled,
  createOrder,
  onApprove,
  onCancel,
}: {
  clientId: string;
  disabled: boolean;
  /** The PayPal order id of this attempt (created on the server). */
  createOrder: () => Promise<string>;
  onApprove: () => void;
  onCancel: () => void;
}) {
  return (
    <PayPalScriptProvider
      options={{
        clientId,
        currency: WALLET_CURRENCY,
        // The server creates AUTHORIZE orders: it holds, takes stock, then captures.
        intent: 'authorize',
        components: 'buttons',
        disableFunding: ['card', 'credit', 'paylater', 'venmo'],
      }}
    >
      <Buttons
        disabled={disabled}
        createOrder={createOrder}
        onApprove={onApprove}
        onCancel={onCancel}
      />
    </PayPalScriptProvider>
  );
}

function Buttons({
  disabled,
  createOrder,
  onApprove,
  onCancel,
}: {
  disabled: boolean;
  createOrder: () => Promise<string>;
  onApprove: () => void;
  onCancel: () => void;
}) {
  const [{ isPending, isRejected }] = usePayPalScriptReducer();
  if (isRejected) {
    return (
      <p className="text-sm text-error" role="alert">
        {checkoutLabels.paypalFailed}
      </p>
    );
  }
  return (
    <div data-testid="paypal-buttons" aria-busy={isPending}>
      {isPending ? <span className="loading loading-dots" aria-hidden="true" /> : null}
      <PayPalButtons
        style={{ layout: 'horizontal', tagline: false }}
        disabled={disabled}
        forceReRender={[disabled]}
        createOrder={() => createOrder()}
        onApprove={async () => onApprove()}
        onCancel={() => onCancel()}
        onError={() => onCancel()}
      />
    </div>
  );
}
