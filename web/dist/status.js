// Shows the appliance's state on the start page: up, and how far the search
// index is (re-embedding after a model change takes a while).
// The examples name this appliance as the browser reached it.
for (const el of document.querySelectorAll(".origin")) el.textContent = location.origin;

(async () => {
  const el = document.getElementById("status");
  try {
    const r = await fetch("/healthz", { cache: "no-store" });
    const h = await r.json();
    let text = h.status === "ok" ? "Serving." : "Not ready.";
    const idx = h.search_index;
    if (idx) {
      const pct = Math.round(idx.embedded * 100);
      text += idx.reembedding
        ? ` Search index: re-embedding with ${idx.model}, ${pct}% done.`
        : ` Search index: ${idx.model}, ${pct}% embedded.`;
      if (idx.error) text += ` ${idx.error}.`;
    }
    el.textContent = text;
  } catch (e) {
    el.textContent = "The appliance does not answer.";
  }
})();
