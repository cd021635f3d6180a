import { useEffect, useRef, useState } from 'react';
import { ticketLabels } from '../../../ui/ticket-labels.ts';

/** The Shape Detection API's barcode detector (Chromium-based browsers; not in TypeScript's DOM). */
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type BarcodeDetectorConstructor = new (options?: { formats?: string[] }) => BarcodeDetectorLike;

function detectorConstructor(): BarcodeDetectorConstructor | undefined {
  return (window as unknown as { BarcodeDetector?: BarcodeDetectorConstructor }).BarcodeDetector;
}

/** Whether this browser can scan a QR code with the camera (else the page offers pasting only). */
export function canScanQrCodes(): boolean {
  return (
    typeof window !== 'undefined' &&
    detectorConstructor() !== undefined &&
    typeof navigator.mediaDevices?.getUserMedia === 'function'
  );
}

const SCAN_EVERY_MS = 250;

/**
 * A button that opens the camera and reads a QR code with the browser's BarcodeDetector; the first
 * code seen goes to `onCode` and the camera stops. Only shown where `canScanQrCodes()`.
 */
export function QrScanner({ onCode }: { onCode: (code: string) => void }) {
  const [scanning, setScanning] = useState(false);
  const [failed, setFailed] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  // The latest callback, without restarting the camera when the caller renders again.
  const deliver = useRef(onCode);
  useEffect(() => {
    deliver.current = onCode;
  });

  useEffect(() => {
    const Detector = detectorConstructor();
    if (!scanning || !Detector) return;
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const detector = new Detector({ formats: ['qr_code'] });
    const scan = async () => {
      const element = video.current;
      if (stopped || !element) return;
      try {
        const [found] = await detector.detect(element);
        if (found?.rawValue && !stopped) {
          setScanning(false);
          deliver.current(found.rawValue);
          return;
        }
      } catch {
        // A frame that is not ready yet: try the next one.
      }
      timer = setTimeout(() => void scan(), SCAN_EVERY_MS);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then(async (opened) => {
        stream = opened;
        if (stopped || !video.current) return;
        video.current.srcObject = opened;
        await video.current.play();
        void scan();
      })
      .catch(() => {
        if (stopped) return;
        setFailed(true);
        setScanning(false);
      });
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [scanning]);

  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        className="btn btn-outline"
        aria-pressed={scanning}
        onClick={() => {
          setFailed(false);
          setScanning(!scanning);
        }}
        data-testid="scan-ticket"
      >
        {scanning ? ticketLabels.scanStop : ticketLabels.scan}
      </button>
      {scanning ? (
        <>
          <p className="text-sm" role="status">
            {ticketLabels.scanning}
          </p>
          <video
            ref={video}
            className="w-full max-w-sm rounded-box bg-base-300"
            muted
            playsInline
            aria-label={ticketLabels.scanVideo}
          />
        </>
      ) : null}
      {failed ? (
        <p className="text-sm text-error" role="alert">
          {ticketLabels.scanFailed}
        </p>
      ) : null}
    </div>
  );
}
