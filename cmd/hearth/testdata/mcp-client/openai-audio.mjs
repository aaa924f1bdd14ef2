// Drives a running Hearth appliance with the official OpenAI client, as
// Open WebUI or a script written for OpenAI's speech API would: every
// response_format of /v1/audio/transcriptions and /v1/audio/translations,
// a streamed transcription, model names, and the errors a client reads.
// Prints one line per step and exits non-zero on the first failure.
//
// Usage: node openai-audio.mjs http://127.0.0.1:PORT/v1 hearth_stt_... speech.wav "expected words" \
//   two-sentences.wav "expected words of both"
import fs from "node:fs";
import OpenAI from "openai";

const [baseURL, apiKey, wav, expected, wav2, expected2] = process.argv.slice(2);
if (!baseURL || !apiKey || !wav || !expected || !wav2 || !expected2) {
  console.error("usage: node openai-audio.mjs BASE_URL STT_KEY WAV EXPECTED");
  process.exit(2);
}

function check(cond, msg, got) {
  if (!cond) {
    console.error(`FAIL ${msg}: got ${JSON.stringify(got)}`);
    process.exit(1);
  }
  console.log(`ok ${msg}`);
}

const client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
const file = () => fs.createReadStream(wav);
const cue = (sep) => new RegExp(`^\\d{2}:\\d{2}:\\d{2}\\${sep}\\d{3} --> \\d{2}:\\d{2}:\\d{2}\\${sep}\\d{3}$`, "m");

async function refused(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  return null;
}

const json = await client.audio.transcriptions.create({ file: file(), model: "whisper-1", language: "en", prompt: "a to-do", temperature: 0 });
check(json.text === expected, "json: the words heard", json);

const text = await client.audio.transcriptions.create({ file: file(), model: "whisper-1", response_format: "text" });
check(typeof text === "string" && text.trim() === expected, "text: the words heard", text);

const srt = await client.audio.transcriptions.create({ file: file(), model: "whisper-1", response_format: "srt" });
check(srt.startsWith("1\n") && cue(",").test(srt) && srt.includes(expected), "srt: numbered cues with comma times", srt);

const vtt = await client.audio.transcriptions.create({ file: file(), model: "whisper-1", response_format: "vtt" });
check(vtt.startsWith("WEBVTT\n\n") && cue(".").test(vtt) && vtt.includes(expected), "vtt: a header and cues with dot times", vtt);

const verbose = await client.audio.transcriptions.create({
  file: file(), model: "whisper-1", response_format: "verbose_json", timestamp_granularities: ["word", "segment"],
});
const seg = verbose.segments?.[0];
check(verbose.task === "transcribe" && verbose.language === "english" && verbose.text === expected &&
  verbose.duration > 2 && seg && seg.start >= 0 && seg.end > seg.start && seg.end <= verbose.duration + 0.01 &&
  verbose.segments.map((s) => s.text).join(" ") === expected,
  "verbose_json: language, duration and timed segments", verbose);
// Word times: every word said, in order, each within the recording and
// after the one before it.
const said = expected.toLowerCase().replace(/[^a-z' ]/g, "").split(/\s+/).filter(Boolean);
const words = verbose.words || [];
check(words.map((w) => w.word.toLowerCase()).join(" ") === said.join(" ") &&
  words.every((w, i) => w.start >= 0 && w.end > w.start && w.end <= verbose.duration + 0.01 && (i === 0 || w.start >= words[i - 1].end - 0.01)),
  "verbose_json: each word with its time (timestamp_granularities word)", words);
const segmentsOnly = await client.audio.transcriptions.create({
  file: file(), model: "whisper-1", response_format: "verbose_json", timestamp_granularities: ["segment"],
});
check(segmentsOnly.words === undefined && segmentsOnly.segments?.length > 0, "verbose_json without word granularity: no words", segmentsOnly);

const routed = await client.audio.transcriptions.create({ file: file(), model: "pocketsphinx" });
check(routed.text === expected, "a route named as the model", routed);

const events = await client.audio.transcriptions.create({ file: fs.createReadStream(wav2), model: "whisper-1", stream: true });
const deltas = [];
let done = null;
for await (const ev of events) {
  if (ev.type === "transcript.text.delta") deltas.push(ev.delta);
  if (ev.type === "transcript.text.done") done = ev.text;
}
check(deltas.length === 2 && deltas.join("") === expected2 && done === expected2, "stream: a delta per sentence, then done", { deltas, done });

const translated = await client.audio.translations.create({ file: file(), model: "whisper-1" });
check(translated.text === expected, "translation of English speech: its words", translated);
const tv = await client.audio.translations.create({ file: file(), model: "whisper-1", response_format: "verbose_json" });
check(tv.task === "translate" && tv.language === "english" && tv.text === expected, "translation verbose_json", tv);
const tsrt = await client.audio.translations.create({ file: file(), model: "whisper-1", response_format: "srt" });
check(cue(",").test(tsrt) && tsrt.includes(expected), "translation srt", tsrt);

let e = await refused(client.audio.transcriptions.create({ file: file(), model: "no-such-model" }));
check(e instanceof OpenAI.BadRequestError && e.code === "model_not_found" && e.param === "model", "an unknown model", e?.error);

e = await refused(client.audio.transcriptions.create({ file: file(), model: "whisper-1", response_format: "xml" }));
check(e instanceof OpenAI.BadRequestError && e.param === "response_format" && e.type === "invalid_request_error", "an unknown format", e?.error);

e = await refused(client.audio.transcriptions.create({
  file: file(), model: "whisper-1", response_format: "json", timestamp_granularities: ["segment"],
}));
check(e instanceof OpenAI.BadRequestError && e.param === "timestamp_granularities", "granularities need verbose_json", e?.error);

e = await refused(new OpenAI({ baseURL, apiKey: "hearth_stt_wrong", maxRetries: 0 }).audio.transcriptions.create({ file: file(), model: "whisper-1" }));
check(e instanceof OpenAI.AuthenticationError && e.code === "invalid_api_key" && typeof e.error?.message === "string", "a wrong key", e?.error);

console.log("PASS openai audio client");
