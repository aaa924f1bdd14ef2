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
  else main.append(routesCard(info), keysCard(info.provider_keys), await modelsCard(info));
  if (info.voice_profile) main.append(await profileCard());
  let timer = 0;
  if (info.models.some((m) => m.pull?.running)) timer = setTimeout(() => { main.replaceChildren(); render(main); }, 1000);
  return () => clearTimeout(timer);
}

// again draws the page anew with what is in effect after a change.
function again(text) {
  toast(text);
  location.hash = "#/speech";
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

// routesCard: the routes in the order in effect now, each on or why not;
// the owner moves one up or down, and the next session uses the new order.
function routesCard(info) {
  const { routes, settings } = info;
  const order = settings.order;
  const fixed = settings.order_fixed_by;
  const move = (name, by) => guard(async () => {
    const next = order.filter((n) => n !== name);
    next.splice(Math.max(0, Math.min(next.length, order.indexOf(name) + by)), 0, name);
    await api("PUT", "/speech/routes", { order: next });
    again(`${name} moved; new sessions use this order`);
  });
  const shown = routes.map((r) => r.name);
  return h("section.card", { id: "routes" }, h("h2", "Routes"),
    h("p.muted", "Live sessions and uploads use the first route that is on; the next takes over when one cannot start. A change applies to the next session; sessions already running keep their route."),
    fixed ? h("p.small.muted", `The order is set by ${fixed} when the appliance starts; remove it there to choose the order here.`) : null,
    routes.length ? h("table", h("thead", h("tr", h("th", "#"), h("th", "Route"), h("th", "State"), h("th", "Where audio goes"), fixed ? null : h("th", "Order"))),
      h("tbody", routes.map((r, i) => h("tr", { "data-route": r.name }, h("td", { "data-label": "" }, String(i + 1)),
        h("td", { "data-label": "Route" }, h("strong", r.name), r.model ? h("span.small.muted", ` ${r.model}`) : null),
        h("td", { "data-label": "State" }, r.on ? h("span.badge.on", "On") : [h("span.badge", "Off"), " ", h("span.small.muted", why(r))]),
        h("td", { "data-label": "Audio" }, r.remote ? h("span.badge.warn", "Leaves the house") : h("span.badge.ok", "Stays here")),
        fixed ? null : h("td", { "data-label": "" }, h("div.row",
          h("button.link", { type: "button", disabled: i === 0, "aria-label": `Move ${r.name} up`, title: "Move up", onclick: () => move(r.name, -1) }, "↑"),
          h("button.link", { type: "button", disabled: i === routes.length - 1, "aria-label": `Move ${r.name} down`, title: "Move down", onclick: () => move(r.name, 1) }, "↓")))))))
      : h("p", "No route: live sessions need a client that brings its own transcripts (custom STT)."),
    !fixed && order.some((n) => !shown.includes(n))
      ? h("p.small.muted", "Not in the order: ", order.filter((n) => !shown.includes(n)).map((n, i) => [i ? ", " : "",
        h("button.link", { type: "button", onclick: () => guard(async () => {
          await api("PUT", "/speech/routes", { order: [...shown, n] });
          again(`${n} added last`);
        }) }, n)])) : null,
    !fixed ? h("button.link", { type: "button", onclick: () => guard(async () => {
      await api("PUT", "/speech/routes", { order: [] });
      again("Back to the default order");
    }) }, "Use the default order") : null);
}

// why a route is off, in the page's words: the whisper route's reason
// names the command line, and here a model is pulled below instead.
function why(r) {
  if (r.name === "whisper" && r.why.startsWith("no whisper model")) return "No model pulled yet: pull one under Models below (base.en for English).";
  return r.why;
}

function keysCard(keys) {
  const card = h("section.card", { id: "provider-keys" }, h("h2", "Remote vendors' keys"),
    h("p.muted", "A key turns its remote route on for the next session; move the route up under Routes to use it first. Keys are stored on this box and never shown again. A flag or environment variable wins over a key saved here."),
    h("ul.list", keys.map((k) => {
      const input = h("input.field", { type: "password", autocomplete: "off", id: `pk-${k.name}`, placeholder: k.set ? "•••••••• (saved)" : "API key" });
      return h("li.item", h("form.body.row", { onsubmit: (e) => { e.preventDefault(); guard(async () => {
        await api("PUT", `/speech/keys/${k.name}`, { key: input.value });
        again(`${k.name} key saved; new sessions can use it`);
      }); } },
      h("label.inline", { for: `pk-${k.name}` }, h("strong", k.name)), input, h("button", { type: "submit" }, "Save"),
      k.set ? h("button.link", { type: "button", onclick: async () => {
        if (!(await confirmDialog(`Remove the ${k.name} key?`, "Remove"))) return;
        await guard(async () => { await api("DELETE", `/speech/keys/${k.name}`); again("Key removed; new sessions no longer use it"); });
      } }, "Remove") : null,
      k.active ? h("span.badge.on", "Route on") : k.set ? h("span.badge.warn", "Saved, route off: see Routes") : null));
    })));
  return card;
}

// speed is a model's speed on this box, as measured, or that it is not.
function speed(m) {
  if (!m.speed) return "Speed here: not measured yet (measured as it transcribes)";
  const s = m.speed;
  return `Speed here: ${s.rtf.toFixed(2)} s of work per second of speech, ${s.rtf < 1 ? "keeps up" : "slower than speech"} (measured over ${Math.round(s.audio_seconds)} s)`;
}

function pullButton(m) {
  return h("button", { type: "button", onclick: () => guard(async () => {
    await api("POST", `/speech/models/${encodeURIComponent(m.name)}/pull`);
    again(`Downloading ${m.name}`);
  }) }, "Pull");
}

function useButton(m) {
  return h("button", { type: "button", onclick: () => guard(async () => {
    await api("PUT", "/speech/whisper-model", { name: m.name });
    again(`New sessions use ${m.name}`);
  }) }, "Use");
}

// modelState is what a model row says and offers: in use, pulled (and
// usable), downloading, or a Pull button.
function modelState(m, fixed) {
  if (m.in_use) return h("span.badge.on", "In use");
  if (m.pulled) return [h("span.badge", "Pulled"), m.kind !== "speaker" && !fixed ? [" ", useButton(m)] : null];
  if (m.pull?.running) {
    return [h("progress", { max: m.pull.total || m.size, value: m.pull.done, "aria-label": `Downloading ${m.name}` }),
      ` ${Math.floor((100 * m.pull.done) / (m.pull.total || m.size))} %`];
  }
  return pullButton(m);
}

async function modelsCard(info) {
  const { models, settings } = info;
  const fixed = settings.whisper_model_fixed_by;
  // English first: what most households speak to the box.
  const recommended = models.filter((m) => m.recommended).sort((a, b) => (a.english === b.english ? 0 : a.english ? -1 : 1));
  const failed = (m) => !m.pull?.running && m.pull?.error;
  return h("section.card", { id: "models" }, h("h2", "Models"),
    recommended.length ? h("div", { id: "recommended" }, h("h3", "Recommended"),
      h("ul.list", recommended.map((m) => h("li.item", { "data-model": m.name }, h("div.body",
        h("div", h("strong", m.name), ` for ${m.recommended}, ${bytes(m.size)}`),
        h("div.small.muted", speed(m)),
        failed(m) ? h("p.notice.error", { role: "alert" }, m.pull.error) : null),
      h("div.actions", modelState(m, fixed)))))) : null,
    h("p.muted", "Downloaded from their publishers (or your --models-url mirror) and checked against the catalog's checksum. ",
      fixed ? `The whisper route's model is set by ${fixed} when the appliance starts.`
        : settings.whisper_model ? ["The whisper route uses the model you chose; ", h("button.link", { type: "button", onclick: () => guard(async () => {
          await api("PUT", "/speech/whisper-model", { name: "" });
          again("New sessions use the best model pulled");
        }) }, "use the best one pulled instead"), "."]
          : "The whisper route uses the best speech model pulled; Use picks another for the next session.",
      " A voice model is used with --speaker-onnx-model NAME."),
    h("table", h("thead", h("tr", h("th", "Model"), h("th", "For"), h("th", "Size"), h("th", "Languages"), h("th", "Speed here"), h("th", h("span.visually-hidden", "Actions")))),
      h("tbody", models.map((m) => [h("tr", { "data-model": m.name },
        h("td", { "data-label": "Model" }, h("strong", m.name), m.quant ? h("span.small.muted", ` ${m.quant}`) : ""),
        h("td", { "data-label": "For" }, m.kind === "speaker" ? "Voices" : "Speech"), h("td", { "data-label": "Size" }, bytes(m.size)),
        h("td", { "data-label": "Languages" }, m.english ? "English" : "Many"),
        h("td", { "data-label": "Speed here" }, m.kind === "speaker" ? "" : m.speed ? `${m.speed.rtf.toFixed(2)} s per s` : h("span.small.muted", "not measured")),
        h("td", { "data-label": "" }, modelState(m, fixed))),
      // An error has a row of its own: the table keeps its columns.
      failed(m) ? h("tr.pull-error", h("td", { colspan: 6, "data-label": "" }, h("span.small", { role: "alert" }, `${m.name}: ${m.pull.error}`))) : null]))));
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
