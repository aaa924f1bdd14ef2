// Action items: check off, edit, due dates, filters.
import { api, h, when, dayBound, toast, confirmDialog, guard } from "../lib.js";

const PAGE = 100;

export async function render(main) {
  const results = h("ul.list.cards", { id: "action-list", "aria-live": "polite" });
  const more = h("button", { type: "button", hidden: true }, "More");
  let offset = 0;
  const state = h("select", { id: "ai-state" }, h("option", { value: "false" }, "Open"), h("option", { value: "true" }, "Done"),
    h("option", { value: "" }, "All"));
  const from = h("input", { id: "ai-from", type: "date" });
  const to = h("input", { id: "ai-to", type: "date" });
  const desc = h("input.field", { id: "ai-new", maxlength: 500, required: true, placeholder: "Call the plumber" });
  const due = h("input", { id: "ai-new-due", type: "datetime-local" });

  main.append(h("div.page-head", h("h1", "Action items")),
    h("form.card", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
      const body = { description: desc.value };
      if (due.value) body.due_at = new Date(due.value).toISOString();
      await api("POST", "/action-items", body);
      desc.value = ""; due.value = "";
      toast("Action item added");
      await reload();
    }); } },
    h("h2", "Add an action item"), h("div.row.end", h("div.grow", h("label", { for: "ai-new" }, "What"), desc),
      h("div", h("label", { for: "ai-new-due" }, "Due (optional)"), due), h("button.primary", { type: "submit" }, "Add"))),
    h("div.toolbar", h("div", h("label", { for: "ai-state" }, "Show"), state),
      h("div", h("label", { for: "ai-from" }, "Due from"), from), h("div", h("label", { for: "ai-to" }, "Due until"), to)),
    results, h("p", more));
  for (const el of [state, from, to]) el.addEventListener("change", () => guard(reload));
  more.addEventListener("click", () => guard(page));

  async function reload() {
    offset = 0;
    results.replaceChildren();
    await page();
  }

  async function page() {
    const p = new URLSearchParams({ limit: PAGE, offset });
    if (state.value) p.set("completed", state.value);
    if (from.value || to.value) p.set("due", "true");
    if (from.value) p.set("start_date", dayBound(from.value, false));
    if (to.value) p.set("end_date", dayBound(to.value, true));
    const items = await api("GET", "/action-items?" + p);
    offset += items.length;
    for (const a of items) results.append(row(a));
    more.hidden = items.length < PAGE;
    if (offset === 0) results.append(h("li.empty", "Nothing here."));
  }

  function row(a) {
    const li = h("li.item", { "data-id": a.id });
    const view = () => {
      const box = h("input", { type: "checkbox", checked: a.completed, id: `ai-${a.id}`, onchange: () => guard(async () => {
        Object.assign(a, await api("PATCH", `/action-items/${encodeURIComponent(a.id)}`, { completed: box.checked }));
        toast(a.completed ? "Done" : "Reopened");
        view();
      }) });
      li.className = a.completed ? "item done" : "item";
      li.replaceChildren(box,
        h("div.body", h("label.inline.text", { for: `ai-${a.id}` }, a.description),
          h("div.meta", a.due_at ? `due ${when(a.due_at)}` : "no due date",
            a.conversation_id ? [" · ", h("a", { href: `#/conversations/${encodeURIComponent(a.conversation_id)}` }, "from a conversation")] : "")),
        h("div.actions", h("button.link", { type: "button", onclick: edit }, "Edit"),
          h("button.link", { type: "button", onclick: async () => {
            if (!(await confirmDialog("Delete this action item?"))) return;
            await guard(async () => { await api("DELETE", `/action-items/${encodeURIComponent(a.id)}`); li.remove(); toast("Deleted"); });
          } }, "Delete")));
    };
    const edit = () => {
      const d = h("input.field", { value: a.description, maxlength: 500, "aria-label": "Description" });
      const local = a.due_at ? new Date(new Date(a.due_at).getTime() - new Date().getTimezoneOffset() * 60000).toISOString().slice(0, 16) : "";
      const du = h("input", { type: "datetime-local", value: local, "aria-label": "Due" });
      li.replaceChildren(h("form.body.row", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
        const body = { description: d.value };
        if (du.value) body.due_at = new Date(du.value).toISOString();
        Object.assign(a, await api("PATCH", `/action-items/${encodeURIComponent(a.id)}`, body));
        toast("Saved");
        view();
      }); } }, d, du, h("button.primary", { type: "submit" }, "Save"), h("button", { type: "button", onclick: view }, "Cancel")));
      d.focus();
    };
    view();
    return li;
  }

  await reload();
}
