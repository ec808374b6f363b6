// Package core is the seat-panel bridge firmware's logic in plain Go: it
// scans the seat keys and the pedal, debounces them, reports key events to
// the host and drives the number lights, speaking firmware-bridge/protocol.
// It imports only that package and strconv, starts no goroutine and reads no
// clock: the caller passes the time, in µs since boot, to every Tick. So the
// same code runs on the RP2040 under TinyGo (cmd/pico) and in host tests
// against the fakes in core/coretest.
//
// # Keys
//
// Each seat panel has 16 to 24 contacts on two or three 74HC165 shift
// registers (datasheet: https://assets.nexperia.com/documents/data-sheet/74HC_HCT165.pdf),
// all seats on one chain. Scanner.Tick loads the chain once and shifts out
// Seats×BitsPerSeat bits, seat 1 bit 0 first, or the last seat's first with
// ScanConfig.ChainFromLastSeat (ShiftChain says which register and input
// each bit is; docs/wiring.md draws it). A scan the chain cannot have
// produced (a seat with every contact closed, or, with ScanConfig.TailLow,
// the bit past the chain high) reports nothing: Scanner.Fault says what was
// seen, and the bridge's Hello carries protocol.CapChainFault. A key map
// names the key on each bit; bits with NoKey are read (the self-test shows
// them) but never reported. The pedal, if it is on the bridge, is a GPIO
// (Pin) reported as seat 0, protocol.KeyPedal.
//
// Debounce: a contact's new level must hold for DebounceMicros (5 ms) before
// the edge is reported, timed from the last scan that saw it change, so a
// contact that chatters for a few milliseconds and settles is one press,
// whatever the scan rate. The edge is dated at the first scan that saw the
// contact leave its old level, not when the debounce ended: a key that
// bounced for 3 ms is not reported 3 ms later than one that did not, so the
// host can tell who pressed first. The caller scans at 1 kHz.
//
// Each (seat, key) counts its presses from 1, wrapping at 65535; the up edge
// repeats its press's number. Events wait in an EventQueue of QueueLen (64);
// when it is full the new event is dropped and counted.
//
// # Lights
//
// Lights holds the host's last protocol.Lights and renders the WS2812 chain
// (datasheet: https://cdn-shop.adafruit.com/datasheets/WS2812B.pdf) as GRB
// bytes with brightness applied: one pixel per seat, or two with private
// indicator LEDs. It never changes a colour on its own: if the host goes
// silent the lights hold. The only motion is the pulse the host asks for,
// which breathes a seat's brightness, never its colour.
//
// # Talking to the host
//
// Bridge ties it together: HandleBytes takes what the host sent, Tick scans
// and returns the frames to send. It answers HostHello, Ping, StatsRequest
// and SelfTestDumpKeys, acks Lights and SelfTestSetLED, pings the host every
// HeartbeatMicros, counts the host silent after HostSilenceMicros without a
// valid frame, and resends each KeyEvent every RetransmitMicros, same seq
// and press counter, until the host acks it (at most MaxInFlight unacked;
// resending pauses while the host is silent). See Bridge for the details.
//
// The firmware's main loop calls Bridge.Poll with its USB port (Port) every
// millisecond: Poll reads a bounded amount, scans, and writes a bounded
// amount, never more than TxWindow bytes ahead of what the host's Pongs show
// it has read, so it never waits for the host, and every session (a port
// opened, or a HostHello after a silence) starts with a window of its own,
// so it never goes mute either (see TxWindow). After writing the LEDs the
// loop drains the port's receive buffer again (Receive). The emulator,
// whose pty never blocks, calls HandleBytes and Tick instead.
//
// Neither Scanner, Lights nor Bridge allocates after construction, and none
// is safe for concurrent use: the firmware's main loop owns them.
package core
