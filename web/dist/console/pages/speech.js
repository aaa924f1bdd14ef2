// Speech: the routes in order, remote vendors' keys (write-only), models
// with download progress, and the owner's voice profile from the microphone.
import { api, h, bytes, when, toast, confirmDialog, guard, notice, isOwner, ownerOnly } from "../lib.js";
import { recordWAV } from "../recorder.js";

export async function render(main) {
  const info = await api("GET", "/speech");
  main.append(h("div.page-head", h("h1", "Speech")));
  // A member records their own voice here; routes, keys and models are
  // the whole appliance's (the server sends a member none of them).
  if (!isOwner() || info.owner_only) main.append(ownerOnly("Speech routes, remote vendors' keys and models apply to everyone's audio."));
  else main.append(routesCard(info.routes), keysCard(info.provider_keys), await modelsCard(info.models));
  if (info.voice_profile) main.append(await profileCard());
  let timer = 0;
  if (info.models.some((m) => m.pull?.running)) timer = setTimeout(() => { main.replaceChildren(); render(main); }, 1000);
  return () => clearTimeout(timer);
}

function routesCard(routes) {
  return h("section.card", { id: "routes" }, h("h2", "Routes"),
    h("p.muted", "Live sessions and uploads use the first route that is on; the next takes over when one cannot start. Set the order with --stt-routes."),
    routes.length ? h("table", h("thead", h("tr", h("th", "#"), h("th", "Route"), h("th", "State"), h("th", "Where audio goes"))),
      h("tbody", routes.map((r, i) => h("tr", h("td", String(i + 1)), h("td", h("strong", r.name)),
        h("td", r.on ? h("span.badge.on", "On") : [h("span.badge", "Off"), " ", h("span.small.muted", r.why)]),
        h("td", r.remote ? h("span.badge.warn", "Leaves the house") : h("span.badge.ok", "Stays here"))))))
      : h("p", "No route: live sessions need a client that brings its own transcripts (custom STT)."));
}

function keysCard(keys) {
  const again = async (text) => {
    toast(text);
    card.replaceWith(keysCard((await api("GET", "/speech")).provider_keys));
  };
  const card = h("section.card", { id: "provider-keys" }, h("h2", "Remote vendors' keys"),
    h("p.muted", "A key turns its remote route on at the next start of the appliance. Keys are stored on this box and never shown again. A flag or environment variable wins over a key saved here."),
    h("ul.list", keys.map((k) => {
      const input = h("input.field", { type: "password", autocomplete: "off", id: `pk-${k.name}`, placeholder: k.set ? "•••••••• (saved)" : "API key" });
      return h("li.item", h("form.body.row", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
        await api("PUT", `/speech/keys/${k.name}`, { key: input.value });
        await again(`${k.name} key saved; restart the appliance to use it`);
      }); } },
      h("label.inline", { for: `pk-${k.name}` }, h("strong", k.name)), input, h("button", { type: "submit" }, "Save"),
      k.set ? h("button.link", { type: "button", onclick: async () => {
        if (!(await confirmDialog(`Remove the ${k.name} key?`, "Remove"))) return;
        await guard(async () => { await api("DELETE", `/speech/keys/${k.name}`); await again("Key removed"); });
      } }, "Remove") : null,
      k.active ? h("span.badge.on", "In use") : k.set ? h("span.badge.warn", "Applies after restart") : null));
    })));
  return card;
}

async function modelsCard(models) {
  return h("section.card", { id: "models" }, h("h2", "Models"),
    h("p.muted", "Downloaded from their publishers (or your --models-url mirror) and checked against the catalog's checksum. The whisper route uses the best speech model pulled; a voice model is used with --speaker-onnx-model NAME."),
    h("table", h("thead", h("tr", h("th", "Model"), h("th", "For"), h("th", "Size"), h("th", "Languages"), h("th", ""))),
      h("tbody", models.map((m) => h("tr", { "data-model": m.name }, h("td", h("strong", m.name), m.quant ? h("span.small.muted", ` ${m.quant}`) : ""),
        h("td", m.kind === "speaker" ? "Voices" : "Speech"), h("td", bytes(m.size)), h("td", m.english ? "English" : "Many"),
        h("td", m.pulled ? h("span.badge.on", "Pulled")
          : m.pull?.running ? [h("progress", { max: m.pull.total || m.size, value: m.pull.done, "aria-label": `Downloading ${m.name}` }),
            ` ${Math.floor((100 * m.pull.done) / (m.pull.total || m.size))} %`]
            : [h("button", { type: "button", onclick: () => guard(async () => {
              await api("POST", `/speech/models/${encodeURIComponent(m.name)}/pull`);
              toast(`Downloading ${m.name}`);
              location.hash = "#/speech";
              window.dispatchEvent(new HashChangeEvent("hashchange"));
            }) }, "Pull"), m.pull?.error ? h("span.small.muted", ` ${m.pull.error}`) : null]))))));
}

async function profileCard() {
  const st = await api("GET", "/speech-profile");
  const card = h("section.card", { id: "voice-profile" }, h("h2", "Your voice"));
  const status = h("p", { id: "profile-status", "aria-live": "polite" }, st.has_profile
    ? `Hearth knows your voice: ${Math.round(st.duration_seconds)} s of speech, recorded ${when(st.updated_at)}. Your segments are marked as yours.`
    : "Hearth does not know your voice yet. Read a few sentences aloud (at least 10 seconds) and it will tell you apart from others.");
  const record = h("button.primary", { type: "button", id: "profile-record" }, st.has_profile ? "Record again" : "Record my voice");
  const seconds = h("select", { id: "profile-seconds", "aria-label": "Length" }, [15, 30, 60].map((s) => h("option", { value: s }, `${s} s`)));
  const out = h("div");
  record.addEventListener("click", () => guard(async () => {
    record.disabled = true;
    out.replaceChildren(notice("Recording… read aloud: “The quick brown fox jumps over the lazy dog. I am recording my voice so that Hearth knows when I am the one speaking.”"));
    try {
      const wav = await recordWAV(Number(seconds.value) * 1000);
      out.replaceChildren(notice("Uploading…"));
      const form = new FormData();
      form.append("file", new Blob([wav], { type: "audio/wav" }), "profile.wav");
      await api("POST", "/speech-profile", form);
      toast("Voice profile saved");
      card.replaceWith(await profileCard());
    } catch (err) {
      out.replaceChildren(notice(err.message, "error"));
    } finally {
      record.disabled = false;
    }
  }));
  card.append(status, h("div.row", record, seconds,
    st.has_profile ? h("a.button", { href: "/console/api/speech-profile/audio", download: "voice-profile.wav" }, "Download the recording") : null,
    st.has_profile ? h("button.danger", { type: "button", onclick: async () => {
      if (!(await confirmDialog("Delete your voice profile?"))) return;
      await guard(async () => { await api("DELETE", "/speech-profile"); toast("Voice profile deleted"); card.replaceWith(await profileCard()); });
    } }, "Delete") : null), out);
  return card;
}
