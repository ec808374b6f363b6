package core_test

import (
	"testing"

	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/core/coretest"
	"wolftable/firmware-bridge/protocol"
)

// TestResetReasonOf: the RP2040's registers after each kind of reset, as
// its datasheet and the pico SDK have them, and what the bridge reports.
func TestResetReasonOf(t *testing.T) {
	for _, c := range []struct {
		name                      string
		reason, scratch4, chipRst uint32
		want                      protocol.ResetReason
	}{
		{"power-on", 0, 0, core.ChipResetHadPOR, protocol.ResetPowerOn},
		{"the loop stalled: the firmware's watchdog", core.WatchdogReasonTimer, core.WatchdogMagic, core.ChipResetHadPOR, protocol.ResetWatchdog},
		{"the boot ROM's reboot after flashing", core.WatchdogReasonTimer, 0, core.ChipResetHadPOR, protocol.ResetSoftware},
		{"a forced reset", core.WatchdogReasonForce, core.WatchdogMagic, core.ChipResetHadPOR, protocol.ResetSoftware},
		{"the RUN pin (a RUN reset clears REASON)", 0, 0, core.ChipResetHadRun, protocol.ResetPin},
		{"a debugger's restart", 0, 0, 1 << 20, protocol.ResetUnknown},
	} {
		if got := core.ResetReasonOf(c.reason, c.scratch4, c.chipRst); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestStatsResetReason (L10): the bridge reports its reset reason in the
// Stats of a version 2 session, and a version 1 host gets the Stats it
// always had.
func TestStatsResetReason(t *testing.T) {
	chain := coretest.NewChain(12, 24, true)
	b, err := core.NewBridge(core.Config{Scan: scanConfig(chain), ResetReason: protocol.ResetWatchdog}, chain)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(version uint8) (protocol.Frame, protocol.Message) {
		t.Helper()
		var in []byte
		in = protocol.AppendFrameVersion(in, &protocol.HostHello{Protocol: version, Seats: 12}, 0, version)
		in = protocol.AppendFrame(in, &protocol.StatsRequest{}, 1) // hosts write version 1 frames
		b.Tick(5_000_000)
		b.HandleBytes(in)
		out := b.Tick(5_001_000)
		var d protocol.Decoder
		for len(out) > 0 {
			n, f, err := d.Feed(out)
			out = out[n:]
			if err == nil && f.Type == protocol.TypeStats {
				m, _ := f.Message()
				return f, m
			}
		}
		t.Fatalf("version %d: no Stats", version)
		return protocol.Frame{}, nil
	}
	f, m := ask(protocol.Version2)
	if st := m.(*protocol.Stats); f.Version != protocol.Version2 || st.ResetReason != protocol.ResetWatchdog || st.UptimeMillis != 5000 {
		t.Errorf("version 2 session: Stats %+v in version %d, want the watchdog reset in version 2", st, f.Version)
	}
	f, m = ask(protocol.ProtocolVersion)
	if st := m.(*protocol.Stats); f.Version != protocol.ProtocolVersion || len(f.Body) != 20 || st.ResetReason != protocol.ResetUnknown {
		t.Errorf("version 1 session: Stats %+v in version %d (%d bytes), want a version 1 Stats", st, f.Version, len(f.Body))
	}
}
