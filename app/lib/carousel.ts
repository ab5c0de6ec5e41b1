/** Carousel index arithmetic: always wraps (spec §4 Carousel). */
export function wrapIndex(index: number, length: number): number {
  if (length <= 0) return 0;
  return ((index % length) + length) % length;
}

/** Spec §9: auto-advance every 3500 ms, only when there is more than one slide. */
export const CAROUSEL_INTERVAL_MS = 3500;
