// Package selftest is the technician's self-test of the table, `wolftable
// selftest`: before a tournament day it checks the link to the hardware,
// the judge's pedal, every seat's lights and keys and the speaker, and
// says which one is broken. README.md in this directory is the
// technician's guide.
//
// # Shape
//
// Run drives the test: a Target reaches the table (SerialTarget: the
// seat-panel bridge; GPIOTarget: the Pi's own pins; VirtualTarget: the
// virtual table or any hw.Table), a Technician acts on it, a Sound plays
// the test line, and a Report comes out: a pass/fail per component and per
// seat, and the problems, each naming its seat and key. Report.WriteText and
// Report.WriteJSON write it; Command is the CLI.
//
// The stages, in order:
//
//   - link: the mode's checks before the table is opened. The bridge:
//     found (by path or USB ID) and its Hello (serial.Probe); then a
//     protocol session of the self-test's own (the driver keeps neither a
//     heartbeat round trip nor fresh bridge counters): ping round trips idle
//     and under load, the raw contacts (SelfTestDumpKeys: keys closed before
//     anyone touched them), a soak of full-rate light frames (a few in
//     flight, each acked), and the bridge's and the host's CRC, malformed,
//     overrun and queue-overflow counters, which must not move. After the
//     test the driver's own counters (reconnections, lost edges). GPIO: the
//     I2C bus opens and every MCP23017 answers at its address; the soak
//     writes the LED chain back to back.
//   - pedal: a short, a long and a double press must be recognised (three
//     tries each).
//   - lights: seat by seat, red, green, blue, off and the private
//     indicator, shown over and over until the technician answers on the
//     pedal (short: right, long: wrong; the seat's OK and CLR keys work
//     too).
//   - keys: seat by seat, prompted on the seat's light (blue, pulsing; the
//     seats done turn green or red), on the terminal and by voice ("3號，請依次
//     按下所有按鍵", if the voice pack has the clips): every key once, in order.
//     Each press is ticked off; a key that never comes is missing, one that
//     presses again within BounceWindow of its release bounces, one held down
//     at the start (or closed in the raw scan, or never released) is stuck.
//     The pedal gives up on the keys still missing.
//   - speaker: audio/speaker plays three generated beeps; oto/ALSA errors,
//     the device not opening, and the device stalling (its stall watch; ALSA
//     xruns themselves are recovered inside oto and are not visible) fail it;
//     then the technician says on the pedal whether it was heard.
//
// # A busy host
//
// Every wait is counted in the host's running time (Lag, LagMeter,
// patience): the host's own stalls lengthen it, so an answer, a key, an ack
// or a pong that is late because the host was busy still counts, and what a
// check measures (a round trip, a rate, a device's quiet) is set against
// the stalls. What the stalls explain is a warning with the measured delay
// (Report.Warnings, in Chinese), never a fault: a seat or the link fails
// only on evidence about it.
//
// # One code path, two technicians
//
// The runner learns what happened from the table's events only. Human does
// nothing in the Technician methods: the human acts on the real table. The
// emulated run (Bench, Robot) starts the bridge firmware's emulator behind
// a real pseudo-terminal, opens it with the serial driver like a real
// bridge, and its robot presses the emulator's keys and pedal, reads the
// LEDs back and listens at an emulated sound card (ALSA's file plugin into a
// FIFO read at a device's pace), answering on the pedal as a person would.
// Faults (Fault) are injected into the emulated hardware, never told to the
// robot.
package selftest
