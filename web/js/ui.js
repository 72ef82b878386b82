// Small DOM helpers shared by every screen, and the message line.

import { refusalText } from "./refusals.js";

// h("button", {class: "primary", onclick: f}, "text", child …): an element. Attributes
// named on* become listeners; true/false toggle boolean attributes; null is skipped.
// Children may be nested arrays of any depth (a list of [heading, list] pairs …).
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

// A part that folds open (a <details>) and stays as its user left it when the screen is drawn
// again: `fold(open)` is told what it becomes at the tap itself (the summary's click, which
// Enter and Space give too), not only at the "toggle" event. That event comes a task later,
// and a redraw in between (another phone's frame) would draw the part anew as it stood
// before the tap: a director's tap that unfolds the room, undone by a slip coming in.
// `summaryId` names the summary, for a part whose summary the focus is put on.
export function folding({ open, fold, summaryId, ...attributes }, summary, ...content) {
  let now = open; // a part drawn open says "toggle" too, and must not be told twice
  const to = (wanted) => {
    if (wanted === now) return;
    now = wanted;
    fold(wanted);
  };
  return h("details", { ...attributes, open, ontoggle: (event) => to(event.target.open) },
    h("summary", { id: summaryId, onclick: (event) => to(!event.currentTarget.parentElement.open) },
      summary),
    content);
}

// A button busy with its command is marked (aria-disabled), and its tap must do nothing, but
// it is not disabled: a disabled button drops the keyboard's focus at every tap it answers.
export const held = (busy) => (busy ? "true" : null);

// Replace what `parent` shows, keeping the element that had the focus if it is redrawn
// with the same id (so a keyboard user does not lose their place on every update), and a
// text field's caret and selection with it: a cell selected to be typed over is typed over
// after another phone's change, not typed into at its start ("30" over "28" made "3028").
// A folding section's summary is found again by its section's id: a director who unfolds
// the roster with the keyboard, or stands on it as slips come in, keeps the focus there.
// A node `parent` holds already and is handed again (a part a screen found unchanged and
// kept, as the standings of a room of 200 while its slips come in) stays where it is: one
// taken out and put back would be styled and laid out anew, every line of it.
export function replace(parent, ...children) {
  const active = document.activeElement;
  const focused = active && parent.contains(active) ? active : null;
  const found = focusable(focused);
  const caret = typeof focused?.selectionStart === "number" // null where there is no text
    ? [focused.selectionStart, focused.selectionEnd, focused.selectionDirection] : null;
  place(parent, children.flat(Infinity).filter((c) => c !== null && c !== false));
  const again = found && found();
  if (!again || again === document.activeElement) return; // none, or kept with its focus
  // A heading the shell focused (shell.js, placeFocus) is drawn again without the tabindex
  // that made it focusable: it gets it back, and keeps the focus where it stands. A director
  // scrolled down a room's standings stays there as players come in and slips arrive, not
  // taken back to the heading at every change. A control is focused as before.
  if (focused.getAttribute("tabindex") === "-1" && !again.hasAttribute("tabindex")) {
    again.setAttribute("tabindex", "-1");
    again.focus({ preventScroll: true });
  } else {
    again.focus();
    if (caret && typeof again.selectionStart === "number") again.setSelectionRange(...caret);
  }
}

// How to find `element` again once redrawn: by its id, or a summary by its section's.
function focusable(element) {
  if (element?.id) return () => document.getElementById(element.id);
  const section = element?.tagName === "SUMMARY" ? element.parentElement : null;
  return section?.id ? () => document.getElementById(section.id)?.querySelector(":scope > summary")
    : null;
}

// `parent.replaceChildren(...children)`, but a child it holds already is left where it is
// when what comes before it goes (the usual case: a part kept below parts drawn anew).
function place(parent, children) {
  const kept = new Set(children.filter((child) => child?.parentNode === parent));
  if (!kept.size) {
    parent.replaceChildren(...children);
    return;
  }
  for (const old of [...parent.childNodes]) if (!kept.has(old)) old.remove();
  let at = parent.firstChild; // the first kept node not yet passed
  for (const child of children) {
    if (child === at) at = at.nextSibling;
    else parent.insertBefore(child instanceof Node ? child : document.createTextNode(child), at);
  }
}

// The message line's state.
const message = {
  lastTimer: null,
  said: 0, // how many messages were said, so that a later success clears only older ones
};
// A view's own stylesheet ("/css/play.css": its path in the web folder), added once when its
// module first loads (the start page does without it); resolves once it applies, so that a
// view never shows unstyled. Fetched from the release this module came from (the server
// serves the app under /v/<release>/, server/http/static.py), as the page's own are.
export function stylesheet(path) {
  const href = new URL(`..${path}`, import.meta.url).pathname;
  let link = document.querySelector(`link[rel=stylesheet][href="${href}"]`);
  if (!link) {
    link = h("link", { rel: "stylesheet", href });
    link.loaded = new Promise((resolve) => {
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve); // unstyled rather than never shown
    });
    document.head.append(link);
  }
  return link.loaded ?? Promise.resolve();
}


// A short message for everyone, read out by screen readers; its line, to take down early.
export function say(text, kind = "error") {
  const box = document.getElementById("messages");
  const line = h("p", { class: `message ${kind}`, role: kind === "error" ? "alert" : "status" },
    text);
  line.dataset.said = String(++message.said);
  box.replaceChildren(line);
  clearTimeout(message.lastTimer);
  message.lastTimer = setTimeout(() => line.remove(), 8000);
  return line;
}

// The mark to take before asking the server; `settle(mark)` once it said yes takes down an
// error said before the question (its cause is gone), never one said while it was out.
export const mark = () => message.said;

export function settle(before = message.said) {
  const line = document.querySelector("#messages .message.error");
  if (line && Number(line.dataset.said) <= before) line.remove();
}

// A refusal (an Error from api.js or live.js) shown as a sentence in the phone's language.
export function sayRefusal(error) {
  if (error && error.code) say(refusalText(error.code, error.params));
  else throw error;
}

// Put `text` on the clipboard: the Clipboard API where the page may use it (https or
// localhost), else the old copy command, which also works on a plain-http club network.
// False when neither could.
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "sr-only", readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    return done;
  }
}

// A unique id for label/for pairs.
let ids = 0;
export const uid = (prefix) => `${prefix}-${++ids}`;
