package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hasDevices reports whether the machine has any device matching glob.
func hasDevices(glob string) bool {
	m, _ := filepath.Glob(glob)
	return len(m) > 0
}

// TestServeSaysWhatToDoWithoutSPI (issue 27 item 5): `serve` on a machine
// without SPI (this one, like a Pi with SPI off) says in Chinese to run
// raspi-config, then the raw error; before the fix it printed only
// "serve: table: gpio: lights: opening SPI port "SPI0.0": spireg: no port
// found; did you forget to call Init()?".
func TestServeSaysWhatToDoWithoutSPI(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	if hasDevices("/dev/spidev*") {
		t.Skip("this machine has SPI")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	gpio, err := os.ReadFile(filepath.Join("..", "..", "hw", "testdata", "gpio.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.toml")
	write(t, cfg, fmt.Sprintf("[journal]\ndir = %q\n[console]\nlisten = \"off\"\n%s", filepath.Join(dir, "j"), gpio), 0o644)
	out, err := exec.Command(bin, "serve", "--config", cfg, "--once", "--mute").CombinedOutput()
	line := lastLine(out)
	if err == nil || !strings.Contains(line, "SPI 沒有開啟") || !strings.Contains(line, "raspi-config nonint do_spi 0") {
		t.Fatalf("serve without SPI (%v):\n%s", err, out)
	}
	// The raw error is the driver's own (in Chinese since the hardware
	// sections got typed errors), ending with periph's words.
	i, j, k := strings.Index(line, "raspi-config"), strings.Index(line, "原始錯誤：gpio: "), strings.Index(line, "spireg: no port found")
	if j < i || k < j {
		t.Errorf("the raw error does not follow the remedy:\n%s", line)
	}
}

// TestSelftestSaysWhatToDoWithoutSoundCard (issue 27 item 5): `selftest`
// of the speaker on a machine without a sound card says in Chinese what
// to do, then oto's ALSA line; libasound prints nothing of its own and
// the log's record carries the remedy. Before the fix the check's detail
// was the ALSA line alone, after libasound's "ALSA lib pcm.c:…
// (snd_pcm_open_noupdate) Unknown PCM default" lines.
func TestSelftestSaysWhatToDoWithoutSoundCard(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	if hasDevices("/dev/snd/pcm*") {
		t.Skip("this machine has a sound card")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	write(t, cfg, fmt.Sprintf("[journal]\ndir = %q\n[console]\nlisten = \"off\"\n", filepath.Join(dir, "j")), 0o644)
	out, _ := exec.Command(bin, "selftest", "--config", cfg, "--only", "speaker", "--wait", "1s").CombinedOutput()
	var found bool
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case !strings.Contains(l, "snd_pcm_open"):
		case strings.Contains(l, " level="): // the log's record: the remedy as an attribute
			if !strings.Contains(l, `remedy="找不到音效裝置`) {
				t.Errorf("a log line without the remedy:\n%s", l)
			}
		default:
			found = true
			if !strings.Contains(l, "找不到音效裝置") || strings.Index(l, "找不到音效裝置") > strings.Index(l, "snd_pcm_open") {
				t.Errorf("a bare ALSA line:\n%s", l)
			}
		}
	}
	if !found {
		t.Fatalf("no sound device failure in the report:\n%s", out)
	}
}

// TestServeSaysWhatToDoWithoutTheBridgePort (issue 27 item 5): `serve` on
// the serial bridge whose port does not exist keeps waiting for it and
// says in Chinese to plug it in or fix [serial] port, with the raw reason.
// Before the fix only the log's English line said it.
func TestServeSaysWhatToDoWithoutTheBridgePort(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	port := "/dev/ttyACM97"
	if hasDevices(port) {
		t.Skip(port + " exists here")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	write(t, cfg, fmt.Sprintf("[table]\nmode = \"serial\"\n[serial]\nport = %q\n[journal]\ndir = %q\n[console]\nlisten = \"off\"\n", port, filepath.Join(dir, "j")), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // only when it fails
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--config", cfg, "--mute")
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = nil
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "座位連線中斷：") {
			if !strings.Contains(l, "序列埠 "+port+" 不存在") || !strings.Contains(l, "原始錯誤：") || !strings.Contains(l, port+": no such file") {
				t.Errorf("the link's remedy: %s", l)
			}
			return
		}
	}
	t.Fatal("serve never said what to do about the missing port")
}
