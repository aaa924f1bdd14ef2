// People: the named speakers. Rename, merge two into one, delete.
import { api, h, when, toast, confirmDialog, guard, plural } from "../lib.js";

export async function render(main) {
  const people = await api("GET", "/people");
  const list = h("ul.list.cards.people", { id: "people-list" });
  main.append(h("div.page-head", h("h1", "People")),
    h("p.muted", "People are the speakers you have named. Hearth learns their voices from the segments you assign to them, and suggests them in later conversations."),
    list);
  if (!people.length) list.append(h("li.empty", "Nobody yet. Name a speaker in the app, or say “I’m …” with automatic speakers on."));
  const refresh = () => { main.replaceChildren(); return render(main); };
  for (const p of people) {
    const others = people.filter((o) => o.id !== p.id);
    const name = h("input.field", { value: p.name, "aria-label": `Name of ${p.name}`, maxlength: 100 });
    const into = h("select", { "aria-label": `Merge ${p.name} into` }, h("option", { value: "" }, "Merge into…"),
      others.map((o) => h("option", { value: o.id }, o.name)));
    into.addEventListener("change", async () => {
      if (!into.value) return;
      const target = others.find((o) => o.id === into.value);
      if (!(await confirmDialog(`Merge ${p.name} into ${target.name}? Their segments and voice become ${target.name}'s.`, "Merge"))) {
        into.value = "";
        return;
      }
      await guard(async () => { await api("POST", `/people/${encodeURIComponent(p.id)}/merge`, { into: into.value }); toast("Merged"); await refresh(); });
    });
    list.append(h("li.item", { "data-id": p.id },
      h("div.emoji", { "aria-hidden": "true" }, "👤"),
      h("form.body.row", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
        await api("PATCH", `/people/${encodeURIComponent(p.id)}`, { name: name.value });
        toast("Renamed");
        await refresh();
      }); } }, name, h("button", { type: "submit" }, "Rename"),
      h("span.meta", plural(p.segments ?? 0, "segment"), p.created_at ? ` · since ${when(p.created_at)}` : "")),
      h("div.actions", others.length ? into : null,
        h("button.link", { type: "button", onclick: async () => {
          if (!(await confirmDialog(`Delete ${p.name}? Their segments stay, unnamed.`))) return;
          await guard(async () => { await api("DELETE", `/people/${encodeURIComponent(p.id)}`); toast("Deleted"); await refresh(); });
        } }, "Delete"))));
  }
}
