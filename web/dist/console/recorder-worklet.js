// The audio thread's half of recorder.js: hands each block of the first
// channel to the page.
class HearthRecorder extends AudioWorkletProcessor {
  process(inputs) {
    const ch = inputs[0] && inputs[0][0];
    if (ch) this.port.postMessage(ch.slice(0));
    return true;
  }
}
registerProcessor("hearth-recorder", HearthRecorder);
