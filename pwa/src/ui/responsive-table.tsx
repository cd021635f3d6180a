import {
  Fragment,
  useEffect,
  useRef,
  useState,
  type HTMLAttributes,
  type ReactNode,
  type RefObject,
} from 'react';
import { uiLabels } from './labels.ts';

/**
 * Every table of the app (My Orders, the administrator's lists, the business overview, the
 * airline's flights) in one building block (issue 16): a table on wide screens, one card per row
 * on narrow ones, from the same markup. Below the breakpoint the header row is hidden and each
 * cell shows its column's name in front of its value (generated content from `data-label`: read
 * by screen readers, not part of the cell's text); the row's title cell heads the card and its
 * buttons line up at the bottom. A table wider than its space scrolls sideways, and then says so
 * (faded edges and a hint), so that no column is cut off without a clue.
 */

export interface Column<Row> {
  key: string;
  /** The header cell: the column's name, or a control (the catalogue's "select the page"). */
  header: ReactNode;
  /** The name shown in front of the value on a card: `header` when that is text; null for none. */
  label?: string | null;
  cell: (row: Row) => ReactNode;
  /**
   * On a card: `title` heads it (no name in front), `select` is a checkbox beside the title,
   * `actions` are buttons along the bottom; `field` (default) is a named value on a line.
   */
  kind?: 'title' | 'select' | 'field' | 'actions';
  /** Amounts: aligned right in the table. */
  numeric?: boolean;
  /** A column of the table only, or of the cards only (a card's title joins what columns split). */
  only?: 'table' | 'cards';
  /** The cell that names its row (`<th scope="row">`). */
  rowHeader?: boolean;
  /** Extra classes of the header cell and of the body cells. */
  headerClassName?: string;
  className?: string;
  /** `data-testid` of the body cells. */
  testId?: string;
}

/** Attributes of a row element: handlers, ARIA, `tabIndex`, `data-*`, classes (added to ours). */
export type RowAttributes = Omit<HTMLAttributes<HTMLTableRowElement>, 'children'> &
  Partial<Record<`data-${string}`, string | number | boolean | undefined>>;

/** How a row stands out: sold out (warning), checked (selected), waiting for the server (muted). */
export type RowTone = 'warning' | 'selected' | 'muted';

export interface ResponsiveTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** The table's caption for screen readers (also the name of its scrolling region). */
  caption: string;
  /** Rows become cards below this width (`lg` for wide tables such as the business overview). */
  cardsBelow?: 'md' | 'lg';
  /** daisyUI size classes of the table. */
  size?: string;
  /** A border around the table (not the cards) when it stands alone on the page. */
  framed?: boolean;
  testId?: string;
  rowProps?: (row: Row) => RowAttributes;
  rowTone?: (row: Row) => RowTone | undefined;
  /** What a row shows under it across every column (My Orders' "More info"), or null. */
  details?: (row: Row) => { id: string; content: ReactNode } | null;
  /** Shown instead of the rows when there are none. */
  empty?: ReactNode;
}

/**
 * The classes of the card layout, per breakpoint. Written out in full (not built from the
 * breakpoint's name) because Tailwind only generates the classes it finds in the source.
 */
const CARDS = {
  md: {
    table: 'max-md:block',
    thead: 'max-md:hidden',
    tbody: 'max-md:flex max-md:flex-col max-md:gap-3',
    row: 'max-md:flex max-md:flex-wrap max-md:items-center max-md:gap-x-3 max-md:rounded-box max-md:border max-md:border-base-300 max-md:p-3 max-md:text-sm max-md:shadow-sm',
    rowOpen: 'max-md:rounded-b-none',
    details:
      'max-md:-mt-3 max-md:block max-md:rounded-b-box max-md:border max-md:border-t-0 max-md:border-base-300 max-md:p-3',
    detailsCell: 'max-md:block max-md:p-0',
    title:
      'max-md:order-first max-md:min-w-0 max-md:flex-1 max-md:border-b max-md:border-base-content/5 max-md:px-0 max-md:pb-1 max-md:font-semibold',
    select: 'max-md:order-first max-md:border-b-0 max-md:p-0',
    field:
      'max-md:flex max-md:w-full max-md:items-baseline max-md:justify-between max-md:gap-3 max-md:border-b max-md:border-base-content/5 max-md:px-0 max-md:py-1',
    actions:
      'max-md:flex max-md:flex-wrap max-md:items-center max-md:gap-2 max-md:border-b-0 max-md:px-0 max-md:pt-2',
    label: 'max-md:before:text-base-content/70 max-md:before:content-[attr(data-label)]',
    value: 'max-md:min-w-0 max-md:text-right',
    tableOnly: 'max-md:hidden',
    cardsOnly: 'md:hidden',
    frame: 'md:rounded-box md:border md:border-base-300 md:bg-base-100',
    empty: 'max-md:block',
  },
  lg: {
    table: 'max-lg:block',
    thead: 'max-lg:hidden',
    tbody: 'max-lg:flex max-lg:flex-col max-lg:gap-3',
    row: 'max-lg:flex max-lg:flex-wrap max-lg:items-center max-lg:gap-x-3 max-lg:rounded-box max-lg:border max-lg:border-base-300 max-lg:p-3 max-lg:text-sm max-lg:shadow-sm',
    rowOpen: 'max-lg:rounded-b-none',
    details:
      'max-lg:-mt-3 max-lg:block max-lg:rounded-b-box max-lg:border max-lg:border-t-0 max-lg:border-base-300 max-lg:p-3',
    detailsCell: 'max-lg:block max-lg:p-0',
    title:
      'max-lg:order-first max-lg:min-w-0 max-lg:flex-1 max-lg:border-b max-lg:border-base-content/5 max-lg:px-0 max-lg:pb-1 max-lg:font-semibold',
    select: 'max-lg:order-first max-lg:border-b-0 max-lg:p-0',
    field:
      'max-lg:flex max-lg:w-full max-lg:items-baseline max-lg:justify-between max-lg:gap-3 max-lg:border-b max-lg:border-base-content/5 max-lg:px-0 max-lg:py-1',
    actions:
      'max-lg:flex max-lg:flex-wrap max-lg:items-center max-lg:gap-2 max-lg:border-b-0 max-lg:px-0 max-lg:pt-2',
    label: 'max-lg:before:text-base-content/70 max-lg:before:content-[attr(data-label)]',
    value: 'max-lg:min-w-0 max-lg:text-right',
    tableOnly: 'max-lg:hidden',
    cardsOnly: 'lg:hidden',
    frame: 'lg:rounded-box lg:border lg:border-base-300 lg:bg-base-100',
    empty: 'max-lg:block',
  },
} as const;

const TONES: Readonly<Record<RowTone, string>> = {
  warning: 'bg-warning/25',
  selected: 'bg-primary/10',
  muted: 'opacity-60',
};

const classes = (...names: (string | false | null | undefined)[]) =>
  names.filter(Boolean).join(' ');

/** Whether the element can scroll further left (start) or right (end). */
function useScrollEdges(ref: RefObject<HTMLElement | null>) {
  const [edges, setEdges] = useState({ start: false, end: false });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      const max = element.scrollWidth - element.clientWidth;
      const start = element.scrollLeft > 1;
      const end = max - element.scrollLeft > 1;
      setEdges((before) =>
        before.start === start && before.end === end ? before : { start, end },
      );
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, [ref]);
  return edges;
}

export function ResponsiveTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  cardsBelow = 'md',
  size = 'table-sm md:table-md',
  framed = false,
  testId,
  rowProps,
  rowTone,
  details,
  empty,
}: ResponsiveTableProps<Row>) {
  const layout = CARDS[cardsBelow];
  const scroller = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(scroller);
  const overflowing = edges.start || edges.end;
  const only = (column: Column<Row>) =>
    column.only === 'table' ? layout.tableOnly : column.only === 'cards' ? layout.cardsOnly : '';

  const renderCell = (column: Column<Row>, row: Row) => {
    const kind = column.kind ?? 'field';
    const label =
      column.label === undefined
        ? typeof column.header === 'string'
          ? column.header
          : null
        : column.label;
    const labelled = kind === 'field' && label !== null;
    const Cell = column.rowHeader ? 'th' : 'td';
    return (
      <Cell
        key={column.key}
        scope={column.rowHeader ? 'row' : undefined}
        className={classes(
          layout[kind],
          only(column),
          column.numeric && 'text-right',
          column.rowHeader && 'font-normal',
          labelled && layout.label,
          column.className,
        )}
        data-label={labelled ? label : undefined}
        data-testid={column.testId}
      >
        {labelled ? <span className={layout.value}>{column.cell(row)}</span> : column.cell(row)}
      </Cell>
    );
  };

  return (
    <div className={classes(framed && layout.frame)}>
      {overflowing ? (
        <p className="px-2 py-1 text-right text-xs text-base-content/70" data-testid="scroll-hint">
          {uiLabels.scrollSideways}
          <span aria-hidden="true"> ↔</span>
        </p>
      ) : null}
      <div className="relative">
        <div
          ref={scroller}
          className="overflow-x-auto"
          // A region that scrolls must be reachable by keyboard (and named) to be scrolled.
          role={overflowing ? 'region' : undefined}
          aria-label={overflowing ? caption : undefined}
          tabIndex={overflowing ? 0 : undefined}
        >
          <table className={classes('table', size, layout.table)} data-testid={testId}>
            <caption className="sr-only">{caption}</caption>
            <thead className={layout.thead}>
              <tr>
                {columns.map((column) => (
                  <th
                    key={column.key}
                    scope="col"
                    className={classes(
                      column.only === 'cards' && 'hidden',
                      column.only === 'table' && layout.tableOnly,
                      column.numeric && 'text-right',
                      column.headerClassName,
                    )}
                  >
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className={layout.tbody}>
              {rows.length === 0 && empty !== undefined ? (
                <tr className={layout.empty}>
                  <td colSpan={columns.length} className={layout.empty}>
                    {empty}
                  </td>
                </tr>
              ) : (
                rows.map((row) => {
                  const extra = details?.(row) ?? null;
                  const tone = rowTone?.(row);
                  const { className, ...attributes } = rowProps?.(row) ?? {};
                  return (
                    <Fragment key={rowKey(row)}>
                      <tr
                        {...attributes}
                        className={classes(
                          layout.row,
                          extra && layout.rowOpen,
                          tone && TONES[tone],
                          className,
                        )}
                      >
                        {columns.map((column) => renderCell(column, row))}
                      </tr>
                      {extra ? (
                        <tr id={extra.id} className={classes('bg-base-200', layout.details)}>
                          <td colSpan={columns.length} className={layout.detailsCell}>
                            {extra.content}
                          </td>
                        </tr>
                      ) : null}
                    </Fragment>
                  );
                })
              )}
            </tbody>
          </table>
        </div>
        {overflowing ? (
          <>
            <div
              aria-hidden="true"
              className={classes(
                'pointer-events-none absolute inset-y-0 left-0 w-8 bg-linear-to-r from-base-content/15 to-transparent transition-opacity',
                !edges.start && 'opacity-0',
              )}
            />
            <div
              aria-hidden="true"
              className={classes(
                'pointer-events-none absolute inset-y-0 right-0 w-8 bg-linear-to-l from-base-content/15 to-transparent transition-opacity',
                !edges.end && 'opacity-0',
              )}
            />
          </>
        ) : null}
      </div>
    </div>
  );
}
