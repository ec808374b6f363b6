package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigCheckNamesThePlace: `config check` of a bad file names the
// file, the line and the column the parser saw, the key, and the problem
// in Chinese first: in the table's sections (a value out of range, a key
// of an expander inside an inline table, a value of the wrong kind, an
// unknown key under an array of tables) and in the daemon's.
func TestConfigCheckNamesThePlace(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.toml")
	for _, c := range []struct{ src, want string }{
		{"[table]\nseats = 12\n\n[serial]\n# the bridge\nbaud = 1200\n",
			conf + ":6:8: serial.baud: 要是 300 到 12000000 之間的整數（不可為 1200） / 1200 is refused"},
		{"[[gpio.expanders]]\naddress = 0x20\nkeys = { A0 = \"1 UP\",\n  B7 = \"13 OK\" }\n",
			conf + ":4:8: gpio.expanders[0].keys.B7: 要是腳位（A0..A7、B0..B7）對座位按鍵的表 / seat 13 is out of range 1..12"},
		{"[pedal]\nlong = 800\n",
			conf + ":2:8: pedal.long: 要是 100ms 到 10s 之間、帶單位的時間字串，例如 \"800ms\" / write durations as strings with a unit"},
		{"[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders]]\naddress = 0x21\npins = 3\n",
			conf + ":5:1: gpio.expanders[1].pins: 不認得這個鍵 / unknown key (known here: address, keys)"},
		{"[voice]\npack = \"\"\nvolume = \"loud\"\n",
			conf + ":3:10: voice.volume: 要是 0 到 1 之間的數字"},
		{"[voice]\nvolume = 1.5\n",
			conf + ":2:10: voice.volume: 1.5 不在 0..1 之間"},
	} {
		if err := os.WriteFile(conf, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb strings.Builder
		code := run([]string{"config", "check", "--config", conf, "--no-paths"}, &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: exit %d\n%s\nwant %s", c.src, code, errb.String(), c.want)
		}
	}
}
