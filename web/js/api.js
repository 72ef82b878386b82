// HTTP calls to the table server. A refusal comes back as an Error with the server's code.

export class Refused extends Error {
  constructor(code, params = {}, message = "") {
    super(message || code);
    this.code = code;
    this.params = params;
  }
}

export async function call(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  let answer;
  try {
    answer = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Refused("offline");
  }
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Refused(data.code || "unknown", data.params || {}, data.message);
  return data;
}

export const createTable = () => call("/api/tables", { method: "POST" });

export const joinTable = (code, role, seat) =>
  call("/api/join", { method: "POST", body: { code, role, seat: role === "player" ? seat : null } });

export const tableView = (session) =>
  call(`/api/tables/${session.table}/view`, { token: session.token });

// Score a move with no table (P-13): the server answers, the phone never scores itself.
export const score = (edition, move, rows, check) =>
  call("/api/score", { method: "POST", body: { edition, move, rows: rows || [], check } });

// How far this phone's clock is from the server's, from the middle of one round trip.
export async function clockOffset() {
  const sent = Date.now();
  const { now } = await call("/api/time");
  return now - (sent + Date.now()) / 2;
}
