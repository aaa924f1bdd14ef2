// The console's hybrid search: the same index the assistants use, through
// GET /v1/search with the owner's ID token.
const token = document.getElementById("token");
const message = document.getElementById("message");
const results = document.getElementById("results");
token.value = sessionStorage.getItem("hearth.token") || "";

document.getElementById("search").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  sessionStorage.setItem("hearth.token", token.value.trim());
  const q = document.getElementById("q").value;
  const kind = document.getElementById("kind").value;
  results.replaceChildren();
  message.textContent = "Searching…";
  try {
    const r = await fetch(`/v1/search?kind=${encodeURIComponent(kind)}&q=${encodeURIComponent(q)}`, {
      headers: { Authorization: `Bearer ${token.value.trim()}` },
    });
    const body = await r.json();
    if (!r.ok) {
      message.textContent = typeof body.detail === "string" ? body.detail : "The search was refused.";
      return;
    }
    message.textContent = body.results.length ? "" : "Nothing found.";
    for (const hit of body.results) {
      const li = document.createElement("li");
      li.textContent = hit.text; // text, never HTML: transcripts are untrusted
      results.append(li);
    }
  } catch (e) {
    message.textContent = "The appliance does not answer.";
  }
});
