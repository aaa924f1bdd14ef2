// The console's shell: sign-in, the page router (#/page/arg), the theme.
// Each page is a module exporting render(main, ...args) and, optionally,
// a cleanup function it returns (the live view closes its stream).
import { api, session, toast, isOwner } from "./lib.js";
import * as conversations from "./pages/conversations.js";
import * as memories from "./pages/memories.js";
import * as actions from "./pages/actions.js";
import * as people from "./pages/people.js";
import * as live from "./pages/live.js";
import * as keys from "./pages/keys.js";
import * as devices from "./pages/devices.js";
import * as speech from "./pages/speech.js";
import * as system from "./pages/system.js";
import * as members from "./pages/members.js";

const pages = {
  conversations: [conversations, "Conversations"], memories: [memories, "Memories"], "action-items": [actions, "Action items"],
  people: [people, "People"], live: [live, "Live"], devices: [devices, "Devices"], keys: [keys, "Keys & assistants"], speech: [speech, "Speech"],
  system: [system, "System"], members: [members, "Members"],
};
const $ = (id) => document.getElementById(id);
let cleanup = null;

function gate(view, message = "", error = false) {
  $("boot").hidden = true;
  $("app").hidden = true;
  $("gate").hidden = false;
  $("setup").hidden = view !== "setup";
  $("login").hidden = view !== "login";
  $("redeem").hidden = view !== "redeem";
  say(message, error);
  $({ setup: "setup-code", login: "login-name", redeem: "redeem-code" }[view]).focus();
}

// codeGate opens the form for an invite or reset code; a link the owner
// passed on (#/code/1234-…) fills the code in.
function codeGate() {
  const m = location.hash.match(/^#\/code(?:\/([\d -]+))?$/);
  if (!m) return false;
  gate("redeem");
  if (m[1]) { $("redeem-code").value = m[1]; $("redeem-password").focus(); }
  return true;
}

// applyRoles hides the owner's pages from a member's navigation (the
// server refuses their calls all the same).
function applyRoles() {
  for (const li of document.querySelectorAll(".nav [data-owner]")) li.hidden = !isOwner();
}
document.addEventListener("roles-changed", () => { applyRoles(); route(); });

// say shows the sign-in forms' one message; each answer replaces the last.
function say(message, error = false) {
  const m = $("gate-message");
  m.textContent = message;
  m.className = error ? "notice error" : message ? "notice" : "";
}

async function start() {
  if (codeGate()) return;
  const st = await api("GET", "/state");
  if (!st.signed_in) return gate(st.claimed ? "login" : "setup");
  enter(st);
}

function enter(st) {
  session.csrf = st.csrf_token;
  session.user = st.user;
  session.owner = st.owner_name || "";
  applyRoles();
  $("who").textContent = st.user.name || st.user.id;
  $("boot").hidden = true;
  $("gate").hidden = true;
  $("app").hidden = false;
  if (!location.hash || location.hash === "#/signin" || location.hash.startsWith("#/code")) location.hash = "#/conversations";
  else route();
}

// The phone's menu: the button opens the pages and the account links;
// choosing a page closes it.
function menu(open) {
  $("app").querySelector(".side").classList.toggle("open", open);
  $("menu").setAttribute("aria-expanded", String(open));
}
$("menu").addEventListener("click", () => menu($("menu").getAttribute("aria-expanded") !== "true"));
// A page link closes the menu even when it names the page already shown.
$("nav-pages").addEventListener("click", (e) => { if (e.target.closest("a")) menu(false); });

// labelCells names each table cell after its column (data-label), so
// that on a phone, where rows become blocks, a cell says what it is.
function labelCells(root) {
  for (const table of root.querySelectorAll("table")) {
    const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    for (const tr of table.querySelectorAll("tbody tr")) {
      [...tr.children].forEach((td, i) => { if (heads[i] && !td.hasAttribute("data-label")) td.setAttribute("data-label", heads[i]); });
    }
  }
}
new MutationObserver(() => labelCells($("main"))).observe($("main"), { childList: true, subtree: true });

async function route() {
  if ($("app").hidden) return;
  menu(false);
  const [name, ...args] = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const entry = pages[name];
  if (!entry) { location.hash = "#/conversations"; return; }
  for (const a of document.querySelectorAll(".nav a")) {
    if (a.getAttribute("href") === "#/" + name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  if (cleanup) { cleanup(); cleanup = null; }
  const main = $("main");
  main.replaceChildren();
  document.title = `${entry[1]} · Hearth`;
  try {
    const done = await entry[0].render(main, ...args);
    if (typeof done === "function") cleanup = done;
  } catch (err) {
    main.replaceChildren();
    const p = document.createElement("p");
    p.className = "notice error";
    p.setAttribute("role", "alert");
    p.textContent = err.message;
    main.append(p);
  }
}

function form(id, path) {
  // The browser's own checks (a field left empty, a short password) stop
  // the submit before it is sent: say what they found, rather than leave
  // the previous answer (a wrong setup code) on show as if it still held.
  $(id).addEventListener("invalid", (e) => {
    const label = e.target.labels?.[0]?.textContent.trim();
    say(label ? `${label}: ${e.target.validationMessage}` : e.target.validationMessage, true);
  }, true);
  $(id).addEventListener("submit", async (e) => {
    e.preventDefault();
    say("");
    const body = Object.fromEntries(new FormData(e.target));
    try {
      const st = await api("POST", path, body);
      e.target.reset();
      enter(st);
    } catch (err) {
      gate(id, err.message, true);
    }
  });
}

// The theme: auto follows the system; light and dark are the owner's pick.
const themes = ["auto", "light", "dark"];
function applyTheme(t) {
  if (t === "auto") document.documentElement.removeAttribute("data-theme");
  else document.documentElement.setAttribute("data-theme", t);
  $("theme").textContent = `Theme: ${t}`;
}
$("theme").addEventListener("click", () => {
  const next = themes[(themes.indexOf(localStorage.getItem("theme") || "auto") + 1) % themes.length];
  localStorage.setItem("theme", next);
  applyTheme(next);
});
applyTheme(localStorage.getItem("theme") || "auto");

form("setup", "/setup");
form("login", "/login");
form("redeem", "/redeem");
$("logout").addEventListener("click", async () => {
  await api("POST", "/logout").catch(() => {});
  session.csrf = "";
  if (cleanup) { cleanup(); cleanup = null; }
  gate("login", "Signed out.");
});
window.addEventListener("hashchange", () => {
  if (location.hash === "#/signin") { gate("login"); return; }
  if (codeGate()) return;
  route();
});
start().catch((err) => toast(err.message));
