// Memories: search, add, edit, lock from assistants, delete.
import { api, h, when, toast, confirmDialog, guard, categoryName } from "../lib.js";

const PAGE = 50;

export async function render(main) {
  const results = h("ul.list.cards", { id: "memory-list" });
  const more = h("button", { type: "button", hidden: true }, "More");
  let offset = 0;
  const q = h("input", { id: "mem-q", type: "search", placeholder: "Search memories…" });
  const sort = h("select", { id: "mem-sort" }, h("option", { value: "created_desc" }, "Newest"),
    h("option", { value: "updated_desc" }, "Recently edited"), h("option", { value: "manual_first" }, "Added by you first"));
  const text = h("textarea", { id: "mem-new", maxlength: 500, required: true, placeholder: "Something worth remembering…" });
  const cat = h("select", { id: "mem-new-category" }, ["manual", "interesting", "system"].map((c) => h("option", { value: c }, categoryName(c))));

  const add = h("form.card", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
    await api("POST", "/memories", { content: text.value, category: cat.value });
    text.value = "";
    toast("Memory added");
    await reload();
  }); } },
  h("h2", "Add a memory"), h("label", { for: "mem-new" }, "Memory"), text,
  h("div.row", h("label", { for: "mem-new-category" }, "Category"), cat, h("button.primary", { type: "submit" }, "Add")));

  main.append(h("div.page-head", h("h1", "Memories")),
    h("form.toolbar", { role: "search", onsubmit: (e) => { e.preventDefault(); reload(); } },
      h("div.grow", h("label", { for: "mem-q" }, "Search"), q), h("div", h("label", { for: "mem-sort" }, "Order"), sort),
      h("button.primary", { type: "submit" }, "Search")),
    add, results, h("p", more));
  sort.addEventListener("change", reload);
  more.addEventListener("click", () => guard(page));

  async function reload() {
    offset = 0;
    results.replaceChildren();
    more.hidden = true;
    const words = q.value.trim();
    if (!words) return page();
    const r = await api("GET", "/search?" + new URLSearchParams({ q: words, kind: "memory", limit: 50 }));
    for (const hit of r.results) results.append(row({ id: hit.id, content: hit.text, is_locked: hit.locked, category: "", found: true }));
    if (!r.results.length) results.append(h("li.empty", "Nothing found."));
  }

  async function page() {
    const ms = await api("GET", "/memories?" + new URLSearchParams({ limit: PAGE, offset, sort: sort.value }));
    offset += ms.length;
    for (const m of ms) results.append(row(m));
    more.hidden = ms.length < PAGE;
    if (offset === 0) results.append(h("li.empty", "No memories yet. They come from your conversations, or add one above."));
  }

  function row(m) {
    const li = h("li.item", { "data-id": m.id });
    const view = () => li.replaceChildren(
      h("div.body", h("p.text", m.content),
        h("div.meta", categoryName(m.category), m.created_at ? ` · ${when(m.created_at)}` : "", " ",
          m.is_locked ? h("span.badge.lock", "Locked") : null, m.manually_added && m.category !== "manual" ? h("span.badge", "Added by you") : null)),
      h("div.actions",
        h("button.link", { type: "button", disabled: m.is_locked, onclick: edit }, "Edit"),
        h("button.link", { type: "button", onclick: () => guard(async () => {
          await api("PUT", `/memories/${encodeURIComponent(m.id)}/locked`, { locked: !m.is_locked });
          m.is_locked = !m.is_locked;
          toast(m.is_locked ? "Hidden from assistants" : "Assistants can see it again");
          view();
        }) }, m.is_locked ? "Unlock" : "Lock"),
        h("button.link", { type: "button", onclick: async () => {
          if (!(await confirmDialog("Delete this memory?"))) return;
          await guard(async () => { await api("DELETE", `/memories/${encodeURIComponent(m.id)}`); li.remove(); toast("Memory deleted"); });
        } }, "Delete")));
    const edit = () => {
      const input = h("textarea", { value: m.content, maxlength: 500, "aria-label": "Memory" });
      li.replaceChildren(h("form.body", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
        const out = await api("PATCH", `/memories/${encodeURIComponent(m.id)}`, { content: input.value });
        Object.assign(m, out, { content: input.value });
        toast("Memory saved");
        view();
      }); } }, input, h("div.row", h("button.primary", { type: "submit" }, "Save"), h("button", { type: "button", onclick: view }, "Cancel"))));
      input.focus();
    };
    view();
    return li;
  }

  await reload();
}
