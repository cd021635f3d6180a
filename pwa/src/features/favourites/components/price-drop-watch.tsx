import { useEffect } from 'react';
import { useLocalDataIfOpen } from '../../../data/provider.tsx';
import { formatPrice } from '../../../ui/format.ts';
import { showToast } from '../../../ui/toast.tsx';
import { followFavouritePrices, type FavouritePriceDrop } from '../data/price-watch.ts';
import { showSystemNotification } from '../data/price-drop-notifications.ts';
import { favouritesLabels } from '../labels.ts';

/** Long enough to read a route and two prices (the spec's toasts are 3 s confirmations). */
export const PRICE_DROP_TOAST_MS = 10_000;

/** The notice of one sync's drops: the drop itself, or how many when several dropped at once. */
export function priceDropNotice(drops: readonly FavouritePriceDrop[]): string {
  const [drop] = drops;
  if (!drop || drops.length > 1) return favouritesLabels.priceDropsNotice(drops.length);
  return favouritesLabels.priceDropNotice(
    `${drop.origin} → ${drop.destination}`,
    formatPrice(drop.fromCents),
    formatPrice(drop.toCents),
  );
}

function announce(drops: FavouritePriceDrop[]) {
  const notice = priceDropNotice(drops);
  showToast(notice, 'info', PRICE_DROP_TOAST_MS);
  const tag = drops.length === 1 ? `price-drop:${drops[0]!.flightId}:${drops[0]!.toCents}` : notice;
  void showSystemNotification(
    favouritesLabels.priceDropNotificationTitle,
    drops.length === 1 ? notice : favouritesLabels.priceDropsNotificationBody,
    tag,
  );
}

/**
 * Mounted once in the page frame: records the prices of the customer's favourites as they sync
 * and tells the customer when one drops (a notice, and a system notification if allowed).
 * Renders nothing and does not open the local data layer.
 */
export function PriceDropWatch() {
  const data = useLocalDataIfOpen();
  useEffect(() => (data ? followFavouritePrices(data, announce) : undefined), [data]);
  return null;
}
