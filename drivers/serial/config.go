package serial

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

// USB IDs TinyGo gives a Raspberry Pi Pico: the bridge's default.
const (
	DefaultVID = "2E8A" // Raspberry Pi
	DefaultPID = "000A" // Pico (RP2040) running TinyGo, USB CDC
)

// DefaultBaud is the line speed unless Config.Baud says otherwise.
const DefaultBaud = 115200

// bootloaderBaud is the speed that reboots an RP2040 running TinyGo into its
// UF2 bootloader. The driver never sets it.
const bootloaderBaud = 1200

// Timing of the host's side of the protocol.
const (
	HeartbeatInterval = 250 * time.Millisecond // a Ping to the bridge this often
	SilenceTimeout    = time.Second            // nothing valid from the bridge for this long (four heartbeats): reopen the port
	ReopenInterval    = 250 * time.Millisecond // between attempts to reopen the port
	HandshakeTimeout  = time.Second            // HostHello unanswered this long: close and try again
	LightsRetransmit  = 100 * time.Millisecond // resend unacked lights this often
	ClockSyncInterval = 10 * time.Second       // ask the bridge its uptime this often
	DefaultWaitLink   = 3 * time.Second        // how long Open waits for the bridge by default

	helloRetry  = 100 * time.Millisecond // resend HostHello this often during the handshake
	housekeep   = 10 * time.Millisecond  // the session loop's timer: heartbeats, retransmits, pedal
	readTimeout = 20 * time.Millisecond  // the port's read timeout: how often an idle line confirms it has nothing more
	readerStall = 5 * time.Second        // the reader has not come back from the port this long: reopen
	queueLimit  = 4096                   // events held for a consumer that does not read; beyond, the oldest go
)

// Config says where the bridge is and what the table is.
type Config struct {
	// Port is the bridge's device path (a symlink is fine). Empty: find it
	// by VID and PID, again at every reconnection.
	Port string
	// VID and PID are the bridge's USB vendor and product IDs, in hex, used
	// when Port is empty. Empty: DefaultVID and DefaultPID.
	VID, PID string
	// Baud is the line speed; 0 means DefaultBaud. 1200 is refused: it
	// reboots the RP2040 into its bootloader.
	Baud int
	// Seats is the number of seats the table has, 6…18; the bridge must
	// report as many. 0: take the bridge's count (Open must then wait for
	// the bridge).
	Seats int
	// KeysPerSeat is how many keys each seat panel has, 1…17; the bridge
	// must report as many (17: every key, BOOM included; a panel of two
	// 74HC165s has 16). 0: any.
	KeysPerSeat int
	// Software is the host's name and version in HostHello, printable
	// ASCII, at most protocol.MaxSoftwareLen bytes. Empty: "wolftable".
	Software string
	// Pedal classifies the pedal's presses; zero: hw.DefaultPedalTiming().
	Pedal hw.PedalTiming
	// Brightness is the lights' brightness where hw.SeatLight.Brightness is
	// 0; 0 means 255.
	Brightness uint8
	// RawPedal also delivers the pedal's debounced edges, as EventKey events
	// with Seat 0 (Key is then meaningless), besides the classified
	// EventPedal. For diagnostics (wolftable bridge watch).
	RawPedal bool
	// LeaveLights makes Close leave the lights as they are instead of
	// turning them off. For diagnostic tools that set lights and exit.
	LeaveLights bool
	// WaitLink is how long Open waits for the bridge to answer; 0 means
	// DefaultWaitLink. Negative: Open returns at once and the table
	// connects in the background, reporting hw.EventLink.
	WaitLink time.Duration
	// Logger receives the driver's logs; nil: slog.Default().
	Logger *slog.Logger
	// HoldAcks acks a seat key's event to the bridge only when its
	// hw.Event's Receipt is signed (the daemon does once the input is
	// journaled), instead of on arrival: a host killed in between has not
	// acked, so the bridge sends the event again to the next one. The
	// bridge holds its later keys until then (one key event in flight).
	// One journaled whose ack the host's death lost comes to the next host
	// with the same hw.KeyEvent.ID, which the daemon knows from the journal
	// and drops (daemon.Config.KeysJournaled).
	// The pedal's edges are acked on arrival: its presses are classified
	// by their timing. Every receiver of Events must sign the receipts.
	HoldAcks bool
}

// ErrClosed is returned by a Table's methods after Close.
var ErrClosed = errors.New("serial: table closed")

// ErrNoBridge is returned when no serial port has the bridge's USB IDs.
var ErrNoBridge = errors.New("serial: no bridge found")

// ConfigError reports a Config the driver cannot run with.
type ConfigError struct {
	Field  string
	Reason string
}

func (e *ConfigError) Error() string { return "serial: config " + e.Field + ": " + e.Reason }

// HandshakeError reports a bridge that answered but does not fit the table:
// another protocol version, or another number of seats. Reconnecting does
// not help until someone updates the firmware or the configuration.
type HandshakeError struct {
	Port   string
	Reason string
}

func (e *HandshakeError) Error() string { return "serial: bridge on " + e.Port + ": " + e.Reason }

func (c Config) withDefaults() (Config, error) {
	if c.VID == "" {
		c.VID = DefaultVID
	}
	if c.PID == "" {
		c.PID = DefaultPID
	}
	switch {
	case c.Baud == 0:
		c.Baud = DefaultBaud
	case c.Baud == bootloaderBaud:
		return c, &ConfigError{"Baud", "1200 baud reboots the RP2040 into its bootloader; use 115200"}
	case c.Baud < 0:
		return c, &ConfigError{"Baud", fmt.Sprintf("%d is negative", c.Baud)}
	}
	if c.Seats != 0 && (c.Seats < protocol.MinSeats || c.Seats > protocol.MaxSeats) {
		return c, &ConfigError{"Seats", fmt.Sprintf("%d out of range %d…%d", c.Seats, protocol.MinSeats, protocol.MaxSeats)}
	}
	if c.KeysPerSeat < 0 || c.KeysPerSeat > protocol.NumSeatKeys {
		return c, &ConfigError{"KeysPerSeat", fmt.Sprintf("%d out of range 1…%d (0: any)", c.KeysPerSeat, protocol.NumSeatKeys)}
	}
	if c.Seats == 0 && c.WaitLink < 0 {
		return c, &ConfigError{"Seats", "required when Open does not wait for the bridge"}
	}
	if c.Software == "" {
		c.Software = "wolftable"
	}
	hh := protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: protocol.MinSeats, Software: c.Software}
	if hh.Validate() != nil {
		return c, &ConfigError{"Software", fmt.Sprintf("%q: at most %d printable ASCII bytes", c.Software, protocol.MaxSoftwareLen)}
	}
	if c.Pedal == (hw.PedalTiming{}) {
		c.Pedal = hw.DefaultPedalTiming()
	}
	if c.Brightness == 0 {
		c.Brightness = 255
	}
	if c.WaitLink == 0 {
		c.WaitLink = DefaultWaitLink
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c, nil
}

// ConfigFromHW returns the Config for the table c describes: its seats,
// brightness, pedal timing and [serial] section. Logger and the diagnostic
// options are left for the caller.
func ConfigFromHW(c *hw.Config) Config {
	cfg := Config{
		Port:        c.Serial.Port,
		Baud:        c.Serial.Baud,
		Seats:       c.Seats,
		KeysPerSeat: c.Serial.KeysPerSeat,
		Brightness:  c.Brightness,
		Pedal:       c.Pedal.Timing,
	}
	if c.Serial.VID != 0 {
		cfg.VID = fmt.Sprintf("%04X", c.Serial.VID)
	}
	if c.Serial.PID != 0 {
		cfg.PID = fmt.Sprintf("%04X", c.Serial.PID)
	}
	return cfg
}
