import type { ApexOptions } from 'apexcharts';

/**
 * The frame of Skyport's charts (the airline's sales, a flight's price history): still (no
 * toolbar, zoom or animation), in the page's font and the theme's text colour. Each chart is
 * hidden from assistive technology, its numbers being told beside it in text, so none of its
 * parts may take keyboard focus either.
 */
export function chartFrame(id: string, textColor: string): ApexOptions['chart'] {
  return {
    id,
    type: 'line',
    background: 'transparent',
    foreColor: textColor,
    toolbar: { show: false },
    zoom: { enabled: false },
    animations: { enabled: false },
    fontFamily: 'inherit',
    accessibility: { enabled: false, keyboard: { enabled: false } },
  };
}
