// The console's sign-in and conversations page. The session is an
// HttpOnly cookie the browser keeps; this script only holds the CSRF token
// that every change must echo.
const $ = (id) => document.getElementById(id);
let csrf = "";
let offset = 0;
const page = 25;

function say(text, error = false) {
  $("message").textContent = text;
  $("message").className = error ? "error" : "";
}

async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRF-Token"] = csrf;
  const resp = await fetch("/console/api" + path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = resp.status === 204 ? null : await resp.json().catch(() => null);
  if (!resp.ok) throw new Error((data && typeof data.detail === "string" && data.detail) || resp.statusText);
  return data;
}

function show(view) {
  for (const id of ["setup", "login", "home"]) $(id).hidden = id !== view;
}

async function start() {
  const st = await api("GET", "/state");
  if (st.signed_in) return home(st);
  show(st.claimed ? "login" : "setup");
}

async function home(st) {
  csrf = st.csrf_token;
  $("who").textContent = st.user.name;
  show("home");
  offset = 0;
  $("conversations").replaceChildren();
  await more();
}

async function more() {
  const list = await api("GET", `/conversations?limit=${page}&offset=${offset}`);
  offset += list.length;
  for (const c of list) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "#" + c.id;
    a.textContent = `${c.structured?.emoji ?? ""} ${c.structured?.title || "Untitled"} · ${new Date(c.started_at ?? c.created_at).toLocaleString()}`;
    a.addEventListener("click", (e) => { e.preventDefault(); detail(c.id); });
    li.append(a);
    $("conversations").append(li);
  }
  $("more").hidden = list.length < page;
  if (offset === 0) say("No conversations yet.");
}

async function detail(id) {
  const c = await api("GET", `/conversations/${encodeURIComponent(id)}`);
  const el = $("detail");
  el.replaceChildren();
  const h = document.createElement("h2");
  h.textContent = `${c.structured?.emoji ?? ""} ${c.structured?.title || "Untitled"}`;
  const p = document.createElement("p");
  p.textContent = c.structured?.overview ?? "";
  el.append(h, p);
  for (const s of c.transcript_segments ?? []) {
    const d = document.createElement("p");
    d.className = "seg";
    const t = document.createElement("time");
    t.textContent = `${Math.floor(s.start / 60)}:${String(Math.floor(s.start % 60)).padStart(2, "0")}`;
    const w = document.createElement("span");
    w.className = "who";
    w.textContent = s.is_user ? "You" : s.speaker;
    d.append(t, w, document.createTextNode(s.text));
    el.append(d);
  }
  el.hidden = false;
  el.scrollIntoView();
}

function form(id, path) {
  $(id).addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = Object.fromEntries(new FormData(e.target));
    try {
      const st = await api("POST", path, body);
      e.target.reset();
      say("");
      await home(st);
    } catch (err) {
      say(err.message, true);
    }
  });
}

form("setup", "/setup");
form("login", "/login");
$("more").addEventListener("click", () => more().catch((err) => say(err.message, true)));
$("logout").addEventListener("click", async () => {
  await api("POST", "/logout").catch(() => {});
  csrf = "";
  show("login");
});
start().catch((err) => say(err.message, true));
