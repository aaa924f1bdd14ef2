// System: version, uptime, the user's own counts; for the owner also the
// disk, database, search index, the log, the audit trail and the backup.
import { api, h, bytes, when, time, guard, isOwner, ownerOnly, plural } from "../lib.js";

export async function render(main) {
  const s = await api("GET", "/system");
  const owner = isOwner() && !s.owner_only;
  const idx = s.search_index || {};
  const up = s.uptime_seconds;
  const uptime = up >= 86400 ? `${Math.floor(up / 86400)} d ${Math.floor((up % 86400) / 3600)} h`
    : up >= 3600 ? `${Math.floor(up / 3600)} h ${Math.floor((up % 3600) / 60)} min` : `${Math.floor(up / 60)} min`;
  const stat = (label, value, extra) => h("div.card", h("div.small.muted", label), h("div.stat", value), extra ? h("div.small.muted", extra) : null);
  const counts = `${plural(s.database?.conversations ?? 0, "conversation")} · ${plural(s.database?.memories ?? 0, "memory", "memories")}`;
  // The signed-in user's kept audio against their quota, or why none is kept.
  const a = s.audio;
  const audio = !a ? null : a.available
    ? stat("Your kept audio", bytes(a.used_bytes), `${a.quota_bytes ? `of ${bytes(a.quota_bytes)} · ` : ""}kept ${a.retention === "forever" ? "until deleted" : `for ${a.retention.replace("d", " days")}`}`)
    : stat("Your kept audio", "Not kept", a.retention === "never" ? "the owner turned it off (--audio-retention never)" : a.reason);
  main.append(h("div.page-head", h("h1", "System"),
    owner ? h("a.button.primary", { href: "/console/api/system/backup", download: "", id: "backup" }, "Download a backup") : null));
  if (!owner) {
    main.append(h("div.grid", { id: "system-stats" },
      stat("Version", s.version, `started ${when(s.started_at)}`), stat("Uptime", uptime),
      stat("Your conversations", String(s.database?.conversations ?? 0), `and ${plural(s.database?.memories ?? 0, "memory", "memories")}`), audio),
    ownerOnly("The log, the data folder, backups and the audit trail hold every member's activity."));
    return;
  }
  main.append(h("div.grid", { id: "system-stats" },
    stat("Version", s.version, `started ${when(s.started_at)}`),
    stat("Uptime", uptime),
    stat("Disk free", bytes(s.disk?.free_bytes), `of ${bytes(s.disk?.total_bytes)} · ${s.data_dir}`),
    stat("Database", bytes(s.database?.bytes), `${counts} (yours)`),
    stat("Search index", `${Math.floor((idx.embedded ?? 1) * 100)} %`, [idx.model, idx.pending ? ` · ${idx.pending} waiting` : "", idx.reembedding ? " · re-embedding" : ""].join("")),
    audio),
  logCard(s.log || [], () => guard(async () => { main.replaceChildren(); await render(main); })),
  await auditCard());
  const log = document.getElementById("log");
  log.scrollTop = log.scrollHeight;
}

// levels orders the log's levels; a request line is DEBUG (WARN when the
// server failed it).
const levels = { DEBUG: 0, INFO: 1, WARN: 2, ERROR: 3 };

// logCard shows the appliance's recent log, newest last: requests,
// sessions, warnings and errors, with what to show by level and by text.
function logCard(records, refresh) {
  const level = h("select", { id: "log-level" }, h("option", { value: "0" }, "Everything, with requests"),
    h("option", { value: "1" }, "Without requests"), h("option", { value: "2" }, "Warnings and errors"), h("option", { value: "3" }, "Errors"));
  const q = h("input", { id: "log-q", type: "search", placeholder: "Words in a line" });
  const box = h("div.log", { id: "log", tabindex: "0", role: "region", "aria-label": "Recent log lines" });
  const shown = h("p.small.muted", { id: "log-count", role: "status" });
  const draw = () => {
    const min = Number(level.value);
    const words = q.value.trim().toLowerCase();
    const lines = records.map((r) => [r, line(r)]).filter(([r, text]) =>
      (levels[r.level] ?? 1) >= min && (!words || text.toLowerCase().includes(words)));
    box.replaceChildren(...lines.map(([r, text]) => h(`div.${String(r.level).toLowerCase()}`, text)));
    if (!lines.length) box.append(h("div", records.length ? "No line matches." : "Nothing logged yet."));
    shown.textContent = lines.length === records.length ? plural(records.length, "line") : `${lines.length} of ${plural(records.length, "line")}`;
    box.scrollTop = box.scrollHeight;
  };
  level.addEventListener("change", draw);
  q.addEventListener("input", draw);
  draw();
  return h("section.card", h("div.spread", h("h2", "Recent log"), h("button", { type: "button", onclick: refresh }, "Refresh")),
    h("div.toolbar", h("div", h("label", { for: "log-level" }, "Show"), level), h("div.grow", h("label", { for: "log-q" }, "Find"), q)),
    box, shown);
}

// line is one log record as a person reads it: a request as its method,
// route, status and time taken; anything else as its message and values.
function line(r) {
  const a = { ...(r.attrs || {}) };
  const at = time(r.time);
  if (r.msg === "http") {
    return `${at} ${a.method} ${a.route} → ${a.status} (${a.ms} ms)`;
  }
  return `${at} ${r.level} ${r.msg}` + Object.entries(a).map(([k, v]) => ` ${k}=${v}`).join("");
}

// auditCard: who changed the appliance's settings, and who tried to.
async function auditCard() {
  const { audit } = await api("GET", "/system/audit");
  return h("section.card", { id: "audit" }, h("h2", "Changes to the appliance"),
    h("p.muted", "Settings, members and backups: who changed what, and when. Refused attempts by members are marked."),
    audit.length ? h("table", h("thead", h("tr", h("th", "When"), h("th", "Who"), h("th", "What"), h("th", h("span.visually-hidden", "Outcome")))),
      h("tbody", audit.map((e) => h("tr", h("td", when(e.at)), h("td", e.user_name || "—"),
        h("td", h("span", e.action.charAt(0).toUpperCase() + e.action.slice(1), e.target ? h("span.muted", ` · ${e.target}`) : "")),
        h("td", e.refused ? h("span.badge.warn", "Refused") : null)))))
      : h("p", "Nothing yet."));
}
