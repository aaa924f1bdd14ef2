// System: version, uptime, disk, database, search index, the log, backup.
import { api, h, bytes, when, guard } from "../lib.js";

export async function render(main) {
  const s = await api("GET", "/system");
  const idx = s.search_index || {};
  const up = s.uptime_seconds;
  const uptime = up >= 86400 ? `${Math.floor(up / 86400)} d ${Math.floor((up % 86400) / 3600)} h`
    : up >= 3600 ? `${Math.floor(up / 3600)} h ${Math.floor((up % 3600) / 60)} min` : `${Math.floor(up / 60)} min`;
  const stat = (label, value, extra) => h("div.card", h("div.small.muted", label), h("div.stat", value), extra ? h("div.small.muted", extra) : null);
  main.append(h("div.page-head", h("h1", "System"),
    h("a.button.primary", { href: "/console/api/system/backup", download: "", id: "backup" }, "Download a backup")),
  h("div.grid", { id: "system-stats" },
    stat("Version", s.version, `started ${when(s.started_at)}`),
    stat("Uptime", uptime),
    stat("Disk free", bytes(s.disk?.free_bytes), `of ${bytes(s.disk?.total_bytes)} · ${s.data_dir}`),
    stat("Database", bytes(s.database?.bytes), `${s.database?.conversations ?? 0} conversations · ${s.database?.memories ?? 0} memories (yours)`),
    stat("Search index", `${Math.floor((idx.embedded ?? 1) * 100)} %`, [idx.model, idx.pending ? ` · ${idx.pending} waiting` : "", idx.reembedding ? " · re-embedding" : ""].join(""))),
  h("section.card", h("div.spread", h("h2", "Recent log"), h("button", { type: "button", onclick: () => guard(async () => { main.replaceChildren(); await render(main); }) }, "Refresh")),
    h("div.log", { id: "log", tabindex: "0", "aria-label": "Recent log lines" }, (s.log || []).map((r) =>
      h(`div.${String(r.level).toLowerCase()}`, `${new Date(r.time).toLocaleTimeString()} ${r.level} ${r.msg}`,
        Object.entries(r.attrs || {}).map(([k, v]) => ` ${k}=${v}`).join(""))))));
  const log = document.getElementById("log");
  log.scrollTop = log.scrollHeight;
}
