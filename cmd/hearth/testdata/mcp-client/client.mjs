// Drives a running Hearth appliance with the official TypeScript MCP client,
// as an assistant would: initialize, list tools, call every read tool,
// create/edit/delete a memory, search, call an unknown tool and an unknown
// method (the same -32601 errors on both transports), and end the session.
// Prints one line
// per step and exits non-zero on the first failure.
//
// Usage: node client.mjs http://127.0.0.1:PORT/v1/mcp/sse hearth_mcp_... [sse]
// With "sse" it speaks the older HTTP+SSE transport (revision 2024-11-05).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { EmptyResultSchema, ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";

const [url, key, mode] = process.argv.slice(2);
const legacy = mode === "sse";
if (!url || !key) {
  console.error("usage: node client.mjs MCP_URL MCP_KEY");
  process.exit(2);
}

function check(cond, msg) {
  if (!cond) {
    console.error(`FAIL ${msg}`);
    process.exit(1);
  }
  console.log(`ok ${msg}`);
}

async function call(client, name, args = {}) {
  const res = await client.callTool({ name, arguments: args });
  check(!res.isError, `${name} is not an error result`);
  const text = res.content?.[0]?.text;
  check(typeof text === "string", `${name} returns text content`);
  return JSON.parse(text);
}

const auth = { Authorization: `Bearer ${key}` };
const transport = legacy
  ? new SSEClientTransport(new URL(url), {
      requestInit: { headers: auth },
      // The event stream's GET carries the key too.
      eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers || {}), ...auth } }) },
    })
  : new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth } });
const client = new Client({ name: "hearth-e2e", version: "1.0.0" });
await client.connect(transport);
if (!legacy) {
  check(typeof transport.sessionId === "string" && transport.sessionId.length > 0, "initialize issued a session id");
}

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
const want = [
  "complete_action_item", "create_action_item", "create_memory", "delete_action_item", "delete_memory",
  "edit_memory", "get_action_items", "get_conversation_by_id", "get_conversations", "get_memories",
  "get_people", "get_user_profile", "search_action_items", "search_conversations", "search_memories",
  "update_action_item",
];
check(want.every((n) => names.includes(n)), `tools/list has all ${want.length} tools (got ${names.length})`);

// The raw tools/list result holds only the fields of the protocol revisions
// the server speaks (the loose schema keeps any others).
const rawList = await client.request({ method: "tools/list", params: {} }, ListToolsResultSchema.passthrough());
check(!("ttlMs" in rawList) && !("cacheScope" in rawList), `tools/list has no ttlMs or cacheScope (keys: ${Object.keys(rawList)})`);

// An unknown tool and an unknown method are JSON-RPC errors -32601, with the
// same messages on both transports (on the legacy one, on its stream).
async function rpcError(what, fn) {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  check(false, `${what} fails`);
}
const noTool = await rpcError("an unknown tool", () => client.callTool({ name: "nope", arguments: {} }));
check(noTool.code === -32601 && /Unknown tool: nope$/.test(noTool.message), `an unknown tool is -32601 "Unknown tool: nope" (got ${noTool.code} ${noTool.message})`);
const noMethod = await rpcError("an unknown method", () => client.request({ method: "nope/nothing", params: {} }, EmptyResultSchema));
check(noMethod.code === -32601 && /Method not found: nope\/nothing$/.test(noMethod.message),
  `an unknown method is -32601 "Method not found: nope/nothing" (got ${noMethod.code} ${noMethod.message})`);

const memories = await call(client, "get_memories", { limit: 10 });
check(Array.isArray(memories.memories), "get_memories returns memories");
const conversations = await call(client, "get_conversations", { limit: 5 });
check(Array.isArray(conversations.conversations) && conversations.conversations.length > 0, "get_conversations returns the seeded conversation");
const conv = await call(client, "get_conversation_by_id", { conversation_id: conversations.conversations[0].id });
check(conv.conversation?.id === conversations.conversations[0].id, "get_conversation_by_id returns it");
const items = await call(client, "get_action_items", {});
check(Array.isArray(items.action_items), "get_action_items returns action_items");
const people = await call(client, "get_people", {});
check(Array.isArray(people.people), "get_people returns people");
await call(client, "get_user_profile", {});
const convSearch = await call(client, "search_conversations", { query: "budget" });
check(Array.isArray(convSearch.conversations), "search_conversations returns conversations");
const itemSearch = await call(client, "search_action_items", { query: "report" });
check(Array.isArray(itemSearch.action_items), "search_action_items returns action_items");

const created = await call(client, "create_memory", { content: "I keep my spare house key with the neighbour Margaret" });
const id = created.memory?.id;
check(created.success === true && typeof id === "string", "create_memory creates a memory");
const edited = await call(client, "edit_memory", { memory_id: id, content: "I keep my spare house key with Margaret next door" });
check(edited.success === true, "edit_memory edits it");
const found = await call(client, "search_memories", { query: "spare house key Margaret" });
check(found.memories?.some((m) => m.id === id), "search_memories finds the edited memory");
const deleted = await call(client, "delete_memory", { memory_id: id });
check(deleted.success === true, "delete_memory deletes it");

if (!legacy) {
  await transport.terminateSession();
  check(transport.sessionId === undefined, "the session was ended");
}
await client.close();
console.log("PASS typescript client");
