// recordWAV records the microphone for ms milliseconds and returns a
// 16 kHz mono 16-bit WAV, the speech profile's format. The browser
// resamples: the audio context runs at 16 kHz.
export async function recordWAV(ms) {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new Error("This browser cannot record here. Microphones need https (or localhost): open the console at its https address.");
  }
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false } });
  const ctx = new AudioContext({ sampleRate: 16000 });
  try {
    await ctx.audioWorklet.addModule("/console/recorder-worklet.js");
    const source = ctx.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(ctx, "hearth-recorder");
    const chunks = [];
    node.port.onmessage = (e) => chunks.push(e.data);
    source.connect(node);
    await new Promise((resolve) => setTimeout(resolve, ms));
    source.disconnect();
    return wav(chunks, ctx.sampleRate);
  } finally {
    stream.getTracks().forEach((t) => t.stop());
    ctx.close();
  }
}

function wav(chunks, rate) {
  const n = chunks.reduce((sum, c) => sum + c.length, 0);
  const buf = new ArrayBuffer(44 + n * 2);
  const v = new DataView(buf);
  const str = (o, s) => { for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i)); };
  str(0, "RIFF"); v.setUint32(4, 36 + n * 2, true); str(8, "WAVE");
  str(12, "fmt "); v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 1, true);
  v.setUint32(24, rate, true); v.setUint32(28, rate * 2, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true);
  str(36, "data"); v.setUint32(40, n * 2, true);
  let o = 44;
  for (const c of chunks) {
    for (let i = 0; i < c.length; i++, o += 2) v.setInt16(o, Math.max(-1, Math.min(1, c[i])) * 32767, true);
  }
  return buf;
}
