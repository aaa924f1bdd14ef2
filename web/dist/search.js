// The console's hybrid search: the same index the assistants use, through
// GET /v1/search with the owner's ID token. Memories and conversations can
// be hidden from assistants (locked) from here.
const token = document.getElementById("token");
const message = document.getElementById("message");
const results = document.getElementById("results");
token.value = sessionStorage.getItem("hearth.token") || "";

const auth = () => ({ Authorization: `Bearer ${token.value.trim()}` });
const lockPath = { memory: "memories", conversation: "conversations" };

function lockButton(hit) {
  const b = document.createElement("button");
  const label = () => (b.textContent = hit.locked ? "Show to assistants" : "Hide from assistants");
  label();
  b.addEventListener("click", async () => {
    const r = await fetch(`/v1/console/${lockPath[hit.kind]}/${encodeURIComponent(hit.id)}/locked`, {
      method: "PUT",
      headers: { ...auth(), "Content-Type": "application/json" },
      body: JSON.stringify({ locked: !hit.locked }),
    });
    if (r.ok) {
      hit.locked = !hit.locked;
      label();
    } else {
      message.textContent = "The change was refused.";
    }
  });
  return b;
}

document.getElementById("search").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  sessionStorage.setItem("hearth.token", token.value.trim());
  const q = document.getElementById("q").value;
  const kind = document.getElementById("kind").value;
  results.replaceChildren();
  message.textContent = "Searching…";
  try {
    const r = await fetch(`/v1/search?kind=${encodeURIComponent(kind)}&q=${encodeURIComponent(q)}`, { headers: auth() });
    const body = await r.json();
    if (!r.ok) {
      message.textContent = typeof body.detail === "string" ? body.detail : "The search was refused.";
      return;
    }
    message.textContent = body.results.length ? "" : `Nothing matched “${q}”.`;
    const kindNames = { memory: "Memory", conversation: "Conversation", action_item: "Action item" };
    for (const hit of body.results) {
      const li = document.createElement("li");
      const label = document.createElement("small");
      // The scores: fused rank, and the meaning match when there is one.
      label.textContent = `${kindNames[hit.kind] || hit.kind} · score ${hit.score.toFixed(4)}` +
        (hit.similarity ? ` · similarity ${hit.similarity.toFixed(2)}` : "") + " ";
      const text = document.createElement("span");
      text.textContent = hit.text + " "; // text, never HTML: transcripts are untrusted
      li.append(label, text);
      if (lockPath[hit.kind]) li.append(lockButton(hit));
      results.append(li);
    }
  } catch (e) {
    message.textContent = "The appliance does not answer.";
  }
});
