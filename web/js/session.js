// Which table this phone sits at, kept in local storage so a reload rejoins at once (P-10).
// Only the table id, the device token, the role, the seat and the join code are kept. The
// room display keeps its own place under its own key, beside the phone's in the same browser.

export const PHONE = "tilestream.session";
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
  if (session && key === PHONE) localStorage.removeItem(`tilestream.outbox.${session.table}`);
}
