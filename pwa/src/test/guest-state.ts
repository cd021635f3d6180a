import type { CartLine, Theme } from '@skyport/shared';
import type { SkyportDatabase } from '../db/database.ts';
import {
  readFavouriteAttempts,
  readGuestCart,
  readLocalTheme,
  rememberFavouriteAttempt,
  writeGuestCart,
  writeLocalTheme,
} from '../db/local-state.ts';

/** What a device keeps for a guest (db/local-state.ts), whatever the collections' layout. */
export interface GuestState {
  cart: CartLine[];
  favouriteAttempts: string[];
  theme: Theme;
}

export async function readGuestState(db: SkyportDatabase): Promise<GuestState> {
  return {
    cart: await readGuestCart(db),
    favouriteAttempts: await readFavouriteAttempts(db),
    theme: await readLocalTheme(db),
  };
}

export async function writeGuestState(db: SkyportDatabase, state: GuestState): Promise<void> {
  await writeGuestCart(db, state.cart);
  for (const flightId of state.favouriteAttempts) await rememberFavouriteAttempt(db, flightId);
  await writeLocalTheme(db, state.theme);
}
