import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { expect, test } from 'vitest';
import type { Favourite } from '@skyport/shared';
import type { PriceDrop } from '../../../lib/price-history.ts';
import { formatPrice } from '../../../ui/format.ts';
import type { NotificationState } from '../data/price-drop-notifications.ts';
import { favouritesLabels } from '../labels.ts';
import { FavouritesScreen } from './favourites-screen.tsx';
import { priceDropNotice } from './price-drop-watch.tsx';

/**
 * Favourites with price drops (docs/architecture.md §4.9): the "Price dropped" badge with the
 * last price and the new one, only while the price shown is the dropped one, and the way to ask
 * for notifications, which never asks by itself.
 */

const DROPPED = '00000000-0000-4000-8000-00000000000a';
const ROSE_AGAIN = '00000000-0000-4000-8000-00000000000b';
const STEADY = '00000000-0000-4000-8000-00000000000c';

function favourite(flightId: string, priceCents: number): Favourite {
  return {
    flightId,
    airlineId: '00000000-0000-4000-8000-0000000000a1',
    airlineName: 'Aurora Test Airways',
    origin: 'Uruguay',
    destination: 'Paraguay',
    departureDate: '2030-01-01',
    departureHour: '08:30',
    arrivalHour: '10:45',
    priceCents,
    logo: '',
    createdAt: 1,
  };
}

const drop = (flightId: string, fromCents: number, toCents: number): PriceDrop => ({
  flightId,
  fromCents,
  toCents,
  at: 1,
});

function render(state: NotificationState, favourites = [favourite(STEADY, 30_000)]) {
  return renderToStaticMarkup(
    <MemoryRouter>
      <FavouritesScreen
        favourites={favourites}
        onRemove={() => undefined}
        priceDrops={
          new Map([
            [DROPPED, drop(DROPPED, 50_000, 40_000)],
            // The catalogue already shows a newer price than the drop's: no badge.
            [ROSE_AGAIN, drop(ROSE_AGAIN, 50_000, 40_000)],
          ])
        }
        freshness={{ live: true, asOf: null }}
        notifications={{ state, onAsk: () => undefined }}
      />
    </MemoryRouter>,
  );
}

test('a favourite whose price dropped says so, with the last price and the new one', () => {
  const html = render('default', [
    favourite(DROPPED, 40_000),
    favourite(ROSE_AGAIN, 45_000),
    favourite(STEADY, 30_000),
  ]);
  const [, dropped, roseAgain, steady] = html.split('data-testid="favourite"') as [
    string,
    string,
    string,
    string,
  ];
  expect(dropped).toContain('data-testid="favourite-price-drop"');
  expect(dropped).toContain(favouritesLabels.priceDropped);
  expect(dropped).toContain(`<s>${formatPrice(50_000)}</s> → ${formatPrice(40_000)}`);
  expect(dropped).toContain(favouritesLabels.priceDropFromTo('$500.00', '$400.00'));
  expect(roseAgain).not.toContain('favourite-price-drop');
  expect(steady).not.toContain('favourite-price-drop');
});

test('notifications are offered by a button, or say what the browser decided', () => {
  expect(render('default')).toContain('data-testid="notify-price-drops"');
  const granted = render('granted');
  expect(granted).not.toContain('notify-price-drops');
  expect(granted).toContain(favouritesLabels.notificationsOn);
  // (The markup escapes the apostrophe of "browser's".)
  expect(render('denied')).toContain('data-state="denied"');
  expect(render('denied')).toContain('Notifications are blocked for Skyport');
  const unsupported = render('unsupported');
  expect(unsupported).not.toContain('notify-price-drops');
  expect(unsupported).not.toContain('price-drop-notifications');
  // Nothing to be notified about without favourites.
  expect(render('default', [])).not.toContain('notify-price-drops');
});

test('the notice names the route and both prices, or counts several drops', () => {
  const one = { ...drop(DROPPED, 50_000, 40_000), origin: 'Uruguay', destination: 'Paraguay' };
  expect(priceDropNotice([one])).toBe(
    'Price dropped: Uruguay → Paraguay, now $400.00 (was $500.00)',
  );
  expect(priceDropNotice([one, { ...one, flightId: STEADY }])).toBe(
    'Prices dropped on 2 of your favourites',
  );
});
