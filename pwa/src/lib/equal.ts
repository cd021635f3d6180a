/** Whether two objects have the same values under the same keys (one level deep, `Object.is`). */
export function shallowEqual<T extends object>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  const keys = Object.keys(a) as (keyof T)[];
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && Object.is(a[key], b[key]))
  );
}

/** Whether two lists hold shallowly equal objects in the same order. */
export function sameItems<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, index) => shallowEqual(item, b[index] as T));
}
