import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { ResponsiveTable, type Column } from './responsive-table.tsx';

/**
 * The one table of the app (issue 16): a table on wide screens and, from the same cells, a card
 * per row on phones, each value named by its column.
 */

interface Line {
  id: string;
  airline: string;
  amount: number;
  soldOut: boolean;
}

const lines: Line[] = [
  { id: 'a', airline: 'Aurora', amount: 2, soldOut: false },
  { id: 'b', airline: 'Boreal', amount: 0, soldOut: true },
];

const columns: Column<Line>[] = [
  { key: 'airline', header: 'Airline', kind: 'title', rowHeader: true, cell: (l) => l.airline },
  { key: 'amount', header: 'Amount', numeric: true, cell: (l) => l.amount },
  { key: 'hidden-name', header: <b>Odd</b>, cell: () => 'x' },
  { key: 'review', header: 'Review', kind: 'actions', cell: () => <button>Review</button> },
  { key: 'route', header: 'Route', only: 'cards', cell: () => 'A → B' },
  { key: 'origin', header: 'Origin', only: 'table', cell: () => 'A' },
];

function render(extra: Partial<Parameters<typeof ResponsiveTable<Line>>[0]> = {}) {
  return renderToStaticMarkup(
    <ResponsiveTable
      columns={columns}
      rows={lines}
      rowKey={(line) => line.id}
      caption="Order #1"
      testId="lines"
      rowProps={(line) => ({ 'data-testid': 'line', 'data-id': line.id })}
      rowTone={(line) => (line.soldOut ? 'warning' : undefined)}
      {...extra}
    />,
  );
}

test('a value is named by its column on a card, from an attribute (not part of its text)', () => {
  const html = render();
  expect(html).toContain('<caption class="sr-only">Order #1</caption>');
  expect(html).toMatch(
    /<td class="[^"]*max-md:before:content-\[attr\(data-label\)\][^"]*" data-label="Amount">/,
  );
  expect(html).toContain('<span class="max-md:min-w-0 max-md:text-right">2</span>');
  // The title names the card by itself; buttons carry their own names; a header that is not
  // text gives no name.
  expect(html).not.toContain('data-label="Airline"');
  expect(html).not.toContain('data-label="Review"');
  expect(html).not.toContain('data-label="Odd"');
});

test('the header row gives way to the cards on a phone; each column shows where it belongs', () => {
  const html = render();
  expect(html).toContain('<thead class="max-md:hidden">');
  expect(html).toMatch(/<th scope="row" class="[^"]*max-md:order-first[^"]*">Aurora<\/th>/);
  expect(html).toMatch(/<th scope="col" class="hidden">Route<\/th>/);
  expect(html).toMatch(/<td class="[^"]*md:hidden[^"]*" data-label="Route">/);
  expect(html).toMatch(/<th scope="col" class="max-md:hidden">Origin<\/th>/);
});

test('rows keep their own attributes and tone; a wide table switches at lg', () => {
  const html = render({ cardsBelow: 'lg' });
  expect(html).toMatch(/<tr data-testid="line" data-id="b" class="[^"]*bg-warning\/25[^"]*">/);
  expect(html).not.toMatch(/<tr data-testid="line" data-id="a" class="[^"]*bg-warning/);
  expect(html).toContain('<thead class="max-lg:hidden">');
  expect(html).not.toContain('max-md:');
});

test('a row can open details across every column, attached to its card', () => {
  const html = render({
    details: (line) => (line.id === 'a' ? { id: 'details-a', content: <p>More</p> } : null),
  });
  expect(html).toMatch(
    /<tr id="details-a" class="[^"]*"><td colSpan="6" class="[^"]*"><p>More<\/p>/,
  );
  expect(html.match(/<tr id="details-/g)).toHaveLength(1);
  expect(html).toMatch(/data-id="a" class="[^"]*max-md:rounded-b-none/);
});

test('no rows: the empty text across the table', () => {
  const html = render({ rows: [], empty: <p>Nothing yet</p> });
  expect(html).toContain('<td colSpan="6" class="max-md:block"><p>Nothing yet</p></td>');
});
