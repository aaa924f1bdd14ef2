// Devices: pairing a phone or wearable app by QR code, the devices that
// hold one of your keys (with when each last called), and the app
// accounts (Firebase) bound to you. Everything here is the signed-in
// member's own.
import { api, h, when, toast, confirmDialog, guard, copyRow } from "../lib.js";

export async function render(main) {
  const list = h("ul.list", { id: "devices-keys" });
  const accounts = h("ul.list", { id: "devices-firebase" });
  const load = async () => {
    const d = await api("GET", "/devices");
    list.replaceChildren(...d.keys.map((k) => h("li.item", { "data-id": k.id },
      h("div.body", h("strong", k.name), h("div.meta", h("code", k.key_prefix),
        k.last_used_at ? ` · last active ${when(k.last_used_at)}` : " · not used yet", ` · paired ${when(k.created_at)}`)),
      h("button.danger", { type: "button", onclick: async () => {
        if (!(await confirmDialog(`Revoke “${k.name}”? The device stops sending to this appliance until it is paired again.`, "Revoke"))) return;
        await guard(async () => { await api("DELETE", `/devices/keys/${encodeURIComponent(k.id)}`); toast("Device revoked"); await load(); });
      } }, "Revoke"))));
    if (!d.keys.length) list.append(h("li.empty", "No device is paired yet."));
    accounts.replaceChildren(...d.firebase.map((a) => h("li.item", { "data-uid": a.firebase_uid },
      h("div.body", h("strong", "App account"), h("div.meta", h("code.wrap", a.firebase_uid), ` · bound ${when(a.created_at)}`)),
      h("button.danger", { type: "button", onclick: async () => {
        if (!(await confirmDialog("Unbind this app account? The app signed in with it is no longer taken as you.", "Unbind"))) return;
        await guard(async () => { await api("DELETE", `/devices/firebase/${encodeURIComponent(a.firebase_uid)}`); toast("Account unbound"); await load(); });
      } }, "Unbind"))));
    if (!d.firebase.length) accounts.append(h("li.empty", "No app account is bound to you."));
  };
  main.append(h("div.page-head", h("h1", "Devices")), pairCard(load),
    h("section.card", h("h2", "Paired devices"),
      h("p.muted", "Each holds a developer key of yours. Revoking one stops it at once."), list),
    h("section.card", h("h2", "App accounts"),
      h("p.muted", "An app signed in with its own account (Firebase) is taken as you once the owner binds it: ",
        h("code", "hearth users bind-firebase --data DIR --user ID --firebase-uid UID"), "."), accounts));
  await load();
}

// pairCard makes a QR code for a phone to scan: it opens the pairing page
// with this appliance's address and a fresh key of the member's.
function pairCard(reload) {
  const name = h("input.field", { id: "pair-name", maxlength: 100, placeholder: "Ada's phone" });
  const shown = h("div", { id: "pair-result" });
  const form = h("form", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
    const p = await api("POST", "/devices/pair", { mint_key: true, ...(name.value.trim() ? { name: name.value.trim() } : {}) });
    name.value = "";
    shown.replaceChildren(
      p.warning ? h("p.notice.error", { id: "pair-warning", role: "alert" }, p.warning) : null,
      h("div.pair", { id: "pair-shown", tabindex: "-1" },
        h("img.qr", { id: "pair-qr", src: p.qr_png, width: 240, height: 240, alt: "QR code that opens the pairing page with this appliance's address and your new key" }),
        h("div.body",
          h("p", "Scan it with the phone's camera, or type in the app:"),
          copyRow("Address", "pair-address", p.base_url),
          copyRow("Key", "pair-key", p.key),
          h("p.muted.small", "The key is shown this once; Hearth keeps only its hash."))));
    // What was made has the focus: a screen reader reads it at once.
    document.getElementById("pair-shown").focus();
    await reload();
  }); } },
  h("label", { for: "pair-name" }, "Name of the device (optional)"), name,
  h("p", h("button.primary", { type: "submit" }, "Show a pairing code")));
  return h("section.card", { id: "pair-card" }, h("h2", "Connect a wearable or phone"),
    h("p.muted", "The Omi app and other apps speaking its API send your conversations here once they know this appliance's address and a key."),
    form, shown);
}
