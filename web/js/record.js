// The game sheet to publish (issue 25, item 7): once a duplicate game has ended, its record
// as JSON (which imports again as training), the result list as CSV, and the A4 print of
// the whole sheet. The server decides who may have them (server/http/records.py); a
// download needs the device's token, so it is fetched and handed to the browser as a file.

import { Refused, call } from "./api.js";
import { language, t } from "./i18n.js";
import { loadSession } from "./session.js";
import { h, sayRefusal } from "./ui.js";

export function recordActions() {
  return [
    h("button", { type: "button", class: "record-json", onclick: () => download("json") },
      t("record.json")),
    h("button", { type: "button", class: "record-csv", onclick: () => download("csv") },
      t("record.csv")),
    h("a", { class: "button record-print", href: "/print.html?page=record", target: "_blank",
      rel: "noopener" }, t("record.print")),
  ];
}

async function download(kind) {
  const session = loadSession();
  if (!session) return;
  try {
    const answer = await fetch(`/api/tables/${session.table}/record.${kind}?lang=${language}`,
      { headers: { authorization: `Bearer ${session.token}` } });
    if (!answer.ok) {
      const data = await answer.json().catch(() => ({}));
      throw new Refused(data.code || "unknown", data.params || {}, data.message);
    }
    const named = /filename="([^"]+)"/.exec(answer.headers.get("content-disposition") || "");
    const link = h("a", { href: URL.createObjectURL(await answer.blob()),
      download: named ? named[1] : `duplicate.${kind}` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  } catch (error) {
    sayRefusal(error);
  }
}

// A record from a file, cut to what training needs (the racks and the tops: a room of 200
// players' slips is more than a request may carry), sent to start a training table.
export async function importTraining(file) {
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    throw new Refused("bad_record", {});
  }
  if (!record || !Array.isArray(record.rounds)) throw new Refused("bad_record", {});
  const needed = { ...record, results: [],
    rounds: record.rounds.map((round) => ({ ...round, slips: [], lines: [], scores: [] })) };
  return call("/api/training", { method: "POST", body: needed });
}

// A training table's racks, kept on the phone that imported the record, in round order.
const TRAINING = "tilestream.training.";

export function keepTraining(table, racks) {
  try {
    localStorage.setItem(TRAINING + table, JSON.stringify(racks));
  } catch {
    // a phone without storage plays the first round; the director types the next racks
  }
}

// The recorded rack of round `open` of this phone's training table, or null.
export function trainingRack(open) {
  const session = loadSession();
  try {
    const racks = session && JSON.parse(localStorage.getItem(TRAINING + session.table));
    return Array.isArray(racks) && typeof racks[open] === "string" ? racks[open] : null;
  } catch {
    return null;
  }
}
