/**
 * Cart and favourite actions as the screens use them: the local data layer applies the shared
 * rules (features/cart/data, features/favourites/data) and this adds what the user sees, the
 * spec's toasts and error pop-ups. Prices and stock are decided again by the server at checkout.
 */
import { useMemo } from 'react';
import { messages, type CartLine, type Flight } from '@skyport/shared';
import { useCartActions } from '../features/cart/data/cart.ts';
import { useFavouriteActions } from '../features/favourites/data/favourites.ts';
import { showToast } from '../ui/toast.tsx';
import { alertDialog } from '../ui/dialogs.tsx';

function refused(message: string) {
  void alertDialog({ title: messages.oops, text: message });
}

export function useShopActions() {
  const cart = useCartActions();
  const favourites = useFavouriteActions();
  // The same actions at every render: the home page's memoised cards keep theirs.
  return useMemo(
    () => ({
      async addToCart(flight: Flight) {
        const result = await cart.add(flight);
        if (result.ok) showToast(messages.ticketAddedToCart);
        else refused(result.message);
      },
      async increment(line: CartLine) {
        const result = await cart.increment(line.flightId);
        if (!result.ok) refused(result.message);
      },
      async decrement(line: CartLine) {
        await cart.decrement(line.flightId);
      },
      async remove(line: CartLine) {
        await cart.remove(line.flightId);
        showToast(messages.deletedFromCart);
      },
      async clearCart() {
        await cart.clear();
      },
      /** A guest gets "Log in to save your favorites!" (the data layer remembers the attempt). */
      async addFavourite(flight: Flight) {
        const result = await favourites.add(flight);
        if (result.ok) showToast(messages.ticketAddedToFavourites);
        else showToast(result.message, 'warning');
      },
      async removeFavourite(flightId: string) {
        await favourites.remove(flightId);
        showToast(messages.deletedFromFavourites);
      },
    }),
    [cart, favourites],
  );
}
