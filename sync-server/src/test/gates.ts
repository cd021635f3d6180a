// Holding work open and asking whether something answered, for tests of what waits on what.

/** A promise and its resolve, to hold work open until the test lets it finish. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Whether `answer` settles within `ms`. */
export async function answersWithin(answer: unknown, ms: number): Promise<boolean> {
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));
  return Promise.race([Promise.resolve(answer).then(() => true), timeout]);
}
