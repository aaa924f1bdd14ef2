// remote.mjs runs mcp-remote against Hearth with no client id of its own:
// mcp-remote discovers the authorization server, registers itself (RFC
// 7591), opens the consent page in its "browser" (consent.sh), and proxies
// MCP over stdio, where the official TypeScript client lists the tools and
// calls one. Usage: node remote.mjs SERVER_URL CONFIG_DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fileURLToPath } from "node:url";
import path from "node:path";

const [url, configDir] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [path.join(here, "node_modules/mcp-remote/dist/proxy.js"), url],
  env: { ...process.env, BROWSER: path.join(here, "consent.sh"), MCP_REMOTE_CONFIG_DIR: configDir },
  stderr: "inherit",
});
const client = new Client({ name: "hearth-mcp-remote-e2e", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
if (!tools.some((t) => t.name === "get_memories")) throw new Error(`no get_memories in ${tools.map((t) => t.name)}`);
const res = await client.callTool({ name: "get_memories", arguments: {} });
if (res.isError) throw new Error(`get_memories: ${JSON.stringify(res.content)}`);
console.log(`PASS mcp-remote oauth: ${tools.length} tools`);
await client.close();
