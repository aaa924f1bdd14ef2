// Members: the owner's household. Invite by name (a one-time code and
// link to pass on), reset a forgotten password (another code), hand the
// appliance over, remove a member with their data.
import { api, h, when, toast, confirmDialog, guard, session, isOwner, ownerOnly } from "../lib.js";

export async function render(main) {
  main.append(h("div.page-head", h("h1", "Members")));
  if (!isOwner()) {
    main.append(ownerOnly("The household's members and their sign-in codes are the appliance's."));
    return;
  }
  const { members } = await api("GET", "/members");
  const refresh = () => { main.replaceChildren(); return render(main); };
  const codeBox = h("div", { id: "member-code" });
  const name = h("input.field", { id: "invite-name", name: "name", autocomplete: "off", maxlength: 80, required: true });
  main.append(
    h("p.muted", "Everyone here keeps their own conversations, memories and keys; nobody sees another's. Your backups hold everyone's."),
    h("form.card.row", { id: "invite", onsubmit: (e) => { e.preventDefault(); guard(async () => {
      const r = await api("POST", "/members", { name: name.value });
      await refresh();
      document.getElementById("member-code").replaceWith(codeCard(`Invite for ${r.member.name}`, r));
      document.getElementById("member-code-title").focus();
    }); } },
    h("label.inline", { for: "invite-name" }, "Invite someone by name"), name, h("button.primary", { type: "submit" }, "Invite")),
    codeBox,
    h("ul.list", { id: "members-list" }, members.map((m) => memberItem(m, refresh))));
}

// codeCard shows a one-time code once: the owner passes it on by hand.
function codeCard(title, r) {
  return h("section.card", { id: "member-code" }, h("h2", { id: "member-code-title", tabindex: "-1" }, title),
    h("p", "Give them this code (valid until ", when(r.expires_at), "). On the sign-in page they choose “I have a code” and pick their own password; or they open the link."),
    h("p", h("strong.code", { id: "member-code-value" }, r.code)),
    h("p.small", h("a", { href: r.link, id: "member-code-link" }, r.link)),
    h("p.small.muted", "It is shown only now and works once."));
}

function memberItem(m, refresh) {
  const me = m.id === session.user?.id;
  const state = m.role === "owner" ? h("span.badge.on", "Owner")
    : m.code_expires_at ? h("span.badge.warn", `Code open until ${when(m.code_expires_at)}`)
      : m.can_sign_in ? h("span.badge", "Member") : h("span.badge.warn", "Cannot sign in");
  const act = (label, question, yes, fn) => h("button.link", { type: "button", onclick: async () => {
    if (!(await confirmDialog(question, yes))) return;
    await guard(fn);
  } }, label);
  return h("li.item", { "data-id": m.id, "data-name": m.name },
    h("div.body", h("strong", m.name), me ? " (you) " : " ", state,
      h("div.meta", `since ${when(m.created_at)}`)),
    me || m.role === "owner" ? null : h("div.actions",
      act(m.can_sign_in ? "Reset password" : "New code", m.can_sign_in
        ? `Reset ${m.name}'s password? It stops working now, and they are signed out; you get a code for them to choose another.`
        : `Make a new code for ${m.name}? Any earlier one stops working.`, m.can_sign_in ? "Reset" : "Make a code", async () => {
        const r = await api("POST", `/members/${encodeURIComponent(m.id)}/reset`);
        await refresh();
        document.getElementById("member-code").replaceWith(codeCard(`Reset code for ${m.name}`, r));
      document.getElementById("member-code-title").focus();
      }),
      m.can_sign_in ? act("Make owner", `Hand the appliance to ${m.name}? They get its settings, members and backups; you become a member.`, "Hand over", async () => {
        await api("POST", `/members/${encodeURIComponent(m.id)}/owner`);
        session.user.role = "member";
        session.owner = m.name;
        toast(`${m.name} owns the appliance now`);
        document.dispatchEvent(new Event("roles-changed"));
      }) : null,
      act("Remove", `Remove ${m.name} and all their conversations, memories and keys? This cannot be undone.`, "Remove", async () => {
        await api("DELETE", `/members/${encodeURIComponent(m.id)}`);
        toast(`${m.name} removed`);
        await refresh();
      })));
}
