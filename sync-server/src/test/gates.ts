// Holding work open and asking whether something answered, for tests of what waits on what.

/** Whether `answer` settles within `ms`. */
export async function answersWithin(answer: unknown, ms: number): Promise<boolean> {
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));
  return Promise.race([Promise.resolve(answer).then(() => true), timeout]);
}
