import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { expect, test } from 'vitest';
import { calculateCartTotals, type CartLine, type Favourite } from '@skyport/shared';
import { formatPrice } from '../../../ui/format.ts';
import { uiLabels } from '../../../ui/labels.ts';
import { FavouritesScreen } from '../../favourites/components/favourites-screen.tsx';
import { CartScreen } from './cart-screen.tsx';

/**
 * How the cart and favourites show a flight that was deleted (issue 14): marked "No longer
 * available", not silently hidden, out of the total, and with nothing to do but remove it.
 */

const GONE = '00000000-0000-4000-8000-00000000000a';
const KEPT = '00000000-0000-4000-8000-00000000000b';

function line(flightId: string, extra: Partial<CartLine> = {}): CartLine {
  return {
    flightId,
    airlineId: '00000000-0000-4000-8000-0000000000a1',
    airlineName: 'Aurora Test Airways',
    origin: 'Argentina',
    destination: 'Chile',
    priceCents: 12_345,
    logo: '',
    departureHour: '08:30',
    arrivalHour: '10:45',
    tickets: 10,
    amount: 2,
    ...extra,
  };
}

const noop = () => undefined;

function renderCart(lines: CartLine[]) {
  const html = renderToStaticMarkup(
    <CartScreen
      lines={lines}
      totals={calculateCartTotals(lines)}
      onIncrement={noop}
      onDecrement={noop}
      onRemove={noop}
      onCheckout={noop}
    />,
  );
  // One chunk per cart line, then what follows the list (the summary).
  const [, ...chunks] = html.split('data-testid="cart-line"');
  return { html, lines: chunks };
}

test("a deleted flight's cart line is marked, cannot be changed, and is out of the total", () => {
  const { html, lines } = renderCart([line(GONE, { flightDeleted: true, tickets: 0 }), line(KEPT)]);
  const [gone, kept] = lines as [string, string];
  expect(gone).toContain('data-available="false"');
  expect(gone).toContain(uiLabels.noLongerAvailable);
  // Minus and plus disabled; remove stays.
  expect(gone.match(/data-testid="cart-(minus|plus)"/g)).toHaveLength(2);
  expect(gone.match(/disabled=""[^>]*data-testid="cart-(minus|plus)"/g)).toHaveLength(2);
  expect(gone).toMatch(/data-testid="cart-remove"/);
  expect(kept).not.toContain(uiLabels.noLongerAvailable);
  expect(kept.match(/disabled=""[^>]*data-testid="cart-plus"/g)).toBeNull();
  // Total: the listed line only (2 × 123.45 + 0.1 % fee), and a note saying why.
  expect(html).toContain('data-testid="cart-unavailable-note"');
  expect(html).toContain(uiLabels.unavailableNotInTotal(1));
  const listedOnly = calculateCartTotals([line(KEPT)]);
  expect(html).toContain(`data-testid="total">${formatPrice(listedOnly.totalCents)}<`);
  expect(html).toContain(`data-testid="subtotal">${formatPrice(24_690)}<`);
  expect(html.match(/disabled=""[^>]*data-testid="checkout"/g)).toBeNull();
});

test('a cart of deleted flights only cannot go to checkout', () => {
  const { html } = renderCart([line(GONE, { flightDeleted: true, tickets: 0 })]);
  expect(html).toMatch(/disabled=""[^>]*data-testid="checkout"/);
  expect(html).toContain(`data-testid="total">${formatPrice(0)}<`);
});

test("a deleted flight's favourite is marked and keeps only its remove button", () => {
  const favourite = (flightId: string, extra: Partial<Favourite> = {}): Favourite => ({
    flightId,
    airlineId: '00000000-0000-4000-8000-0000000000a1',
    airlineName: 'Aurora Test Airways',
    origin: 'Argentina',
    destination: 'Chile',
    departureDate: '2030-01-01',
    departureHour: '08:30',
    arrivalHour: '10:45',
    priceCents: 12_345,
    logo: '',
    createdAt: 1,
    ...extra,
  });
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <FavouritesScreen
        favourites={[favourite(GONE, { flightDeleted: true }), favourite(KEPT)]}
        onRemove={noop}
      />
    </MemoryRouter>,
  );
  const [, gone, kept] = html.split('data-testid="favourite"') as [string, string, string];
  expect(gone).toContain('data-available="false"');
  expect(gone).toContain(uiLabels.noLongerAvailable);
  expect(gone).not.toContain(`/ticket/${GONE}`);
  expect(gone).toContain('data-testid="remove-favourite"');
  expect(kept).toContain(`/ticket/${KEPT}`);
  expect(kept).not.toContain(uiLabels.noLongerAvailable);
});
