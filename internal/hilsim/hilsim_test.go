package hilsim

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// encode is the WS2812 encoding at 2.5 MHz as a reference: 3 low bytes,
// G R B per LED, MSB first, 1 = 1110, 0 = 1000, 3 low bytes.
func encode(leds []RGB) []byte {
	out := []byte{0, 0, 0}
	for _, l := range leds {
		for _, c := range []uint8{l.G, l.R, l.B} {
			var w uint32
			for bit := 7; bit >= 0; bit-- {
				w <<= 4
				if c>>bit&1 == 1 {
					w |= 0b1110
				} else {
					w |= 0b1000
				}
			}
			out = append(out, byte(w>>24), byte(w>>16), byte(w>>8), byte(w))
		}
	}
	return append(out, 0, 0, 0)
}

func TestDecodeWS2812(t *testing.T) {
	leds := []RGB{{}, {R: 255}, {G: 0x80}, {B: 1}, {R: 0x12, G: 0x34, B: 0x56}}
	got, err := DecodeWS2812(encode(leds))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(leds) {
		t.Fatalf("%d LEDs, want %d", len(got), len(leds))
	}
	for i := range leds {
		if got[i] != leds[i] {
			t.Errorf("LED %d: %+v, want %+v", i+1, got[i], leds[i])
		}
	}
	// Seat 3 red at brightness 64 on a 6-LED chain.
	w := encode([]RGB{{}, {}, {R: 0x40}, {}, {}, {}})
	if h := strings.ToLower(hexOf(w[27:39])); h != "888888888e88888888888888" {
		t.Errorf("reference encoder: seat 3 = %s", h)
	}
	for _, bad := range []struct {
		name string
		wire []byte
		want string
	}{
		{"no reset", encode([]RGB{{R: 1}})[3:], "does not start with the line low"},
		{"half an LED", encode([]RGB{{R: 1}})[:9], "not whole LEDs"},
		{"bad symbol", append([]byte{0}, bytes.Repeat([]byte{0xff}, 12)...), "neither a 1"},
	} {
		if _, err := DecodeWS2812(bad.wire); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.name, err, bad.want)
		}
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(digits[c>>4])
		s.WriteByte(digits[c&15])
	}
	return s.String()
}

func TestParseExpanders(t *testing.T) {
	xs, err := ParseExpanders("0x20 iodir=ffff ipol=0000 gppu=8001 iocon=00 olat=0000 closed=0001 nak=0 polls=42 step=1/3\n" +
		"0x27 iodir=00ff ipol=0100 gppu=0000 iocon=20 olat=ff00 closed=0000 nak=1 polls=0 step=0/0\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Expander{
		{Addr: 0x20, IODIR: 0xffff, GPPU: 0x8001, Closed: 1, Polls: 42, Step: 1, Steps: 3},
		{Addr: 0x27, IODIR: 0x00ff, IPOL: 0x0100, IOCON: 0x20, OLAT: 0xff00, NAK: true},
	}
	if len(xs) != len(want) {
		t.Fatalf("%+v", xs)
	}
	for i := range want {
		if xs[i] != want[i] {
			t.Errorf("expander %d: %+v, want %+v", i, xs[i], want[i])
		}
	}
	for _, bad := range []string{"0x20 iodir=ffff", "0x20 iodir=zz ipol=0 gppu=0 iocon=0 olat=0 closed=0 nak=0 polls=0 step=0/0", "x iodir=0", "0x20 iodir=0 ipol=0 gppu=0 iocon=0 olat=0 closed=0 nak=0 polls=0 step=1"} {
		if _, err := ParseExpanders(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseLines(t *testing.T) {
	ls, err := ParseLines("0 GPIO17 dir=in bias=pull-up drive=z level=1 reads=7 step=2/2\n")
	if err != nil {
		t.Fatal(err)
	}
	want := Line{Offset: 0, Name: "GPIO17", Dir: "in", Bias: "pull-up", Drive: "z", Level: 1, Reads: 7, Step: 2, Steps: 2}
	if len(ls) != 1 || ls[0] != want {
		t.Errorf("%+v, want %+v", ls, want)
	}
	if _, err := ParseLines("0 GPIO17 dir=in"); err == nil {
		t.Error("a short line parsed")
	}
}

func TestParseTransfer(t *testing.T) {
	tr, err := ParseTransfer("xfer=3 speed_hz=2500000 mode=0x3 bits=8 len=2 data=0088\n")
	if err != nil {
		t.Fatal(err)
	}
	if tr.N != 3 || tr.SpeedHz != 2500000 || tr.Mode != 3 || tr.Bits != 8 || !bytes.Equal(tr.Data, []byte{0, 0x88}) || tr.Truncated {
		t.Errorf("%+v", tr)
	}
	if tr, err := ParseTransfer("xfer=1 speed_hz=1 mode=0 bits=8 len=5000 data=00..."); err != nil || !tr.Truncated {
		t.Errorf("truncated: %+v %v", tr, err)
	}
	for _, bad := range []string{"xfer=1 speed_hz=1 mode=0 bits=8 len=3 data=00", "xfer=1", "xfer=1 speed_hz=1 mode=0 bits=8 len=1 data=0g"} {
		if _, err := ParseTransfer(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// The scripts are written the way the modules parse them.
func TestScriptText(t *testing.T) {
	sc := Script{Addr: 0x21, Steps: []Step{{Closed: 0x8001, Polls: 4}, {Polls: 2, Min: 25 * time.Millisecond}, {}}}
	if s := sc.String(); s != "0x21 8001:4 0000:2:25 0000" {
		t.Errorf("%q", s)
	}
	dir := t.TempDir()
	for _, d := range []string{i2cDir, gpioDir} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := &Sim{root: dir}
	if err := s.Keys(sc, Script{Addr: 0x20, Steps: []Step{{Closed: 1}}}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, i2cDir, "hil_keys")); string(b) != "0x21 8001:4 0000:2:25 0000\n0x20 0001\n" {
		t.Errorf("hil_keys: %q", b)
	}
	if err := s.Drive(0, Drive{Level: "0", Reads: 5}, Drive{Level: "z"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, gpioDir, "drive")); string(b) != "0 0:5 z\n" {
		t.Errorf("drive: %q", b)
	}
}

// FuzzParse: the parsers never panic, and a decoded WS2812 frame encodes
// back to its data bytes.
func FuzzParse(f *testing.F) {
	f.Add("0x20 iodir=ffff ipol=0000 gppu=8001 iocon=00 olat=0000 closed=0001 nak=0 polls=42 step=1/3")
	f.Add("0 GPIO17 dir=in bias=pull-up drive=z level=1 reads=7 step=2/2")
	f.Add("xfer=3 speed_hz=2500000 mode=0x3 bits=8 len=2 data=0088")
	f.Add(string(encode([]RGB{{R: 1, G: 2, B: 3}})))
	f.Fuzz(func(t *testing.T, s string) {
		ParseExpanders(s)
		ParseLines(s)
		ParseTransfer(s)
		leds, err := DecodeWS2812([]byte(s))
		if err != nil || len(leds) == 0 {
			return
		}
		w := []byte(s)
		body := bytes.Trim(w, "\x00")
		if re := bytes.Trim(encode(leds), "\x00"); !bytes.Equal(re, body) {
			t.Errorf("decoded %+v re-encodes to % x, not % x", leds, re, body)
		}
	})
}
