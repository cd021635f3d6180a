import { useMemo } from 'react';
import { create } from 'qrcode';

/** The quiet zone around a QR code, in modules (ISO/IEC 18004 asks for 4). */
const QUIET_ZONE = 4;

/**
 * A QR code of `value` as an SVG (one path of dark modules, `qrcode` computes the symbol): crisp
 * at any size, drawn without a canvas or an inline image, so it shows under the strict CSP and
 * offline. Always dark on white, whatever the theme: scanners read that best.
 */
export function TicketQr({
  value,
  title,
  className = '',
}: {
  value: string;
  /** The accessible name of the image. */
  title: string;
  className?: string;
}) {
  const { size, path } = useMemo(() => {
    // Medium error correction: a ticket (about 700 characters) stays a symbol a phone reads well.
    const { modules } = create(value, { errorCorrectionLevel: 'M' });
    let d = '';
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        if (modules.get(row, col)) d += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
      }
    }
    return { size: modules.size + 2 * QUIET_ZONE, path: d };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={title}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={`rounded-box bg-white ${className}`}
      data-testid="ticket-qr"
    >
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
