/**
 * Shop-wide places per window on every weekday (the district's own weekdays still decide where it
 * is served): six trucks of about twenty stops a window. Staff change it per weekday and window
 * and give single districts their own figure.
 */
export const SEED_CAPACITY_PER_WINDOW = 120;
export const SEED_CUTOFF_TIME = "18:00";
