// Live: the sessions streaming now, with their speech route, and the
// transcript as it arrives (server-sent events).
import { h, clock, when } from "../lib.js";

export function render(main) {
  const sessions = h("div", { id: "live-sessions" }, h("p.muted", "Connecting…"));
  const feed = h("div.transcript", { id: "live-feed", "aria-live": "polite" });
  const status = h("p.small.muted", { id: "live-status", role: "status" });
  main.append(h("div.page-head", h("h1", "Live")),
    h("section.card", h("h2", "Recording now"), sessions),
    h("section.card", h("div.spread", h("h2", "Transcript"), status), feed,
      h("p.muted.small", { id: "live-empty" }, "Speech appears here as your wearable sends it. ",
        h("a", { href: "#/devices" }, "Connect a wearable or phone"), ".")));

  const src = new EventSource("/console/api/live/events");
  src.addEventListener("open", () => { status.textContent = "Connected"; });
  src.addEventListener("error", () => { status.textContent = "Reconnecting…"; });
  src.addEventListener("sessions", (e) => {
    const { sessions: list } = JSON.parse(e.data);
    sessions.replaceChildren(list.length ? h("ul.list", list.map((s) => h("li.item",
      h("div.emoji", { "aria-hidden": "true" }, "🎙️"),
      h("div.body", h("strong", s.route ? `Route: ${s.route}` : "Waiting for audio"),
        h("div.meta", `${s.codec} · ${s.sample_rate} Hz · ${s.language} · since ${when(s.started_at)}`),
        s.conversation_id ? h("a", { href: `#/conversations/${encodeURIComponent(s.conversation_id)}` }, "Open the recording") : null))))
      : h("p.muted", "No device is streaming."));
  });
  src.addEventListener("resync", () => { feed.append(h("p.small.muted", "Some updates were missed; open the conversation for the whole transcript.")); });
  src.addEventListener("conversation", (e) => {
    const ev = JSON.parse(e.data);
    document.getElementById("live-empty").hidden = true;
    for (const id of ev.replaced || []) feed.querySelector(`[data-seg="${CSS.escape(id)}"]`)?.remove();
    if (ev.type === "conversation.segments_appended") {
      for (const s of ev.segments) {
        feed.querySelector(`[data-seg="${CSS.escape(s.id)}"]`)?.remove();
        feed.append(h(`div.seg${s.is_user ? ".user" : ""}`, { "data-seg": s.id }, h("time", clock(s.start)),
          h("div", h("span.who", s.speaker_name || "Speaker"), h("span.text", s.text))));
      }
    } else {
      const label = { "conversation.started": "A recording started", "conversation.processing_started": "Recording ended; summarising…",
        "conversation.processed": `Saved: ${ev.title || "a conversation"}`, "conversation.failed": `Processing failed: ${ev.error || ""}`,
        "conversation.changed": "A conversation changed" }[ev.type];
      if (label) feed.append(h("p.small.muted", ev.conversation_id && ev.type === "conversation.processed"
        ? h("a", { href: `#/conversations/${encodeURIComponent(ev.conversation_id)}` }, label) : label));
    }
    feed.lastElementChild?.scrollIntoView({ block: "nearest" });
  });
  return () => src.close();
}
