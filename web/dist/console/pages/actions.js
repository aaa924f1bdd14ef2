// Action items: check off, edit, due dates, filters. Sorted by due date,
// the soonest (and the overdue, flagged) first; those without one last.
import { api, h, dayBound, toast, confirmDialog, guard, due as dueText, toZoned, fromZoned, plural } from "../lib.js";

const PAGE = 100;

export async function render(main) {
  const results = h("ul.list.cards", { id: "action-list" });
  const count = h("p.muted", { id: "ai-count", role: "status" });
  let loaded = [];
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
      if (due.value) body.due_at = fromZoned(due.value);
      await api("POST", "/action-items", body);
      desc.value = ""; due.value = "";
      toast("Action item added");
      await reload();
    }); } },
    h("h2", "Add an action item"), h("div.row.end", h("div.grow", h("label", { for: "ai-new" }, "What"), desc),
      h("div", h("label", { for: "ai-new-due" }, "Due (optional)"), due), h("button.primary", { type: "submit" }, "Add"))),
    h("div.toolbar", h("div", h("label", { for: "ai-state" }, "Show"), state),
      h("div", h("label", { for: "ai-from" }, "Due from"), from), h("div", h("label", { for: "ai-to" }, "Due until"), to)),
    count, results, h("p", more));
  for (const el of [state, from, to]) el.addEventListener("change", () => guard(reload));
  more.addEventListener("click", () => guard(page));

  async function reload() {
    offset = 0;
    loaded = [];
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
    loaded.push(...items);
    more.hidden = items.length < PAGE;
    draw();
  }

  function draw() {
    loaded.sort(byDue);
    results.replaceChildren(...loaded.map(row));
    const overdue = loaded.filter((a) => dueText(a).overdue).length;
    count.textContent = loaded.length ? plural(loaded.length, "action item") + (overdue ? `, ${overdue} overdue` : "") : "";
    if (!loaded.length) results.append(h("li.empty", "Nothing here."));
  }

  // byDue: due first, soonest first; then those without a due date, the
  // newest first.
  function byDue(a, b) {
    if (a.due_at && b.due_at) return new Date(a.due_at) - new Date(b.due_at);
    if (a.due_at || b.due_at) return a.due_at ? -1 : 1;
    return new Date(b.created_at || 0) - new Date(a.created_at || 0);
  }

  function row(a) {
    const li = h("li.item", { "data-id": a.id });
    const view = () => {
      const box = h("input", { type: "checkbox", checked: a.completed, id: `ai-${a.id}`, onchange: () => guard(async () => {
        Object.assign(a, await api("PATCH", `/action-items/${encodeURIComponent(a.id)}`, { completed: box.checked }));
        toast(a.completed ? "Done" : "Reopened");
        view();
        document.getElementById(`ai-${a.id}`)?.focus();
      }) });
      const d = dueText(a);
      li.className = a.completed ? "item done" : d.overdue ? "item overdue" : "item";
      li.replaceChildren(box,
        h("div.body", h("label.inline.text", { for: `ai-${a.id}` }, a.description),
          h("div.meta", d.overdue ? [h("span.badge.danger", "Overdue"), " "] : null, h("span.due", d.text),
            a.conversation_id ? [" · ", h("a", { href: `#/conversations/${encodeURIComponent(a.conversation_id)}` }, "from a conversation")] : "")),
        h("div.actions", h("button.link", { type: "button", onclick: edit }, "Edit"),
          h("button.link", { type: "button", onclick: async () => {
            if (!(await confirmDialog("Delete this action item?"))) return;
            await guard(async () => { await api("DELETE", `/action-items/${encodeURIComponent(a.id)}`); loaded.splice(loaded.indexOf(a), 1); draw(); toast("Deleted"); });
          } }, "Delete")));
    };
    const edit = () => {
      const d = h("input.field", { value: a.description, maxlength: 500, "aria-label": "Description" });
      const du = h("input", { type: "datetime-local", value: toZoned(a.due_at), "aria-label": "Due" });
      li.replaceChildren(h("form.body.row", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
        const body = { description: d.value };
        if (du.value) body.due_at = fromZoned(du.value);
        Object.assign(a, await api("PATCH", `/action-items/${encodeURIComponent(a.id)}`, body));
        toast("Saved");
        draw();
        document.getElementById(`ai-${a.id}`)?.focus();
      }); } }, d, du, h("button.primary", { type: "submit" }, "Save"), h("button", { type: "button", onclick: view }, "Cancel")));
      d.focus();
    };
    view();
    return li;
  }

  await reload();
}
