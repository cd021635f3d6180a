import Chart from 'react-apexcharts/core';
import 'apexcharts/bar';
import 'apexcharts/line';
import 'apexcharts/features/legend';
import type { ApexOptions } from 'apexcharts';
import { SALES_CHART_MONTHS, formatCents, messages, type MonthlySalesTotal } from '@skyport/shared';
import { formatShortPrice } from '../../../ui/format.ts';
import { chartFrame } from '../../../ui/chart-frame.ts';
import { useTheme } from '../../../ui/theme.ts';

/** Months 1 to 12, the chart's labels (spec §2, §9). */
export const MONTH_LABELS = Array.from({ length: SALES_CHART_MONTHS }, (_, index) =>
  String(index + 1),
);

/** Series colours per theme; both pass 3:1 against the daisyUI base colours. */
const PALETTE = {
  light: { sale: '#1d4ed8', tickets: '#c2410c', text: '#334155', grid: '#e2e8f0' },
  dark: { sale: '#93c5fd', tickets: '#fdba74', text: '#cbd5e1', grid: '#334155' },
} as const;

/**
 * The "Sales Chart" (spec §2): months 1–12, Total Sale as columns on the left axis and Tickets
 * sold as a line on the right axis. Loaded lazily (its own chunk with ApexCharts), only on the
 * sales screens. The SVG is hidden from screen readers; the same numbers are in a table beside it.
 */
export function SalesChart({ monthly }: { monthly: readonly MonthlySalesTotal[] }) {
  const theme = useTheme();
  const colors = PALETTE[theme];
  const series = [
    {
      name: messages.salesChartTotalSale,
      type: 'column',
      data: monthly.map((point) => Number(formatCents(point.amountCents))),
    },
    {
      name: messages.salesChartTicketsSold,
      type: 'line',
      data: monthly.map((point) => point.tickets),
    },
  ];
  const options: ApexOptions = {
    chart: chartFrame('skyport-sales-chart', colors.text),
    theme: { mode: theme },
    colors: [colors.sale, colors.tickets],
    stroke: { width: [0, 3], curve: 'straight' },
    markers: { size: [0, 4] },
    dataLabels: { enabled: false },
    grid: { borderColor: colors.grid },
    legend: { position: 'top', horizontalAlign: 'center' },
    xaxis: { categories: MONTH_LABELS, title: { text: undefined } },
    yaxis: [
      {
        seriesName: messages.salesChartTotalSale,
        title: { text: messages.salesChartTotalSale },
        min: 0,
        forceNiceScale: true,
        labels: {
          formatter: (value: number) => formatShortPrice(Math.round(value * 100)),
        },
      },
      {
        seriesName: messages.salesChartTicketsSold,
        opposite: true,
        title: { text: messages.salesChartTicketsSold },
        min: 0,
        forceNiceScale: true,
        labels: { formatter: (value: number) => String(Math.round(value)) },
      },
    ],
    tooltip: { theme },
  };
  return (
    <div aria-hidden="true" data-testid="sales-chart-canvas">
      <Chart key={theme} type="line" height={320} series={series} options={options} />
    </div>
  );
}
