// wolftable studio: the recorder's audio worklet. It passes the
// microphone's samples (the first channel, as recorded) to the page, which
// keeps them while a take runs and makes the WAV file.
'use strict';
class WolftableTap extends AudioWorkletProcessor {
  process(inputs) {
    const input = inputs[0];
    if (input && input[0] && input[0].length) this.port.postMessage(input[0].slice(0));
    return true;
  }
}
registerProcessor('wolftable-tap', WolftableTap);
