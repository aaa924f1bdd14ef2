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

export function when(t) {
  if (!t) return "";
  const d = new Date(t);
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function day(t) {
  return t ? new Date(t).toLocaleDateString(undefined, { dateStyle: "medium" }) : "";
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

// toISODate turns a date input's value into the API's RFC 3339 bound.
export function dayBound(value, end) {
  if (!value) return "";
  const d = new Date(value + (end ? "T23:59:59" : "T00:00:00"));
  return d.toISOString();
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

// confirmDialog asks before something that cannot be undone.
export function confirmDialog(question, action = "Delete") {
  return new Promise((resolve) => {
    const yes = h("button.danger", { type: "submit", value: "yes" }, action);
    const dlg = h("dialog", { "aria-labelledby": "confirm-q" },
      h("form", { method: "dialog" },
        h("p", { id: "confirm-q" }, question),
        h("div.row", h("button", { type: "submit", value: "no" }, "Cancel"), yes)));
    dlg.addEventListener("close", () => { resolve(dlg.returnValue === "yes"); dlg.remove(); });
    document.body.append(dlg);
    dlg.showModal();
    yes.focus();
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
