// The tiles a player laid and has not sent yet, kept over a reload (a phone that locks and
// drops the tab, a low-memory phone switching apps): an online game's move (play.js) and a
// duplicate room's slip (slip.js), the slip typed instead kept beside its tiles. One draft
// per place at a table (session.draftKey: the device's token, so its table and seat), what
// it was laid for named in it (rack.saved: the turn or the round) with the rack it was laid
// from; laid again only over that same rack (rack.restore), else dropped without a word.
// The phone's own: never sent.

import * as rack from "./rack.js";
import { draftKey } from "./session.js";
import { app } from "./state.js";

let written = null; // {key, text} written last, not to write it again on every redraw

// Lay the draft kept for this phone's place again over `d`, which just followed a new rack
// (rack.follow); the draft when it fitted (its `typed` is of the same rack then), else null.
export function restoreDraft(d) {
  let kept = null;
  try {
    kept = app.session ? JSON.parse(localStorage.getItem(draftKey(app.session))) : null;
  } catch {
    // not a draft: none
  }
  return rack.restore(d, kept) ? kept : null;
}

// Keep the draft `d` for this phone's place, as it lies now, and `typed`: a slip typed
// instead (slip.js; none in an online game).
export function keepDraft(d, typed) {
  if (!app.session) return;
  const key = draftKey(app.session);
  const text = JSON.stringify({ ...rack.saved(d), typed });
  if (written?.key === key && written.text === text) return;
  try {
    localStorage.setItem(key, text);
    written = { key, text };
  } catch {
    // storage full: the tiles stay laid until a reload
  }
}
