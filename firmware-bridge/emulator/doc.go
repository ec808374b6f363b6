// Package emulator runs the seat-panel bridge firmware on the host, behind a
// pseudo-terminal, so that the serial driver (drivers/serial), the CLI and
// the self-test can be exercised without an RP2040 on the desk.
//
// It is the same firmware: an Emulator runs firmware-bridge/core's Bridge, the
// code cmd/pico runs under TinyGo, and only replaces the board around it:
//
//   - USB CDC is a pseudo-terminal (github.com/creack/pty). The Emulator owns
//     the master side; the slave side (/dev/pts/N) is what the host opens, and
//     Config.Link puts a symlink to it at a stable path, like a udev rule
//     does for the real bridge.
//   - The main loop is a goroutine that calls Bridge.Tick every millisecond
//     with real time and hands it every byte the host writes, until the
//     context given to Start is cancelled or Close is called. With
//     Config.ManualClock the clock stands still and the loop runs a turn per
//     millisecond of Advance (the gestures advance it themselves), so that a
//     test's timings are the firmware's however loaded the machine is.
//   - The 74HC165 chain and the seat keys are a scriptable seat panel: Press,
//     Release and Tap close and open a seat key's contact; Pedal steps on the
//     judge's pedal with a short, long or double press at human timings.
//     The contacts are sampled by the Bridge's own scan, so debouncing,
//     press counters, retransmits and acks are the firmware's.
//   - The WS2812 chain is read back by Lights, as each seat's number light's
//     RGB with brightness applied, from the same frame the firmware would
//     send to the LEDs.
//
// Unplug closes the pseudo-terminal and removes the link, as pulling the
// USB cable does; Replug creates a new pseudo-terminal at the same link.
// The bridge is powered by USB, so a replug is a reboot: the lights are dark,
// the press counters start again from 1 and the clock from 0. InjectHost
// writes raw bytes towards the host between the firmware's frames (line
// noise), and faults (a dead LED, a missing, bouncy or stuck key, a hung
// firmware) prepare self-tests. Opening the line at 1200 baud does what it
// does to the real bridge: TinyGo's USB stack reboots the RP2040 into its UF2
// bootloader, so the Emulator unplugs itself and counts a bootloader touch.
//
// Unlike the firmware packages, this package needs a host operating system
// (Linux or another Unix with pseudo-terminals); it never builds with TinyGo
// and imports nothing of the table outside firmware-bridge. It lives in the
// firmware's module all the same (firmware-bridge/go.mod), next to the core
// it runs, so that its tests run with the firmware's: the module's go.mod
// therefore lists the pty package, which cmd/pico never imports and TinyGo
// never compiles. The host's drivers, CLI and self-test use it through the
// main module's replace.
//
// The emulator calls Tick, not Poll: a pseudo-terminal never blocks the way
// TinyGo's USB buffer does, and the host tests drive Poll with fakes of
// their own (core/usb_test.go).
package emulator
