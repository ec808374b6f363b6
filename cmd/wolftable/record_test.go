package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordArgs: `wolftable record …`'s command line (journal's verbs
// are tested in journal): flags before or after the file, --flag=value,
// and exit 2 with a clear message on bad usage.
func TestRecordArgs(t *testing.T) {
	dir := t.TempDir()
	call := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"record"}, args...), &out, &errb)
		return code, out.String(), errb.String()
	}
	key := filepath.Join(dir, "table.key")
	if code, out, errs := call("keygen", "--key="+key); code != 0 || !strings.Contains(out, "wolftable-ed25519 ") {
		t.Fatalf("keygen --key=: %d %s %s", code, out, errs)
	}
	code, pub, _ := call("pubkey", "--key", key)
	if code != 0 || !strings.HasPrefix(pub, "wolftable-ed25519 ") {
		t.Fatalf("pubkey --key: %d %q", code, pub)
	}
	// the flag's value reaches the verb, wherever the flag is
	missing := filepath.Join(dir, "missing.wtj")
	for _, args := range [][]string{{"verify", missing, "--pubkey", "nonsense"}, {"verify", "--pubkey=nonsense", missing}} {
		if code, _, errs := call(args...); code != 2 || !strings.Contains(errs, "--pubkey") || !strings.Contains(errs, "公鑰") {
			t.Errorf("%q: exit %d %s", args, code, errs)
		}
	}
	_, _, e1 := call("show", missing, "--format", "md")
	c2, _, e2 := call("show", "--format=md", missing)
	if c2 != 1 || e1 != e2 || !strings.Contains(e2, missing) {
		t.Errorf("show --format md / --format=md: %d\n%s\n%s", c2, e1, e2)
	}
	if code, _, errs := call("show", missing, "--format", "pdf"); code != 2 || !strings.Contains(errs, "unknown format") {
		t.Errorf("--format pdf: %d %s", code, errs)
	}
	if code, out, _ := call("list", dir, "--per", "1"); code != 0 || !strings.Contains(out, "沒有日誌") {
		t.Errorf("list --per 1: %d %s", code, out)
	}
	for _, args := range [][]string{{}, {"frob"}, {"verify"}, {"show", missing, "--format"}, {"verify", missing, "--format", "md"},
		{"verify", "a", "b"}, {"verify", missing, "--bogus"}, {"keygen", "extra"}, {"pubkey", "--bogus"},
		{"list", dir, "--page", "0"}, {"list", dir, "--per"}, {"list", dir, dir}, {"archive", "--page", "2"}, {"list", filepath.Join(dir, "none")}} {
		if code, _, errs := call(args...); code != 2 || errs == "" {
			t.Errorf("record %q: exit %d, want 2 and a message", args, code)
		}
	}
	if code, out, _ := call("help"); code != 0 || !strings.Contains(out, "record verify FILE") || !strings.Contains(out, "record archive [DIR]") {
		t.Fatalf("record help: %d\n%s", code, out)
	}
}
