//go:build hil

package gpio

import (
	"strings"
	"testing"
	"unicode"

	"wolftable/hw"
)

// TestHILWrongNames: a config naming an SPI port, an I2C bus or a pedal pin
// this machine does not have fails to open with a Chinese error that names
// it, the config key, and what the machine has; what was opened before is
// released, so the right config opens at once.
func TestHILWrongNames(t *testing.T) {
	sim := hilSim(t)
	for _, tc := range []struct {
		name, from, to string
		want           []string
	}{
		{"i2c", `i2c = "0"`, `i2c = "7"`, []string{`I2C 匯流排 "7" 打不開`, "[gpio] i2c", `"0"（/dev/i2c-0）`}},
		{"spi", `spi = "SPI0.0"`, `spi = "SPI1.0"`, []string{`SPI 埠 "SPI1.0" 打不開`, "[gpio] spi", `"SPI0.0"`}},
		{"pedal", `pin = "GPIO17"`, `pin = "GPIO99"`, []string{`腳位 "GPIO99" 不存在`, "[pedal] pin", "GPIO17"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := hilConfigText("")
			if !strings.Contains(text, tc.from) {
				t.Fatalf("the config has no %s", tc.from)
			}
			cfg, err := hw.ParseConfig([]byte(strings.Replace(text, tc.from, tc.to, 1)))
			if err != nil {
				t.Fatal(err)
			}
			tb, err := Open(cfg, Deps{})
			if err == nil {
				tb.Close()
				t.Fatalf("opened with %s", tc.to)
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if !strings.ContainsFunc(msg, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
				t.Errorf("error %q is not in Chinese", msg)
			}
			openHIL(t, sim, hilConfig(t, "")).close()
		})
	}
}
