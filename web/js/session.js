// Which table this phone sits at, kept in local storage so a reload rejoins at once (P-10).
// Only the table id, the device token, the role, the seat and the join code are kept. The
// room display keeps its own place under its own key, beside the phone's in the same browser.

const PHONE = "tilestream.session";
export const DISPLAY = "tilestream.display";

export function loadSession(key = PHONE) {
  try {
    const session = JSON.parse(localStorage.getItem(key));
    return session && session.table && session.token ? session : null;
  } catch {
    return null;
  }
}

export function saveSession(session, key = PHONE) {
  localStorage.setItem(key, JSON.stringify(session));
}

export function forgetSession(key = PHONE) {
  const session = loadSession(key);
  localStorage.removeItem(key);
  if (session) localStorage.removeItem(outboxKey(session));
}

// The commands a device has sent and the server has not answered yet. Keyed by the device,
// not the table: a room display in the same browser sits at the same table.
export const outboxKey = (session) => `tilestream.outbox.${session.token}`;
