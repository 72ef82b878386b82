// Moments the server sends as ms since the epoch, said as the phone's language writes a date
// and a time (a simultaneous's windows, and its refusals: "opens at 4 Dec 2026, 20:00").

import { formatOf } from "./i18n.js";

// A moment (ms since the epoch) as the phone's language writes a date and time.
export function when(ms) {
  return formatOf(Intl.DateTimeFormat, { dateStyle: "medium", timeStyle: "short" })
    .format(new Date(ms));
}
