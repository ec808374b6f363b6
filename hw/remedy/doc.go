// Package remedy says what a venue's technician should do about the usual
// ways a table's Pi is set up wrong: SPI or I2C not enabled, the daemon's
// user not in the group of a device (spi, i2c, gpio, dialout, audio), no
// sound card, a serial port that is missing or busy, a seat-panel bridge
// with other USB IDs than the config's. It reads errors by their text:
// periph's registries, ALSA (through oto) and the serial library name the
// problem only in words ("spireg: no port found; did you forget to call
// Init()?", `oto: ALSA error at snd_pcm_open: "default": No such file or
// directory`), and the table's drivers pass them on wrapped.
//
// Explain is the line `serve` and `selftest` print: a Chinese (Traditional)
// sentence with the remedy, then the raw error. deploy/README.md has the
// same table for the technician.
package remedy
