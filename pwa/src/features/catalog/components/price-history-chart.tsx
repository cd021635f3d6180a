import Chart from 'react-apexcharts/core';
import 'apexcharts/line';
import type { ApexOptions } from 'apexcharts';
import type { PriceHistory } from '../../../lib/price-history.ts';
import {
  formatInstantDay,
  formatInstantTime,
  formatShortPrice,
  formatTimestamp,
} from '../../../ui/format.ts';
import { chartFrame } from '../../../ui/chart-frame.ts';
import { useTheme } from '../../../ui/theme.ts';
import { uiLabels } from '../../../ui/labels.ts';

/** The line's colours per theme (the sales chart's blue), readable on the daisyUI base colours. */
const PALETTE = {
  light: { line: '#1d4ed8', text: '#334155', grid: '#e2e8f0' },
  dark: { line: '#93c5fd', text: '#cbd5e1', grid: '#334155' },
} as const;

/**
 * A favourite flight's price as this device saw it change (docs/architecture.md §4.9): one point
 * per recorded price, a step line between them (a price holds until it changes). Loaded lazily
 * with ApexCharts, only when there are two points or more. The SVG is hidden from screen readers;
 * the same points are in a table beside it.
 */
export function PriceHistoryChart({ history }: { history: PriceHistory }) {
  const theme = useTheme();
  const colors = PALETTE[theme];
  const first = history[0]?.at ?? 0;
  const withinADay = (history.at(-1)?.at ?? first) - first < 86_400_000;
  const series = [
    {
      name: uiLabels.price,
      data: history.map((point) => ({ x: point.at, y: point.priceCents / 100 })),
    },
  ];
  const options: ApexOptions = {
    chart: chartFrame('skyport-price-history', colors.text),
    theme: { mode: theme },
    colors: [colors.line],
    stroke: { width: 3, curve: 'stepline' },
    markers: { size: 5 },
    dataLabels: { enabled: false },
    grid: { borderColor: colors.grid },
    legend: { show: false },
    xaxis: {
      type: 'datetime',
      tickAmount: 2,
      labels: {
        // Times of day when the points lie within a day, else days: short, never rotated.
        formatter: (value: string) =>
          withinADay ? formatInstantTime(Number(value)) : formatInstantDay(Number(value)),
        rotate: 0,
        hideOverlappingLabels: true,
      },
      tooltip: { enabled: false },
    },
    yaxis: {
      forceNiceScale: true,
      labels: { formatter: (value: number) => formatShortPrice(Math.round(value * 100)) },
    },
    tooltip: { theme, x: { formatter: (value: number) => formatTimestamp(value) } },
  };
  return (
    <div aria-hidden="true" data-testid="price-history-canvas" data-points={history.length}>
      <Chart key={theme} type="line" height={220} series={series} options={options} />
    </div>
  );
}
