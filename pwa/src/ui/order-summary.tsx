import { specLabels, type Totals } from '@skyport/shared';
import { formatPrice } from './format.ts';
import { uiLabels } from './labels.ts';
import { TitledCard } from './page-section.tsx';

/** Subtotal, fee (0.1 %, 2 decimals) and total, from the shared pricing rules. */
export function OrderSummary({ totals, children }: { totals: Totals; children?: React.ReactNode }) {
  return (
    <TitledCard as="aside" title={uiLabels.orderSummary} className="h-fit bg-base-200">
      <dl className="flex flex-col gap-1" data-testid="order-summary">
        <div className="flex justify-between">
          <dt>{specLabels.subtotal}</dt>
          <dd data-testid="subtotal">{formatPrice(totals.subtotalCents)}</dd>
        </div>
        <div className="flex justify-between">
          <dt>{specLabels.fee}</dt>
          <dd data-testid="fee">{formatPrice(totals.feeCents)}</dd>
        </div>
        <div className="flex justify-between border-t border-base-300 pt-2 text-lg font-bold">
          <dt>{specLabels.total}</dt>
          <dd data-testid="total">{formatPrice(totals.totalCents)}</dd>
        </div>
      </dl>
      {children}
    </TitledCard>
  );
}
