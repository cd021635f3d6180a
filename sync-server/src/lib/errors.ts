import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Machine-readable error codes, one per kind of failure a client may handle. */
export const ErrorCode = {
  BadRequest: 'bad_request',
  Unauthenticated: 'unauthenticated',
  Forbidden: 'forbidden',
  NotFound: 'not_found',
  Conflict: 'conflict',
  PayloadTooLarge: 'payload_too_large',
  TooManyRequests: 'too_many_requests',
  UpgradeRequired: 'upgrade_required',
  PaymentFailed: 'payment_failed',
  /** The instance is starting or shutting down: retry (another instance may answer). */
  ServiceUnavailable: 'service_unavailable',
  Internal: 'internal',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  upgrade_required: 426,
  payment_failed: 402,
  service_unavailable: 503,
  internal: 500,
};

/** The one error type handlers throw; `app.onError` turns it into `{ code, message }` JSON. */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}
