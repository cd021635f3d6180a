/**
 * Order line transitions (spec §4 "Order line review"): after a review is sent, every line of that
 * flight in the order becomes reviewed, and the Review button is disabled for those rows.
 */

/** What the order rules need of a line. */
export interface ReviewableLine {
  readonly flightId: string;
  readonly review: boolean;
}

/**
 * The order's lines with every line of `flightId` marked reviewed; other lines are kept as they
 * are. Returns new line objects for changed lines and never mutates the input.
 */
export function markFlightReviewed<L extends ReviewableLine>(
  lines: readonly L[],
  flightId: string,
): L[] {
  return lines.map((line) =>
    line.flightId === flightId && !line.review ? { ...line, review: true } : line,
  );
}

/** Whether the row's Review button is enabled: the line is not reviewed yet. */
export function canReviewLine(line: ReviewableLine): boolean {
  return !line.review;
}
