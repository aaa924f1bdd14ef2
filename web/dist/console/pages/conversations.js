// Conversations: the list (search, filters, paging) and one conversation
// (transcript, structure, and the owner's changes).
import { api, h, when, time, clock, duration, dayBound, toast, confirmDialog, askDialog, guard, categories, categoryName, notice, plural,
  dayKey, dayName, session } from "../lib.js";

const PAGE = 25;
// The list's filters survive opening a conversation and coming back.
const filters = { q: "", from: "", to: "", category: "", folder: "", starred: false, bin: false };
// Back from a conversation returns to the list as it was left: as many
// conversations loaded, scrolled as far, the one opened focused.
let left = null; // {key, count, y} when the list was left
let opened = ""; // the conversation opened from it
// The URL keeps them too (its query, beside the page's #/route), so a
// search can be bookmarked, shared and reloaded.
const urlKeys = { q: "q", from: "from", to: "to", category: "category", folder: "folder", starred: "starred", bin: "bin" };

function filtersFromURL() {
  const p = new URLSearchParams(location.search);
  for (const [k, name] of Object.entries(urlKeys)) {
    if (!p.has(name)) continue;
    filters[k] = typeof filters[k] === "boolean" ? p.get(name) === "true" : p.get(name);
  }
}

function filtersToURL() {
  const p = new URLSearchParams();
  for (const [k, name] of Object.entries(urlKeys)) if (filters[k]) p.set(name, String(filters[k]));
  const query = p.toString();
  history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
}

// marked renders a snippet whose matched words are between <mark> and
// </mark> as text and mark elements (never as HTML).
function marked(snippet) {
  return snippet.split(/(<mark>.*?<\/mark>)/).filter(Boolean).map((part) =>
    part.startsWith("<mark>") ? h("mark", part.slice(6, -7)) : part);
}

// #/conversations/ID/SECONDS opens a conversation at a time of its
// recording (a search hit's).
export async function render(main, id, at) {
  if (id) return detail(main, id, at ? Number(at) : null);
  return list(main);
}

async function list(main) {
  filtersFromURL();
  const back = left && left.key === JSON.stringify(filters) && opened ? left : null;
  left = null;
  const folders = await api("GET", "/folders");
  // Not a live region: a screen reader would read the whole list again
  // at each change. The count line is the one that speaks.
  const results = h("div", { id: "conversation-list" });
  const total = h("p.muted", { id: "conv-total", role: "status" });
  const more = h("button", { type: "button", hidden: true }, "Older conversations");
  let offset = 0;
  let days = new Map(); // day → how many conversations it holds in all

  const q = h("input", { id: "conv-q", type: "search", value: filters.q, placeholder: "Words or meaning…" });
  const from = h("input", { id: "conv-from", type: "date", value: filters.from });
  const to = h("input", { id: "conv-to", type: "date", value: filters.to });
  const cat = h("select", { id: "conv-category" }, h("option", { value: "" }, "Any category"),
    categories.map((c) => h("option", { value: c, selected: c === filters.category }, categoryName(c))));
  const folder = h("select", { id: "conv-folder" }, h("option", { value: "" }, "Any folder"),
    folders.map((f) => h("option", { value: f.id, selected: f.id === filters.folder }, f.name)));
  const starred = h("input", { id: "conv-starred", type: "checkbox", checked: filters.starred });
  const bin = h("input", { id: "conv-bin", type: "checkbox", checked: filters.bin });

  const toolbar = h("form.toolbar", { role: "search", onsubmit: (e) => { e.preventDefault(); reload(); } },
    h("div.grow", h("label", { for: "conv-q" }, "Search"), q),
    h("div", h("label", { for: "conv-from" }, "From"), from),
    h("div", h("label", { for: "conv-to" }, "To"), to),
    h("div", h("label", { for: "conv-category" }, "Category"), cat),
    h("div", h("label", { for: "conv-folder" }, "Folder"), folder),
    h("div.row", h("label.inline", { for: "conv-starred" }, starred, "Starred"), h("label.inline", { for: "conv-bin" }, bin, "Discarded")),
    h("button.primary", { type: "submit" }, "Apply"));
  for (const el of [from, to, cat, folder, starred, bin]) el.addEventListener("change", reload);

  main.append(h("div.page-head", h("h1", "Conversations")), toolbar, total, results, h("p", more));

  const filtered = () => filters.from || filters.to || filters.category || filters.folder || filters.starred;

  function query() {
    const p = new URLSearchParams();
    if (filters.from) p.set("start_date", dayBound(filters.from, false));
    if (filters.to) p.set("end_date", dayBound(filters.to, true));
    if (filters.category) p.set("categories", filters.category);
    if (filters.folder) p.set("folder_id", filters.folder);
    if (filters.starred) p.set("starred", "true");
    if (filters.bin) p.set("discarded", "true");
    return p;
  }

  async function reload(count = PAGE) {
    Object.assign(filters, { q: q.value.trim(), from: from.value, to: to.value, category: cat.value, folder: folder.value,
      starred: starred.checked, bin: bin.checked });
    filtersToURL();
    offset = 0;
    results.replaceChildren();
    total.textContent = "";
    more.hidden = true;
    if (filters.q) return search();
    const p = query();
    const tz = session.user?.time_zone || Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (tz) p.set("tz", tz);
    const counted = await api("GET", "/conversations/days?" + p);
    days = new Map(counted.days.map((d) => [d.day, d.count]));
    total.textContent = counted.total ? `${plural(counted.total, "conversation")}${filtered() || filters.bin ? " match" : ""}` : "";
    await page(count);
  }

  async function page(count = PAGE) {
    const p = query();
    p.set("limit", Math.min(count, 100));
    p.set("offset", offset);
    const cs = await api("GET", "/conversations?" + p);
    offset += cs.length;
    for (const c of cs) dayList(c).append(row(c));
    more.hidden = cs.length < Math.min(count, 100);
    if (offset === 0) results.append(emptyList());
  }

  // dayList is the list of c's day, made with its heading when it is the
  // first of that day.
  function dayList(c) {
    const key = dayKey(c.started_at || c.created_at);
    let ul = results.querySelector(`ul[data-day="${key}"]`);
    if (!ul) {
      const id = `day-${key}`;
      ul = h("ul.list.cards", { "data-day": key, "aria-labelledby": id });
      const n = days.get(key);
      results.append(h("section.day", { "data-day": key },
        h("h2.day-head", { id }, dayName(key), n ? [" ", h("span.count", plural(n, "conversation"))] : null), ul));
    }
    return ul;
  }

  function emptyList() {
    if (filters.bin) return h("p.empty", "Nothing discarded.");
    if (filtered()) return h("p.empty", "No conversations match these filters.");
    return h("div.empty.start", h("p", h("strong", "No conversations yet.")),
      h("p", "Connect your wearable or phone on the ", h("a", { href: "#/devices" }, "Devices page"),
        ": what you say appears here as you speak. An app or script with a ", h("a", { href: "#/keys" }, "developer key"),
        " can upload recordings and transcripts too."));
  }

  // The search applies the filters in its query (the bin is not searched).
  async function search() {
    const p = new URLSearchParams({ q: filters.q, kind: "conversation", limit: 50 });
    if (filters.from) p.set("start_date", filters.from);
    if (filters.to) p.set("end_date", filters.to);
    if (filters.category) p.set("category", filters.category);
    if (filters.folder) p.set("folder_id", filters.folder);
    if (filters.starred) p.set("starred", "true");
    const r = await api("GET", "/search?" + p);
    const ul = h("ul.list.cards", { "aria-label": "Search results" });
    for (const hit of r.results) {
      // The time said links to that moment of the recording.
      const said = hit.snippet ? h("p.small.snippet", hit.start != null ? h("a.badge.at", { href: `#/conversations/${encodeURIComponent(hit.id)}/${hit.start}`,
        title: "Play from here" }, clock(hit.start)) : null, " ",
        hit.speaker ? `${hit.speaker}: ` : "", ...marked(hit.snippet)) : null;
      ul.append(h("li.item", { "data-id": hit.id }, h("div.emoji", { "aria-hidden": "true" }, "🔎"),
        h("div.body", h("a.title", { href: `#/conversations/${encodeURIComponent(hit.id)}` }, hit.text.split("\n")[0] || "Untitled"),
          h("div.meta", hit.date ? when(hit.date) : "", hit.category ? ` · ${categoryName(hit.category)} ` : " ",
            hit.locked ? h("span.badge.lock", "Locked") : null),
          said)));
    }
    total.textContent = plural(r.results.length, "conversation") + " found";
    results.append(r.results.length ? ul : h("p.empty", "Nothing found."));
  }

  more.addEventListener("click", () => guard(() => page()));
  await reload(back ? Math.max(PAGE, back.count) : PAGE);
  if (back) {
    scrollTo(0, back.y);
    results.querySelector(`li[data-id="${CSS.escape(opened)}"] a.title`)?.focus({ preventScroll: true });
  }
  opened = "";
  // Leaving the list remembers where it was.
  return () => { left = { key: JSON.stringify(filters), count: offset, y: scrollY }; };
}

// row is a conversation in its day's list: its time of day is enough.
function row(c) {
  const s = c.structured;
  return h("li.item", { "data-id": c.id },
    h("div.emoji", { "aria-hidden": "true" }, s.emoji),
    h("div.body",
      h("a.title", { href: `#/conversations/${encodeURIComponent(c.id)}` }, s.title || "Untitled"),
      h("div.meta", time(c.started_at || c.created_at, "short"), " · ", duration(c.started_at, c.finished_at) || "—", " · ", categoryName(s.category),
        c.folder_name ? ` · ${c.folder_name}` : "", " ",
        c.starred ? h("span.badge.warn", "★ Starred") : null, " ",
        c.locked ? h("span.badge.lock", "Locked") : null, " ",
        c.status !== "completed" ? h("span.badge", c.status) : null),
      s.overview ? h("p.small", s.overview.length > 220 ? s.overview.slice(0, 220) + "…" : s.overview) : null));
}

// at, when set, is the second of the recording to open at; focus is the
// id of the control that keeps the focus across a redraw.
async function detail(main, id, at = null, focus = "conv-title") {
  const [c, folders] = await Promise.all([api("GET", `/conversations/${encodeURIComponent(id)}`), api("GET", "/folders")]);
  const s = c.structured;
  opened = id;
  // A change redraws the page; the control used keeps the focus.
  const refresh = () => { const was = document.activeElement?.id; player.stop(); main.replaceChildren(); return detail(main, id, null, was || "conv-title"); };
  const change = (fn, done) => guard(async () => { await fn(); if (done) toast(done); await refresh(); });

  // The emoji is the category's icon beside the title, never part of it.
  const title = h("h1", { id: "conv-title", tabindex: "-1" }, h("span.emoji", { "aria-hidden": "true" }, s.emoji), " ", s.title || "Untitled");
  const titleInput = h("input.field", { id: "conv-title-input", value: s.title, "aria-label": "Title", maxlength: 500 });
  const titleForm = h("form.row", { hidden: true, onsubmit: (e) => { e.preventDefault();
    change(() => api("PATCH", `/conversations/${encodeURIComponent(id)}`, { title: titleInput.value }), "Title saved"); } },
  titleInput, h("button.primary", { type: "submit" }, "Save"),
  h("button", { type: "button", onclick: () => { titleForm.hidden = true; title.hidden = false; } }, "Cancel"));
  const editTitle = h("button", { type: "button", id: "conv-edit", disabled: c.locked, onclick: () => { title.hidden = true; titleForm.hidden = false; titleInput.focus(); } }, "Edit title");

  const folderSel = h("select", { id: "conv-move", "aria-label": "Folder", disabled: c.locked },
    h("option", { value: "" }, "No folder"), folders.map((f) => h("option", { value: f.id, selected: f.id === c.folder_id }, f.name)),
    h("option", { value: "__new" }, "New folder…"));
  folderSel.addEventListener("change", () => change(async () => {
    let target = folderSel.value || null;
    if (target === "__new") {
      const name = await askDialog("New folder", "Name of the new folder", "Create and move");
      if (!name) { folderSel.value = c.folder_id || ""; return; }
      target = (await api("POST", "/folders", { name })).id;
    }
    await api("PUT", `/conversations/${encodeURIComponent(id)}/folder`, { folder_id: target });
  }, "Moved"));

  const actions = h("div.row",
    editTitle,
    h("button", { type: "button", id: "conv-star", disabled: c.locked, "aria-pressed": String(c.starred),
      onclick: () => change(() => api("PATCH", `/conversations/${encodeURIComponent(id)}`, { starred: !c.starred })) },
    c.starred ? "★ Unstar" : "☆ Star"),
    h("button", { type: "button", id: "conv-lock", "aria-pressed": String(c.locked),
      onclick: () => change(() => api("PUT", `/conversations/${encodeURIComponent(id)}/locked`, { locked: !c.locked }),
        c.locked ? "Assistants can see it again" : "Hidden from assistants") },
    c.locked ? "Unlock" : "Lock from assistants"),
    folderSel,
    h("button", { type: "button", id: "conv-discard", disabled: c.locked,
      onclick: () => change(() => api("PATCH", `/conversations/${encodeURIComponent(id)}`, { discarded: !c.discarded }),
        c.discarded ? "Restored" : "Discarded") }, c.discarded ? "Restore" : "Discard"),
    h("button.danger", { type: "button", id: "conv-delete", disabled: c.locked, onclick: async () => {
      if (!(await confirmDialog("Delete this conversation, its action items and its memories? This cannot be undone."))) return;
      await guard(async () => {
        await api("DELETE", `/conversations/${encodeURIComponent(id)}`);
        toast("Conversation deleted");
        location.hash = "#/conversations";
      });
    } }, "Delete"));

  const player = audioPlayer(c);
  const again = transcribeAgain(c, refresh);
  main.append(...[
    h("p", h("a", { href: "#/conversations" }, "← All conversations")),
    h("div.page-head", h("div", title, titleForm)),
    h("p.meta.muted", when(c.started_at || c.created_at), " · ", duration(c.started_at, c.finished_at) || "—", " · ",
      categoryName(s.category), " · ", c.source, c.language ? ` · ${c.language}` : "", c.folder_name ? ` · in ${c.folder_name}` : "", " ",
      c.locked ? h("span.badge.lock", "Locked from assistants") : null, " ", c.discarded ? h("span.badge", "Discarded") : null),
    c.locked ? notice("Locked: assistants and developer keys cannot see it. Unlock it to change it.") : null,
    h("div.card", actions),
    s.overview ? h("section.card", h("h2", "Overview"), h("p", s.overview)) : null,
    s.action_items.length ? h("section.card", h("h2", "Action items"), h("ul.list", s.action_items.map((a) =>
      h(`li.item${a.completed ? ".done" : ""}`, h("div.body", h("span.text", a.description),
        a.due_at ? h("div.meta", "due ", when(a.due_at)) : null))))) : null,
    s.events.length ? h("section.card", h("h2", "Events"), h("ul.list", s.events.map((e) =>
      h("li.item", h("div.body", h("strong", e.title), h("div.meta", when(e.start), e.duration ? ` · ${e.duration} min` : ""),
        e.description ? h("p.small", e.description) : null))))) : null,
    c.photos && c.photos.length ? h("section.card", h("h2", "Photos"), h("div.photos", c.photos.map((p) =>
      h("figure", p.data_url ? h("img", { src: p.data_url, alt: p.description || "Photo from the recording" }) : null,
        h("figcaption.small.muted", p.description))))) : null,
    h("section.card", h("h2", "Transcript"), player.el, player.el ? again.el : null, transcript(c.transcript_segments || [], player.el ? player.seek : null))].filter(Boolean));
  player.follow(main.querySelector("#transcript"));
  if (at != null) player.seek(at, false);
  // Focus moves to what was opened, so that a screen reader reads its
  // title and Tab goes on from there.
  (document.getElementById(focus) || title).focus();
  return () => {
    player.stop(); // leaving the page stops the sound
    again.stop();
    // Only a way back to the list keeps its place; elsewhere forgets it.
    if (!/^#\/conversations\/?$/.test(location.hash)) opened = "";
  };
}

// transcribeAgain is "Transcribe again with …": a job on the appliance
// that transcribes the kept audio through the route chosen and replaces
// the transcript when it is done (the page then redraws); its progress
// shows while it runs, also after coming back to the page.
function transcribeAgain(c, refresh) {
  let timer = null;
  const routes = h("select", { id: "conv-again-route" }, h("option", { value: "" }, "the first route that serves"));
  const status = h("span.small.muted", { id: "conv-again-status", role: "status" });
  const button = h("button", { type: "button", id: "conv-again", disabled: c.locked, onclick: () => guard(async () => {
    const j = await api("POST", "/retranscribe", { conversation_ids: [c.id], route: routes.value });
    watch(j.id);
  }) }, "Transcribe again");
  const show = (j) => {
    const open = j.status === "queued" || j.status === "running";
    button.disabled = open || c.locked;
    status.textContent = open ? `Transcribing again${j.route ? ` with ${j.route}` : ""}… (${j.status})` :
      j.status === "failed" || j.failed ? `Not transcribed again: ${j.error}` : j.status === "cancelled" ? "Cancelled" : "";
    return open;
  };
  const watch = (jobID) => {
    clearTimeout(timer);
    const poll = async () => {
      const j = await api("GET", `/retranscribe/${encodeURIComponent(jobID)}`).catch(() => null);
      if (!j) return;
      if (show(j)) { timer = setTimeout(poll, 1000); return; }
      if (j.status === "done" && !j.failed) { toast("Transcribed again"); refresh(); }
    };
    poll();
  };
  api("GET", "/retranscribe").then((r) => {
    for (const name of r.routes) routes.append(h("option", { value: name }, name));
    const j = r.jobs.find((j) => (j.status === "queued" || j.status === "running") && j.conversation_ids.includes(c.id));
    if (j) watch(j.id);
  }).catch(() => {});
  return {
    el: h("form.row", { onsubmit: (e) => e.preventDefault() }, h("label", { for: "conv-again-route" }, "Transcribe again with"), routes, button, status),
    stop: () => clearTimeout(timer),
  };
}

function transcript(segs, seek) {
  if (!segs.length) return h("p.muted", "No transcript.");
  return h("div.transcript", { id: "transcript" }, segs.map((g) =>
    h(`div.seg${g.is_user ? ".user" : ""}`, seek ? { "data-start": g.start, title: "Play from here", tabindex: 0,
      onclick: () => seek(g.start, true), onkeydown: (e) => { if (e.key === "Enter") seek(g.start, true); } } : null,
    h("time", clock(g.start)),
    h("div", h("span.who", g.speaker_name || "Speaker"), h("span.text", g.text)))));
}

// audioPlayer plays a conversation's kept recordings (audio_files): a
// conversation second t is at t − offset in the file that started at
// started_at, offset being how long after the conversation began the file
// did. seek(t) jumps there (play: it starts playing, which only a click
// may do); follow marks the segment being played.
function audioPlayer(c) {
  const files = (c.audio_files || []).map((f) => ({ ...f,
    offset: (Date.parse(f.started_at) - Date.parse(c.started_at || c.created_at)) / 1000,
    url: `/console/api/conversations/${encodeURIComponent(c.id)}/audio/${encodeURIComponent(f.id)}` }));
  if (!files.length) return { el: null, seek: () => {}, follow: () => {}, stop: () => {} };
  let cur = files[0];
  const audio = h("audio", { id: "conv-audio", controls: true, preload: "metadata", src: cur.url });
  const fileAt = (t) => files.reduce((best, f) => (f.offset <= t ? f : best), files[0]);
  const seek = (t, play) => {
    const f = fileAt(t);
    if (f !== cur) { cur = f; audio.src = f.url; }
    audio.currentTime = Math.max(0, t - f.offset);
    mark(t);
    if (play) audio.play().catch(() => {});
  };
  let segs = [];
  const mark = (t) => {
    let on = null;
    for (const s of segs) if (Number(s.dataset.start) <= t + 0.05) on = s;
    for (const s of segs) {
      if (s === on) { s.classList.add("playing"); s.setAttribute("aria-current", "true"); } else { s.classList.remove("playing"); s.removeAttribute("aria-current"); }
    }
    if (on && !audio.paused) on.scrollIntoView({ block: "nearest" });
  };
  audio.addEventListener("timeupdate", () => mark(audio.currentTime + cur.offset));
  return {
    el: h("div.player", audio),
    seek,
    follow: (root) => { segs = root ? [...root.querySelectorAll(".seg")] : []; },
    stop: () => audio.pause(),
  };
}
