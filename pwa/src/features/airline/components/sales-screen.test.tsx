import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { calculateMonthlySalesTotals } from '@skyport/shared';
import { formatDate, formatHour, formatPrice } from '../../../ui/format.ts';
import type { ShownSale } from '../data/sales.ts';
import { SalesPanel } from './sales-screen.tsx';

/** A sale card names its flight by route and departure; the id stays for reference (issue 16). */

const FLIGHT = '00000000-0000-4000-8000-0000000000f1';
const GONE = '00000000-0000-4000-8000-0000000000f2';

const sale = (id: number, idFlight: string, flight: ShownSale['flight']): ShownSale => ({
  id: `00000000-0000-4000-8000-00000000000${id}`,
  airlineId: '00000000-0000-4000-8000-0000000000a1',
  idFlight,
  priceCents: 150_00,
  amount: 2,
  createdAt: Date.UTC(2027, 0, 10, 12),
  flight,
});

function renderSales(sales: ShownSale[]) {
  return renderToStaticMarkup(
    <SalesPanel
      view={{ loading: false, sales, year: 2027, monthly: calculateMonthlySalesTotals(sales) }}
      online
    />,
  );
}

const cards = (html: string) => html.split('data-testid="sale-card"').slice(1);

test('a sale card shows the route and the departure, and keeps the flight id', () => {
  const [card] = cards(
    renderSales([
      sale(1, FLIGHT, {
        origin: 'Iceland',
        destination: 'Mongolia',
        departureDate: '2027-02-06',
        departureHour: '08:15',
      }),
    ]),
  );
  expect(card).toContain('data-testid="sale-flight"');
  expect(card).toMatch(/Iceland<\/span><span aria-hidden="true">→<\/span>/);
  expect(card).toContain('Mongolia');
  expect(card).toContain(formatDate('2027-02-06'));
  expect(card).toContain(formatHour('08:15'));
  expect(card).toContain(FLIGHT);
  expect(card).toContain(`data-testid="sale-total">${formatPrice(300_00)}<`);
});

test("a sale whose flight is not on the device is named by the flight's id alone", () => {
  const [card] = cards(renderSales([sale(2, GONE, null)]));
  expect(card).not.toContain('data-testid="sale-flight"');
  expect(card).toContain(GONE);
  expect(card).toContain('data-testid="sale-amount">2<');
});

test('while its flight is looked up, a sale card already shows and keeps room for the route', () => {
  const [card] = cards(renderSales([sale(3, FLIGHT, undefined)]));
  expect(card).toContain('<p class="h-11" aria-hidden="true"></p>');
  expect(card).not.toContain('data-testid="sale-flight"');
  expect(card).toContain(FLIGHT);
});
