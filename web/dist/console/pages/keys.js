// Keys and assistants: developer and MCP keys (each shown once), and how
// to connect an assistant to this appliance.
import { api, h, when, toast, confirmDialog, guard } from "../lib.js";

const all = ["conversations:read", "conversations:write", "memories:read", "memories:write", "action_items:read",
  "action_items:write", "goals:read", "goals:write"];
const scopes = { dev: all, mcp: all };

export async function render(main) {
  const mcp = await api("GET", "/mcp");
  main.append(h("div.page-head", h("h1", "Keys & assistants")));
  for (const kind of ["dev", "mcp"]) main.append(await keySection(kind));
  main.append(connectCard(mcp));
}

async function keySection(kind) {
  const section = h("section.card", { id: `keys-${kind}` });
  const title = kind === "dev" ? "Developer API keys" : "MCP keys (assistants)";
  const name = h("input.field", { id: `key-${kind}-name`, required: true, maxlength: 100, placeholder: kind === "dev" ? "Home automation" : "Claude Desktop" });
  const boxes = scopes[kind].map((s) => h("input", { type: "checkbox", value: s, id: `key-${kind}-${s}`, checked: s.endsWith(":read") }));
  const shown = h("div", { "aria-live": "polite" });
  const list = h("ul.list");
  const load = async () => {
    const keys = await api("GET", `/keys/${kind}`);
    list.replaceChildren(...keys.map((k) => h("li.item", { "data-id": k.id },
      h("div.body", h("strong", k.name), h("div.meta", h("code", k.key_prefix), ` · created ${when(k.created_at)}`,
        k.last_used_at ? ` · last used ${when(k.last_used_at)}` : " · never used", k.scopes?.length ? ` · ${k.scopes.join(", ")}` : "")),
      h("button.danger", { type: "button", onclick: async () => {
        if (!(await confirmDialog(`Revoke “${k.name}”? Anything using it stops working.`, "Revoke"))) return;
        await guard(async () => { await api("DELETE", `/keys/${kind}/${encodeURIComponent(k.id)}`); toast("Key revoked"); await load(); });
      } }, "Revoke"))));
    if (!keys.length) list.append(h("li.empty", "No keys."));
  };
  const form = h("form", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
    const k = await api("POST", `/keys/${kind}`, { name: name.value, scopes: boxes.filter((b) => b.checked).map((b) => b.value) });
    name.value = "";
    const copy = h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(k.key).then(() => toast("Copied")) }, "Copy");
    shown.replaceChildren(h("p.notice.ok", "Your new key. It is shown this once; Hearth keeps only its hash."),
      h("div.row", h("code.secret", { id: `key-${kind}-secret` }, k.key), copy));
    await load();
  }); } },
  h("label", { for: `key-${kind}-name` }, "Name"), name,
  h("fieldset", h("legend", "Permissions"), h("div.row", boxes.map((b) => h("label.inline", { for: b.id }, b, b.value)))),
  h("p", h("button.primary", { type: "submit" }, "Create key")));
  section.append(h("h2", title), form, shown, list);
  await load();
  return section;
}

// reachableFromInternet guesses whether url could be a public HTTPS
// address: Claude's and ChatGPT's connectors call it from their vendors'
// servers, so a LAN or loopback address, or plain http, cannot work.
function reachableFromInternet(url) {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const local = host === "localhost" || /\.(local|lan|home|internal|home\.arpa)$/.test(host) || !/[.:]/.test(host) ||
    /^(10|127)\.|^192\.168\.|^172\.(1[6-9]|2\d|3[01])\.|^169\.254\./.test(host) || /^(::1|f[cd]|fe80)/i.test(host);
  return u.protocol === "https:" && !local;
}

function connectCard(info) {
  const url = info.authentication.oauth2.resource;
  const publicNote = reachableFromInternet(url) ? null : h("p.notice", { id: "mcp-public-note" },
    `Claude and ChatGPT connect from their vendors' servers, not from your browser, so ${url} will not work for them: they need this appliance at a public HTTPS address, such as a reverse proxy or a tunnel you run, with hearth serve --public-url set to it (see "Connecting assistants" in the README). Local clients (Cursor, mcp-remote) can use this address with an MCP key.`);
  return h("section.card", { id: "mcp-card" }, h("h2", "Connect an assistant (MCP)"),
    h("p", "Server URL: ", h("code", { id: "mcp-url" }, url)),
    h("p.muted", "Assistants that speak OAuth (Claude, ChatGPT) only need the URL: they open a consent page here, where you sign in and choose what they may see. Others take an MCP key as a bearer token."),
    publicNote,
    h("h3", "Claude"), h("p", "Settings → Connectors → Add custom connector, and paste the server URL."),
    h("h3", "ChatGPT"), h("p", "Settings → Connectors → Create (developer mode), with the server URL and OAuth."),
    h("h3", "Cursor"), h("pre", JSON.stringify({ mcpServers: { hearth: { url, headers: { Authorization: "Bearer YOUR_MCP_KEY" } } } }, null, 2)),
    h("h3", "mcp-remote (any stdio client)"), h("pre", `npx mcp-remote ${url} --header "Authorization: Bearer YOUR_MCP_KEY"`));
}
