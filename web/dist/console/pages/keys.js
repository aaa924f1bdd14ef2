// Keys and assistants: developer and MCP keys (each shown once), and how
// to connect an assistant to this appliance.
import { api, h, when, toast, confirmDialog, guard, copyRow, copy } from "../lib.js";

const all = ["conversations:read", "conversations:write", "memories:read", "memories:write", "action_items:read",
  "action_items:write", "goals:read", "goals:write"];
const scopes = { dev: all, mcp: all };

export async function render(main) {
  const mcp = await api("GET", "/mcp");
  main.append(h("div.page-head", h("h1", "Keys & assistants")));
  for (const kind of ["dev", "mcp"]) main.append(await keySection(kind));
  main.append(await grantSection());
  main.append(connectCard(mcp));
}

// grantSection lists the assistants this user approved on the OAuth
// consent page; revoking one ends its access and refresh tokens at once.
async function grantSection() {
  const list = h("ul.list");
  const load = async () => {
    const grants = await api("GET", "/oauth/grants");
    list.replaceChildren(...grants.map((g) => h("li.item", { "data-id": g.id },
      h("div.body", h("strong", g.client_name), h("div.meta", h("code", g.client_id), ` · connected ${when(g.created_at)}`,
        g.scopes?.length ? ` · ${g.scopes.join(", ")}` : "")),
      h("button.danger", { type: "button", onclick: async () => {
        if (!(await confirmDialog(`Revoke “${g.client_name}”? It must ask you again to connect.`, "Revoke"))) return;
        await guard(async () => { await api("DELETE", `/oauth/grants/${encodeURIComponent(g.id)}`); toast("Assistant revoked"); await load(); });
      } }, "Revoke"))));
    if (!grants.length) list.append(h("li.empty", "No assistant connected by OAuth."));
  };
  const section = h("section.card", { id: "oauth-grants" }, h("h2", "Assistants connected by OAuth"), list);
  await load();
  return section;
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

// reach says who can call url. Claude's and ChatGPT's connectors call it
// from their vendors' servers, so they need a public HTTPS address; a
// client on a computer (Claude Desktop through mcp-remote, Cursor) calls
// it from there, so a LAN address works for it, a loopback one only on
// this box.
export function reach(url) {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || /^127\./.test(host) || host === "::1") return "loopback";
  if (/\.(local|lan|home|internal|home\.arpa)$/.test(host) || !/[.:]/.test(host) ||
    /^(10)\.|^192\.168\.|^172\.(1[6-9]|2\d|3[01])\.|^169\.254\.|^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./.test(host) || /^(f[cd]|fe80)/i.test(host)) return "private";
  return u.protocol === "https:" ? "public" : "public-http";
}

const reachNote = {
  loopback: (url) => `${url} is this appliance's loopback address: only an assistant running on the appliance itself can use it. ` +
    "Claude and ChatGPT connect from their vendors' servers and need a public HTTPS address, such as a reverse proxy or a tunnel you run, " +
    "with hearth serve --public-url set to it (see \"Connecting assistants\" in the README). Claude Desktop or Cursor on another computer " +
    "can use the appliance's network address instead: open this console through it, or set --public-url.",
  private: (url) => `${url} is a private address: Claude Desktop (through mcp-remote), Cursor and other clients on a computer in your network ` +
    "can use it with an MCP key, but Claude and ChatGPT's connectors cannot, as they call from their vendors' servers. For them, put the " +
    "appliance at a public HTTPS address (a reverse proxy or a tunnel you run) and set hearth serve --public-url to it (see \"Connecting assistants\" in the README).",
  "public-http": (url) => `${url} is plain HTTP: Claude and ChatGPT's connectors need HTTPS. Put the appliance behind HTTPS and set hearth serve --public-url to that address.`,
};

// snippet is a configuration to paste, with its copy button.
function snippet(id, text) {
  return h("div.snippet", h("button", { type: "button", "aria-label": "Copy this configuration", onclick: () => copy(text) }, "Copy"),
    h("pre", { id }, text));
}

function connectCard(info) {
  const url = info.authentication.oauth2.resource;
  const where = reach(url);
  const note = reachNote[where] ? h("p.notice", { id: "mcp-public-note", "data-reach": where }, reachNote[where](url)) : null;
  // mcp-remote refuses plain HTTP except to localhost unless told.
  const remote = ["mcp-remote", url, ...(url.startsWith("http:") && where !== "loopback" ? ["--allow-http"] : []),
    "--header", "Authorization:${HEARTH_AUTH}"];
  const desktop = { mcpServers: { hearth: { command: "npx", args: remote, env: { HEARTH_AUTH: "Bearer YOUR_MCP_KEY" } } } };
  const cursor = { mcpServers: { hearth: { url, headers: { Authorization: "Bearer YOUR_MCP_KEY" } } } };
  return h("section.card", { id: "mcp-card" }, h("h2", "Connect an assistant (MCP)"),
    copyRow("Server URL", "mcp-url", url),
    h("p.muted", "Assistants that speak OAuth (Claude, ChatGPT, mcp-remote) only need the URL: they open a consent page here, where you sign in and choose what they may see. Others take an MCP key (made above) as a bearer token: replace YOUR_MCP_KEY with it."),
    note,
    h("h3", "Claude and ChatGPT (connectors)"),
    h("p", "Claude: Settings → Connectors → Add custom connector, and paste the server URL. ChatGPT: Settings → Connectors → Create (developer mode), with the server URL and OAuth."),
    h("h3", "Claude Desktop"), h("p.muted.small", "In claude_desktop_config.json (Settings → Developer → Edit config); needs Node.js for npx."),
    snippet("mcp-claude-desktop", JSON.stringify(desktop, null, 2)),
    h("h3", "Cursor"), h("p.muted.small", "In ~/.cursor/mcp.json."), snippet("mcp-cursor", JSON.stringify(cursor, null, 2)),
    h("h3", "mcp-remote (any stdio client)"),
    snippet("mcp-remote", `npx ${remote.slice(0, -2).join(" ")} --header "Authorization: Bearer YOUR_MCP_KEY"`),
    h("p.muted.small", "Or with no key: it registers itself, opens the consent page in your browser, and then shows under “Assistants connected by OAuth”."),
    snippet("mcp-remote-oauth", `npx ${remote.slice(0, -2).join(" ")}`));
}
