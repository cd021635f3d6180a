/** Business constants and limits of spec §9. Money is in cents (integer minor units). */

/** Flights per page on the home screen. */
export const HOME_PAGE_SIZE = 6;
/** Rows per page in an airline's catalogue table. */
export const CATALOG_PAGE_SIZE = 5;
/** Below this many tickets a flight card warns "Solo {n} asientos disponibles!". */
export const LOW_STOCK_THRESHOLD = 50;

/** Price band edges of the home slider, in cents: up to 20.000, 20.000 to 40.000, from 40.000 up. */
export const PRICE_BAND_LOW_MAX_CENTS = 20_000_00;
export const PRICE_BAND_MID_MAX_CENTS = 40_000_00;

/** Fee: 0.1 % of the subtotal, i.e. 1 / 1000. */
export const FEE_RATE_NUMERATOR = 1;
export const FEE_RATE_DENOMINATOR = 1000;

/** Toast durations in milliseconds. */
export const TOAST_MS = 3000;
export const TOAST_LOGOUT_MS = 2000;
export const TOAST_FEEDBACK_MS = 1000;
/** /success moves to /purchases after this many milliseconds. */
export const SUCCESS_REDIRECT_MS = 4000;

export const NAME_MAX_LENGTH = 40;
export const PASSWORD_MIN_LENGTH = 8;
export const DURATION_MAX_LENGTH = 5;
export const PRICE_MIN = 1;
export const STOCK_MIN = 1;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
/** The sales chart has one label per month, 1 to 12. */
export const SALES_CHART_MONTHS = 12;
/** Width of the airline's flight edit modal, in CSS pixels. */
export const FLIGHT_MODAL_WIDTH = 800;
/** The wallet order currency. */
export const WALLET_CURRENCY = 'USD';
