// System: version, uptime, the user's own counts; for the owner also the
// disk, database, search index, the log, the audit trail and the backup.
import { api, h, bytes, when, guard, isOwner, ownerOnly } from "../lib.js";

export async function render(main) {
  const s = await api("GET", "/system");
  const owner = isOwner() && !s.owner_only;
  const idx = s.search_index || {};
  const up = s.uptime_seconds;
  const uptime = up >= 86400 ? `${Math.floor(up / 86400)} d ${Math.floor((up % 86400) / 3600)} h`
    : up >= 3600 ? `${Math.floor(up / 3600)} h ${Math.floor((up % 3600) / 60)} min` : `${Math.floor(up / 60)} min`;
  const stat = (label, value, extra) => h("div.card", h("div.small.muted", label), h("div.stat", value), extra ? h("div.small.muted", extra) : null);
  const counts = `${s.database?.conversations ?? 0} conversations · ${s.database?.memories ?? 0} memories`;
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
      stat("Your conversations", String(s.database?.conversations ?? 0), `and ${s.database?.memories ?? 0} memories`), audio),
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
  h("section.card", h("div.spread", h("h2", "Recent log"), h("button", { type: "button", onclick: () => guard(async () => { main.replaceChildren(); await render(main); }) }, "Refresh")),
    h("div.log", { id: "log", tabindex: "0", "aria-label": "Recent log lines" }, (s.log || []).map((r) =>
      h(`div.${String(r.level).toLowerCase()}`, `${new Date(r.time).toLocaleTimeString()} ${r.level} ${r.msg}`,
        Object.entries(r.attrs || {}).map(([k, v]) => ` ${k}=${v}`).join(""))))),
  await auditCard());
  const log = document.getElementById("log");
  log.scrollTop = log.scrollHeight;
}

// auditCard: who changed the appliance's settings, and who tried to.
async function auditCard() {
  const { audit } = await api("GET", "/system/audit");
  return h("section.card", { id: "audit" }, h("h2", "Changes to the appliance"),
    h("p.muted", "Settings, members and backups: who changed what, and when. Refused attempts by members are marked."),
    audit.length ? h("table", h("thead", h("tr", h("th", "When"), h("th", "Who"), h("th", "What"), h("th", ""))),
      h("tbody", audit.map((e) => h("tr", h("td", when(e.at)), h("td", e.user_name || "—"),
        h("td", e.action.charAt(0).toUpperCase() + e.action.slice(1), e.target ? h("span.muted", ` · ${e.target}`) : ""),
        h("td", e.refused ? h("span.badge.warn", "Refused") : "")))))
      : h("p", "Nothing yet."));
}
