package serial

import (
	"errors"
	"strings"
	"testing"

	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

func TestConfigDefaults(t *testing.T) {
	c, err := Config{Port: "/dev/x"}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if c.Baud != 115200 || c.VID != DefaultVID || c.PID != DefaultPID || c.Software != "wolftable" ||
		c.Pedal != hw.DefaultPedalTiming() || c.Brightness != 255 || c.WaitLink != DefaultWaitLink || c.Logger == nil {
		t.Errorf("defaults: %+v", c)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		field string
	}{
		{Config{Baud: 1200}, "Baud"},
		{Config{Baud: -1}, "Baud"},
		{Config{Seats: 5}, "Seats"},
		{Config{Seats: 19}, "Seats"},
		{Config{WaitLink: -1}, "Seats"},
		{Config{Software: strings.Repeat("x", 33)}, "Software"},
		{Config{Software: "tab\there"}, "Software"},
		{Config{KeysPerSeat: 18}, "KeysPerSeat"},
		{Config{KeysPerSeat: -1}, "KeysPerSeat"},
	} {
		_, err := tc.cfg.withDefaults()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("%+v: %v, want a ConfigError on %s", tc.cfg, err, tc.field)
		}
	}
}

// Every protocol seat key has the hw.Key of the same name.
func TestKeyNames(t *testing.T) {
	for i := range protocol.NumSeatKeys {
		if got, want := hwKeys[i].String(), protocol.Key(i).String(); got != want {
			t.Errorf("protocol key %d %s maps to hw %s", i, want, got)
		}
	}
}

func TestLightsFrame(t *testing.T) {
	tb := &Table{cfg: Config{Brightness: 100}, seats: 6}
	m, err := tb.lightsFrame([]hw.SeatLight{
		{Color: hw.Green},
		{Color: hw.Red, Brightness: 255, Pulse: true},
		{Color: hw.Blue, Private: true, Brightness: 7},
		{Color: hw.Off, Brightness: 255, Private: true},
		{}, {},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := protocol.Lights{Seats: 6}
	want.Seat[0] = protocol.SeatLight{G: 255, Brightness: 100}
	want.Seat[1] = protocol.SeatLight{R: 255, Brightness: 255, Flags: protocol.LightPulse}
	want.Seat[2] = protocol.SeatLight{B: 255, Brightness: 7, Flags: protocol.LightPrivate}
	want.Seat[3] = protocol.SeatLight{Flags: protocol.LightPrivate}
	if m != want {
		t.Errorf("lights\n got %+v\nwant %+v", m, want)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
	if _, err := tb.lightsFrame(make([]hw.SeatLight, 7)); err == nil {
		t.Error("7 lights for 6 seats: no error")
	}
}

func TestConfigFromHW(t *testing.T) {
	c := hw.DefaultConfig()
	c.Seats, c.Mode, c.Brightness = 14, hw.ModeSerial, 80
	c.Serial.Port = "/dev/wolftable-bridge"
	got := ConfigFromHW(c)
	want := Config{Port: "/dev/wolftable-bridge", VID: "2E8A", PID: "000A", Baud: 115200, Seats: 14, KeysPerSeat: 17, Brightness: 80, Pedal: hw.DefaultPedalTiming()}
	if got != want {
		t.Errorf("ConfigFromHW = %+v, want %+v", got, want)
	}
}
