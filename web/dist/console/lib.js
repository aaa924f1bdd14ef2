// Shared helpers of the console's pages: the API client, a tiny element
// builder, formatting, and the confirm dialog and toast. No framework: the
// pages are small and the CSP forbids inline script and style.

export const session = { csrf: "", user: null, owner: "" };

// isOwner: the signed-in user owns the appliance. The server refuses a
// member's owner-only calls whatever the page shows; the pages hide those
// controls so that nobody is offered what they cannot do.
export const isOwner = () => session.user?.role === "owner";

// ownerOnly says why a member does not see a page's appliance-wide
// parts, and whom to ask.
export function ownerOnly(sentence) {
  return h("p.notice", { role: "note", "data-owner-only": "" },
    `${sentence} Only the appliance's owner${session.owner ? `, ${session.owner},` : ""} can see and change them.`);
}

// api calls /console/api. Changes carry the session's CSRF token; the
// session itself is an HttpOnly cookie the script never sees.
export async function api(method, path, body, { raw = false } = {}) {
  const headers = { Accept: "application/json" };
  let payload;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) { headers["Content-Type"] = "application/json"; payload = JSON.stringify(body); }
  if (method !== "GET") headers["X-CSRF-Token"] = session.csrf;
  const resp = await fetch("/console/api" + path, { method, headers, credentials: "same-origin", body: payload });
  if (resp.status === 401 && session.csrf && !["/state", "/login", "/setup"].includes(path)) {
    location.hash = "#/signin";
    throw new Error("Your session ended; sign in again.");
  }
  if (raw && resp.ok) return resp;
  const data = resp.status === 204 ? null : await resp.json().catch(() => null);
  if (!resp.ok) throw new Error(errorText(data) || `${resp.status} ${resp.statusText}`);
  return data;
}

// errorText reads both error shapes: {detail: "..."} and the 422 list.
function errorText(data) {
  if (!data) return "";
  if (typeof data.detail === "string") return data.detail;
  if (Array.isArray(data.detail)) return data.detail.map((d) => d.msg).join("; ");
  return "";
}

// h builds an element: h("a.title", {href}, "text", child...). Attributes
// starting with "on" are listeners; others are set as attributes, except
// value/checked/disabled/hidden, which are properties.
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (["value", "checked", "disabled", "hidden", "selected"].includes(k)) el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

// Times are shown in the user's time zone (their account's, which the
// server resolves dates in), not the browser's; the browser's when the
// account names none.
const zone = () => session.user?.time_zone || undefined;

export function when(t) {
  if (!t) return "";
  return new Date(t).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: zone() });
}

export function day(t) {
  return t ? new Date(t).toLocaleDateString(undefined, { dateStyle: "medium", timeZone: zone() }) : "";
}

export function time(t, timeStyle = "medium") {
  return t ? new Date(t).toLocaleTimeString(undefined, { timeStyle, timeZone: zone() }) : "";
}

// wall is t's date and time of day in the user's zone, as numbers.
function wall(t) {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone(), hourCycle: "h23", year: "numeric", month: "2-digit",
    day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(new Date(t));
  const n = Object.fromEntries(parts.filter((p) => p.type !== "literal").map((p) => [p.type, Number(p.value)]));
  return n;
}

// dayKey is t's day in the user's zone, YYYY-MM-DD (as the server counts
// days).
export function dayKey(t) {
  const w = wall(t);
  return `${w.year}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

// dayName names a YYYY-MM-DD day: Today, Yesterday, or its weekday and
// date (with the year when it is not this year's).
export function dayName(key) {
  const now = Date.now();
  if (key === dayKey(now)) return "Today";
  if (key === dayKey(now - 86400e3)) return "Yesterday";
  const d = new Date(key + "T12:00:00Z");
  const opts = { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" };
  if (key.slice(0, 4) !== dayKey(now).slice(0, 4)) opts.year = "numeric";
  return d.toLocaleDateString(undefined, opts);
}

// due says when an action item is due. A due date without a time of day
// is kept as 23:59 in the user's zone (as the app does): it is shown as
// the date alone. Overdue is past due and not done.
export function due(a) {
  if (!a.due_at) return { text: "no due date", overdue: false };
  const w = wall(a.due_at);
  const dateOnly = w.hour === 23 && w.minute === 59;
  const key = dayKey(a.due_at);
  const named = key === dayKey(Date.now() + 86400e3) ? "Tomorrow" : ["Today", "Yesterday"].includes(dayName(key)) ? dayName(key)
    : new Date(a.due_at).toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short", timeZone: zone(),
      year: key.slice(0, 4) === dayKey(Date.now()).slice(0, 4) ? undefined : "numeric" });
  const text = dateOnly ? `due ${named}` : `due ${named}, ${new Date(a.due_at).toLocaleTimeString(undefined, { timeStyle: "short", timeZone: zone() })}`;
  return { text, overdue: !a.completed && new Date(a.due_at).getTime() < Date.now() };
}

// zoneOffset is how far the user's zone is ahead of UTC at t, in ms.
function zoneOffset(t) {
  const w = wall(t);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(t / 1000) * 1000;
}

// toZoned is the value of a datetime-local input showing t in the user's
// zone; fromZoned reads one back as an instant.
export function toZoned(t) {
  if (!t) return "";
  const ms = new Date(t).getTime();
  return new Date(ms + zoneOffset(ms)).toISOString().slice(0, 16);
}

export function fromZoned(value) {
  const guess = Date.parse(value + ":00Z");
  let t = guess - zoneOffset(guess);
  t = guess - zoneOffset(t); // again, in case a clock change lies between
  return new Date(t).toISOString();
}

// plural counts: "1 segment", "2 segments".
export function plural(n, one, many = one + "s") {
  return `${n} ${n === 1 ? one : many}`;
}

export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

export function duration(a, b) {
  if (!a || !b) return "";
  const s = Math.round((new Date(b) - new Date(a)) / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

export function bytes(n) {
  if (n === undefined || n === null) return "";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
}

// dayBound turns a date input's value into the API's RFC 3339 bound: the
// day's start or end in the user's zone.
export function dayBound(value, end) {
  if (!value) return "";
  const t = Date.parse(fromZoned(value + (end ? "T23:59" : "T00:00"))) + (end ? 59999 : 0);
  return new Date(t).toISOString();
}

let toastTimer;
export function toast(text) {
  let el = document.getElementById("toast");
  if (!el) {
    el = h("div.toast", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(el);
  }
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
}

// confirmDialog asks before something that cannot be undone. The safe
// answer, Cancel, has the focus: Enter or Escape leaves things as they are.
export function confirmDialog(question, action = "Delete") {
  return new Promise((resolve) => {
    const no = h("button", { type: "submit", value: "no" }, "Cancel");
    const dlg = h("dialog", { "aria-labelledby": "confirm-q" },
      h("form", { method: "dialog" },
        h("p", { id: "confirm-q" }, question),
        h("div.row", no, h("button.danger", { type: "submit", value: "yes" }, action))));
    dlg.addEventListener("close", () => { resolve(dlg.returnValue === "yes"); dlg.remove(); });
    document.body.append(dlg);
    dlg.showModal();
    no.focus();
  });
}

// askDialog asks for one line of text in the page (the browser's prompt()
// is unstyled, blocks the page and is not announced as part of it): it
// resolves to the text, or "" when cancelled.
export function askDialog(title, label, action) {
  return new Promise((resolve) => {
    const input = h("input.field", { id: "ask-input", name: "value", required: true, maxlength: 100, autocomplete: "off" });
    const form = h("form", { method: "dialog" },
      h("h2", { id: "ask-title" }, title), h("label", { for: "ask-input" }, label), input,
      h("div.row.dialog-buttons", h("button", { type: "button", onclick: () => dlg.close("") }, "Cancel"),
        h("button.primary", { type: "submit", value: "ok" }, action)));
    const dlg = h("dialog", { "aria-labelledby": "ask-title" }, form);
    form.addEventListener("submit", (e) => { e.preventDefault(); dlg.close(input.value.trim() ? "ok" : ""); });
    dlg.addEventListener("close", () => { resolve(dlg.returnValue === "ok" ? input.value.trim() : ""); dlg.remove(); });
    document.body.append(dlg);
    dlg.showModal();
    input.focus();
  });
}

// copyRow shows a value with a button that copies it; copy says where
// the clipboard is out of reach (plain HTTP on a LAN address).
export function copyRow(label, id, value) {
  return h("div.copy-row", h("span.label", label), h("code.wrap", { id }, value),
    h("button", { type: "button", "aria-label": `Copy ${label.toLowerCase()}`, onclick: () => copy(value) }, "Copy"));
}

export function copy(text) {
  if (!navigator.clipboard) { toast("Copying needs a secure page (HTTPS or localhost): select the text instead."); return; }
  navigator.clipboard.writeText(text).then(() => toast("Copied"), () => toast("Could not copy: select the text instead."));
}

// notice is a status line inside a page.
export function notice(text, kind = "") {
  return h(`p.notice${kind ? "." + kind : ""}`, { role: kind === "error" ? "alert" : "status" }, text);
}

// guard runs an action, showing its error as a toast.
export async function guard(fn) {
  try {
    return await fn();
  } catch (err) {
    toast(err.message);
    return undefined;
  }
}

export const categories = ["personal", "education", "health", "finance", "legal", "philosophy", "spiritual", "science",
  "entrepreneurship", "parenting", "romantic", "travel", "inspiration", "technology", "business", "social", "work",
  "sports", "politics", "literature", "history", "architecture", "music", "weather", "news", "entertainment",
  "psychology", "real", "design", "family", "economics", "environment", "other"];

// categoryName is how a conversation's or memory's category reads.
const categoryNames = { real: "Real estate", romantic: "Romance", interesting: "Interesting", system: "About you",
  manual: "Added by you", auto: "Automatic", core: "Core" };
export function categoryName(c) {
  if (!c) return "";
  return categoryNames[c] || c.charAt(0).toUpperCase() + c.slice(1);
}
