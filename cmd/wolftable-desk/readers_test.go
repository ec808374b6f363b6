package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"wolftable/desk"

	"wolftable/internal/hans"
	"wolftable/internal/hans/hanstest"
)

// deskUsageWords are the placeholders of the desk's usage and the values
// its flags take, written as an organiser types them.
var deskUsageWords = []string{"DIR", "FILE", "NAME", "KEY", "URLS", "ADDR", "HOST", "PORT", "TABLE", "DATA",
	"hant", "hans", // --script's values
	"BOM", "CRLF", "JetStream"} // names of things

// fingerprint is a certificate's SHA-256 fingerprint, a code.
var fingerprint = regexp.MustCompile(`([0-9A-F]{2}:){31}[0-9A-F]{2}`)

// TestNoEnglishForReaders (issue 31 items 8 and 9): the desk's command
// line, as an organiser reads it (its help, registering and listing
// tables, the player registry, the PIN, the certificate, the packs, and
// its usage errors), is Chinese in both scripts (--script or
// $WOLFTABLE_SCRIPT): no English word but the names of things, codes and
// the usage's placeholders; in hans, nothing Traditional is left.
func TestNoEnglishForReaders(t *testing.T) {
	for _, sc := range []hans.Script{hans.Traditional, hans.Simplified} {
		t.Run(string(sc), func(t *testing.T) {
			t.Setenv(scriptEnv, string(sc))
			dir := t.TempDir()
			data := filepath.Join(dir, "data")
			csv := filepath.Join(dir, "players.csv")
			if err := os.WriteFile(csv, []byte("P001,王小明,台北,小明\nP002,林美玲,,\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				args []string
				code int
			}{
				{[]string{"help"}, 0},
				{[]string{"-h"}, 0},
				{[]string{"table", "add", "T1", "--data", data, "--url", "nats://192.0.2.5:4222"}, 0},
				{[]string{"table", "renew", "T1", "--data", data}, 0},
				{[]string{"table", "list", "--data", data}, 0},
				{[]string{"players", "import", csv, "--data", data}, 0},
				{[]string{"players", "list", "--data", data}, 0},
				{[]string{"pin", "--data", data}, 0},
				{[]string{"tls", "--data", data}, 0},
				{[]string{"packs"}, 0},
				{[]string{}, 2}, // no --data: the start's usage error
				{[]string{"--data", data, "x1"}, 2},
				{[]string{"table", "add", "--data", data}, 2},
				{[]string{"table", "rekey", "T1", "--data", data}, 2},
				{[]string{"players", "import", "--data", data}, 2},
				{[]string{"pin"}, 2},
				{[]string{"venue-config", "--data", data}, 2},
			} {
				var out, errb strings.Builder
				if code := run(c.args, &out, &errb); code != c.code {
					t.Errorf("desk %v: exit %d, want %d\n%s%s", c.args, code, c.code, out.String(), errb.String())
				}
				deskReaderCheck(t, sc, strings.Join(c.args, " "), out.String()+errb.String())
			}
		})
	}
}

// deskReaderCheck: text, without its usage lines (the syntax typed as it
// is), has no English word for its reader and is in the script sc.
func deskReaderCheck(t *testing.T, sc hans.Script, what, text string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if tl := strings.TrimSpace(l); strings.HasPrefix(tl, "wolftable ") || strings.HasPrefix(tl, "[") {
			continue
		}
		l = fingerprint.ReplaceAllString(l, "")
		if en := hanstest.English(l, append(desk.Packs(), deskUsageWords...)...); len(en) > 0 {
			t.Errorf("desk %s: English %q in %q", what, en, l)
		}
	}
	tr := hanstest.Traditional(text)
	if sc == hans.Simplified && tr != "" {
		t.Errorf("desk %s in hans has Traditional characters %q", what, tr)
	}
	if sc == hans.Traditional && strings.ContainsFunc(text, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }) && tr == "" {
		t.Errorf("desk %s in hant has no Traditional character", what)
	}
}
