// Package serial drives the table through the seat-panel bridge: an RP2040
// running firmware-bridge on USB serial, speaking firmware-bridge/protocol.
// Table implements hw.Table.
//
// # Finding and opening the bridge
//
// Config.Port names the device (a udev symlink such as /dev/wolftable-bridge
// is best); without it Open looks the bridge up by USB vendor and product ID
// (go.bug.st/serial/enumerator; by default TinyGo's Raspberry Pi Pico IDs,
// 2E8A:000A). The line runs at 115200 baud unless Config.Baud says
// otherwise, and never at 1200: TinyGo's USB stack takes 1200 baud as the
// "1200-baud touch" and reboots the RP2040 into its bootloader.
//
// On opening, the host flushes what the bridge wrote while nobody listened,
// writes one 0x00 (so that its first frame is not glued to line noise) and
// sends HostHello until the bridge answers Hello: a version 1 HostHello and
// a version 2 one together, so that a bridge of either protocol version
// answers (a version 2 bridge reports why it last started in its Stats:
// Info.LastReset; the driver logs a watchdog reset). The Hello must report
// as many seats as Config.Seats and as many keys per seat as
// Config.KeysPerSeat; a mismatch is a *HandshakeError telling the
// technician, in Chinese and in English, what to change.
//
// The host never sends the bridge more than protocol.HostPaceBytes in any
// protocol.HostPaceMicros (Pacer): the Pico's USB receive buffer holds 128
// bytes and drops the rest.
//
// # Keys and the pedal
//
// Each KeyEvent is acked by its seq, and delivered once: a retransmission
// (same seat, key, edge, press counter and bridge timestamp) is acked again
// and dropped. With Config.HoldAcks (serve) a seat key's event is acked only
// when its hw.Receipt is signed, which the daemon does once the journal has
// the input: a host killed in between never acked it, and the bridge,
// which keeps one key event in flight until acked, sends it to the next
// host. A host killed after the journal and before the ack makes the
// bridge send the next host an event already journaled: each seat key
// event carries its identity (hw.KeyEvent.ID: seat, key, edge, press
// counter, bridge clock), which the daemon journals and checks
// (daemon.Config.KeysJournaled), so it is acked and dropped there; and an
// up edge of a key this host never saw go down is delivered without a
// supplied down (its press went to the earlier host). The bridge's timestamps are mapped to host time with its
// uptime (a Stats exchange at the start of each session and every
// ClockSyncInterval), so a press made while the link was down arrives late
// but dated when it happened: key events that come before the session's
// first Stats wait for it. Seat 0 is the
// judge's pedal: its edges go through an hw.PedalClassifier and come out as
// hw.EventPedal (short, long, double); Config.RawPedal also delivers the
// edges themselves, for diagnostics.
//
// The bridge keeps up to core.MaxInFlight KeyEvents unacked, so when noise
// on the line destroys one frame, the events after it arrive before its
// retransmission. The driver puts them back in order: a gap in the bridge's
// seq numbers holds later key events back for up to GapWait (USB does not
// lose frames, so only a noisy line pays this), and a key's edge that comes
// before the edge it must follow waits up to KeyWait, after which the driver
// supplies the lost edge itself, so that no key is left down and no press
// is counted twice (Stats: HeldBack, Late, Synthesized).
//
// Time-outs are judged against how far the driver has read the line, not
// the wall clock alone: a host too busy to read does not take the bridge for
// silent, nor a double press for a short one.
//
// Events are queued inside the driver in order, so a slow reader of Events
// does not stall heartbeats; only beyond 4096 unread events are the oldest
// dropped (Stats.Dropped).
//
// # Lights
//
// SetLights sends the full state of every seat's light. The bridge acks it;
// until it does, the driver resends the newest state every
// LightsRetransmit (an older state is never resent: the newest replaces it).
// SetLightsAcked waits for the ack.
//
// # Link
//
// Both sides send a Ping every HeartbeatInterval and answer the other's.
// When the port fails (the cable is pulled: a read error or
// go.bug.st/serial's PortClosed) or nothing valid comes from the bridge for
// SilenceTimeout, the driver reports hw.EventLink down, closes the port and
// reopens it every ReopenInterval (looking the bridge up again by VID/PID
// if it has no fixed path); once the bridge answers Hello it reports the link
// up and sends the last lights again, since a replugged bridge has rebooted
// dark.
package serial
