/** Binary search over sorted arrays, shared by the store's in-memory structures. */
/** Index of the first element of the ascending `xs` for which `isAfter` is true. */
export function searchFirst<T>(xs: readonly T[], isAfter: (x: T) => boolean): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isAfter(xs[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
