// Points typed by hand, on the classic sheet, in the penalty panel and in duplicate cells:
// whole numbers up to the most one line may hold (SHC-12; the server checks it too).

export const MAX_POINTS = 2000;

// A whole number from low to MAX_POINTS in a field's text, or null.
export function wholePoints(text, low = 0) {
  const typed = String(text).trim();
  const value = /^\d{1,5}$/.test(typed) ? Number(typed) : NaN;
  return value >= low && value <= MAX_POINTS ? value : null;
}
