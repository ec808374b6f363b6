package remedy_test

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"testing"

	bugst "go.bug.st/serial"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi/spireg"

	"wolftable/drivers/serial"
	"wolftable/hw/remedy"
)

// alsaNoCard is what oto says on a Pi without a sound card (its text,
// as `selftest` showed it on such a machine).
const alsaNoCard = `oto: ALSA error at snd_pcm_open: "default": No such file or directory, "plug:default": No such file or directory`

// TestRemedies (issue 27 item 5): each usual misconfiguration, as the
// drivers report it, gets its Chinese sentence with the remedy, and the
// raw error after it. periph's registries are empty in a test process
// (no host.Init), so spireg.Open and i2creg.Open fail here exactly as on
// a Pi with SPI or I2C off.
func TestRemedies(t *testing.T) {
	_, spiErr := spireg.Open("")
	_, i2cErr := i2creg.Open("1")
	_, ttyErr := bugst.Open("/dev/ttyACM99", &bugst.Mode{BaudRate: 115200})
	if spiErr == nil || i2cErr == nil || ttyErr == nil {
		t.Skip("this machine has SPI, I2C and /dev/ttyACM99: no real errors to map")
	}
	for _, c := range []struct {
		name string
		err  error
		want []string // in the sentence
	}{
		{"SPI off", fmt.Errorf("gpio: lights: opening SPI port %q: %w", "SPI0.0", spiErr), []string{"SPI 沒有開啟", "raspi-config nonint do_spi 0"}},
		{"I2C off", fmt.Errorf("gpio: keys: opening I2C bus %q: %w", "1", i2cErr), []string{"I2C 沒有開啟", "raspi-config nonint do_i2c 0"}},
		{"no sound card", errors.New(alsaNoCard), []string{"找不到音效裝置", "aplay -l"}},
		{"sound device busy", errors.New(`oto: ALSA error at snd_pcm_open: "default": Device or resource busy`), []string{"音效裝置被其他程式占用"}},
		{"sound permission", errors.New(`oto: ALSA error at snd_pcm_open: "default": Permission denied`), []string{"adduser wolftable audio"}},
		{"serial permission", errors.New("serial: open /dev/ttyACM0: Permission denied"), []string{"adduser wolftable dialout", "/dev/ttyACM0"}},
		{"SPI permission", errors.New("gpio: lights: opening SPI port \"SPI0.0\": sysfs-spi: open /dev/spidev0.0: permission denied"), []string{"adduser wolftable spi"}},
		{"I2C permission", fmt.Errorf("gpio: keys: %w", &fs.PathError{Op: "open", Path: "/dev/i2c-1", Err: fs.ErrPermission}), []string{"adduser wolftable i2c"}},
		{"GPIO permission", errors.New("gpio: pedal: open /dev/gpiomem: permission denied"), []string{"adduser wolftable gpio"}},
		{"serial port missing", fmt.Errorf("serial: open /dev/ttyACM99: %w", ttyErr), []string{"序列埠 /dev/ttyACM99 不存在", "ls /dev/ttyACM*"}},
		{"serial port busy", errors.New("serial: open /dev/ttyUSB0: Serial port busy"), []string{"/dev/ttyUSB0 被其他程式占用", "ModemManager"}},
	} {
		r, ok := remedy.For(c.err)
		line := remedy.Explain(c.err)
		if !ok {
			t.Errorf("%s: no remedy for %v", c.name, c.err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(r.Problem+r.Fix, w) {
				t.Errorf("%s: %q lacks %q", c.name, r.Problem+"："+r.Fix, w)
			}
		}
		if i := strings.Index(line, "原始錯誤："+c.err.Error()); i <= 0 || !strings.HasPrefix(line, r.Problem) {
			t.Errorf("%s: the line is not the sentence then the raw error:\n%s", c.name, line)
		}
	}
	for _, other := range []error{errors.New("virtual: input closed"), errors.New("serial: no answer from the bridge")} {
		if _, ok := remedy.For(other); ok || remedy.Explain(other) != other.Error() {
			t.Errorf("%v: a remedy where none is known: %s", other, remedy.Explain(other))
		}
	}
}

// TestBridgeOfOtherIDs (issue 27 item 5): no port with the config's USB
// IDs, and another USB serial device there: the sentence names it and
// the [serial] vid, pid (or port) to write; with none, it says to plug the
// bridge in.
func TestBridgeOfOtherIDs(t *testing.T) {
	saved := remedy.Ports
	t.Cleanup(func() { remedy.Ports = saved })
	err := fmt.Errorf("%w with USB ID %s:%s", serial.ErrNoBridge, "2e8a", "000a")
	remedy.Ports = func() ([]remedy.Port, error) {
		return []remedy.Port{{Name: "/dev/ttyACM0", VID: "2E8A", PID: "0005", Product: "Board in FS mode"}}, nil
	}
	r, ok := remedy.For(err)
	if !ok || !strings.Contains(r.Problem, "USB ID 2E8A:000A") || !strings.Contains(r.Problem, "/dev/ttyACM0（USB ID 2E8A:0005，Board in FS mode）") ||
		!strings.Contains(r.Fix, `vid = "2e8a" 與 pid = "0005"`) || !strings.Contains(r.Fix, `port = "/dev/ttyACM0"`) {
		t.Errorf("another bridge: %v %+v", ok, r)
	}
	remedy.Ports = func() ([]remedy.Port, error) { return nil, nil }
	if r, ok := remedy.For(err); !ok || !strings.Contains(r.Problem, "沒有任何 USB 序列裝置") || !strings.Contains(r.Fix, "接上橋接板") {
		t.Errorf("no USB serial device: %v %+v", ok, r)
	}
	// through the selftest's wording too
	if line := remedy.ExplainText(err.Error() + ": is it plugged in?"); !strings.Contains(line, "接上橋接板") || !strings.HasSuffix(line, "is it plugged in?）") {
		t.Errorf("ExplainText: %s", line)
	}
}

// FuzzExplainText: whatever the text, Explain never panics, and its line
// is the text itself or a sentence ending with the text as the raw error.
func FuzzExplainText(f *testing.F) {
	for _, s := range []string{alsaNoCard, "spireg: no port found; did you forget to call Init()?", "serial: open /dev/ttyACM0: Permission denied",
		"serial: no bridge found with USB ID 2e8a:000a", "open /dev/: busy", "", "/dev/tty:", "PERMISSION DENIED /DEV/SPIDEV0.0"} {
		f.Add(s)
	}
	saved := remedy.Ports
	f.Cleanup(func() { remedy.Ports = saved })
	remedy.Ports = func() ([]remedy.Port, error) {
		return []remedy.Port{{Name: "/dev/ttyACM0", VID: "1a86", PID: "7523"}}, nil
	}
	f.Fuzz(func(t *testing.T, s string) {
		line := remedy.ExplainText(s)
		if line != s && !strings.HasSuffix(line, "（原始錯誤："+s+"）") {
			t.Fatalf("%q explained as %q", s, line)
		}
	})
}

// TestHandler: a log record whose err names a misconfiguration gets the
// remedy attribute; others pass unchanged.
func TestHandler(t *testing.T) {
	var b strings.Builder
	log := slog.New(remedy.Handler(slog.NewTextHandler(&b, nil))).With("component", "speaker")
	log.Error("speaker: sound device failed", "err", errors.New(alsaNoCard))
	log.Info("link up", "port", "/dev/ttyACM0")
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `remedy="找不到音效裝置`) || !strings.Contains(lines[0], "component=speaker") || strings.Contains(lines[1], "remedy") {
		t.Errorf("log:\n%s", b.String())
	}
}
