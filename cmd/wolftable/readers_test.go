package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/internal/hans"
	"wolftable/internal/hans/hanstest"
)

// readerCommands are the commands a judge, a technician or an organiser
// reads, after a game played into the journals folder J.
var readerCommands = [][]string{
	{"record", "show", "J/*"},
	{"record", "verify", "J/*", "--pubkey", "PUB"},
	{"record", "list", "J"},
	{"config", "check", "--config", "CFG", "--no-paths"},
	{"help"},
	{"boards"},
	{"boards", "show", "seer-witch-hunter-idiot"},
	{"record", "help"},
	{"selftest", "-h"},
	{"bridge", "help"},
	{"voice", "help"},
}

// keyLabels are the seat panels' printed key labels, which the self-test
// names as the panel shows them.
var keyLabels = []string{"OK", "CLR", "UP", "DOWN", "WAVE", "HAND", "BOOM"}

// TestNoEnglishForReaders (issue 31 items 8 and 9): in both scripts
// ($WOLFTABLE_SCRIPT, as [venue] script), a whole sim game and the
// commands that read its journal, and the emulated self-test, speak
// Chinese: no
// English word but the names of things (PIN, HTTPS…), codes (ids, keys
// of options, hashes) and the machine-read result line; in hans, nothing
// Traditional is left.
func TestNoEnglishForReaders(t *testing.T) {
	bin := buildBinary(t) // the self-test in a process of its own: one sound device a process
	for _, sc := range []hans.Script{hans.Traditional, hans.Simplified} {
		t.Run(string(sc), func(t *testing.T) {
			t.Setenv(scriptEnv, string(sc))
			dir := t.TempDir()
			var out, errb bytes.Buffer
			if code := run([]string{"sim", "--bots", "--no-tui", "--voice", "off", "--speed", "5000", "--seed", "3", "--journal", dir}, &out, &errb); code != 0 {
				t.Fatalf("sim: exit %d\n%s", code, errb.String())
			}
			readerCheck(t, sc, "sim", out.String()+errb.String())
			files, _ := filepath.Glob(filepath.Join(dir, "archive", "*", "*.wtj")) // finished: archived
			if len(files) != 1 {
				t.Fatalf("journals: %v", files)
			}
			cfg := filepath.Join(t.TempDir(), "config.toml")
			if err := os.WriteFile(cfg, []byte("[venue]\nscript = \""+string(sc)+"\"\n[journal]\ndir = \""+dir+"\"\n[desk]\nurl = \"nats://192.0.2.5:4222\"\ntable = \"T1\"\ncreds = \"/etc/wolftable/desk.creds\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var pub bytes.Buffer
			if code := run([]string{"record", "pubkey", "--key", filepath.Join(filepath.Dir(dir), "table.key")}, &pub, &errb); code != 0 {
				t.Fatalf("record pubkey: %d %s", code, errb.String())
			}
			for _, cmd := range readerCommands {
				args := make([]string, len(cmd))
				for i, a := range cmd {
					args[i] = strings.NewReplacer("J/*", files[0], "J", dir, "PUB", strings.TrimSpace(pub.String()), "CFG", cfg).Replace(a)
				}
				var out, errb bytes.Buffer
				if code := run(args, &out, &errb); code != 0 {
					t.Errorf("%v: exit %d\n%s", cmd, code, lastLines(out.String()+errb.String(), 20))
				}
				what := strings.Join(cmd[:min(2, len(cmd))], " ")
				readerCheck(t, sc, what, readable(out.String()+errb.String()), append(append(boardIDs(t), boardCodes...), usageWords...)...)
			}
			st := exec.Command(bin, "selftest", "--emulate", "--soak", "300ms")
			st.Env = append(os.Environ(), scriptEnv+"="+string(sc))
			rep, err := st.CombinedOutput()
			if err != nil {
				t.Errorf("selftest --emulate: %v\n%s", err, lastLines(string(rep), 20))
			}
			readerCheck(t, sc, "selftest", string(rep))
			selftestFailures(t, bin, sc, cfg)
		})
	}
}

// boardCodes are the words of the board file's syntax that `boards show`
// prints as a technician types them in a .board file: the steps' kinds
// and the options' values (their keys are code-like already).
var boardCodes = []string{"wolves", "witch", "seer", "hunter", "idiot", "true", "false", "on", "off", "neither", "wolves",
	"wasted", "card", "shown", "random", "yuzhe", "wolf", "good", "none", "all", "first", "last", "both", "villagers", "gods",
	"any", "same", "alive", "hidden", "kill", "side", "clock", "fixed", "listed", "never", "redeal", "third"}

// usageWords are the placeholders of the usage texts (`record help`,
// `selftest -h`…), written in capitals as the usage lines write them.
var usageWords = []string{"DIR", "FILE", "SEAT", "KEY", "LIST", "KIND", "PATH", "COLOR"}

// boardIDs are the built-in boards' ids, which `boards` lists first on
// each line: what `boards show ID` takes.
func boardIDs(t *testing.T) []string {
	cat, err := boards.Open("", false)
	if err != nil {
		t.Fatal(err)
	}
	all, err := cat.All()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, b := range all {
		ids = append(ids, b.ID)
	}
	return ids
}

// readable is text without its command lines (`wolftable help`'s usage
// lines and their continuations, "wolftable boards show ID [--dir
// DIR]"): the syntax typed as it is.
func readable(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if tl := strings.TrimSpace(l); strings.HasPrefix(tl, "wolftable ") || strings.HasPrefix(tl, "[") {
			continue
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// readerCheck: text has no English line for its reader (but the words of
// allow, and the seat panels' key labels) and is in the script sc.
func readerCheck(t *testing.T, sc hans.Script, what, text string, allow ...string) {
	t.Helper()
	if !strings.ContainsFunc(text, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }) {
		t.Errorf("%s: no Chinese at all:\n%s", what, lastLines(text, 10))
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "result: ") { // machine-read (README)
			continue
		}
		if strings.HasPrefix(l, "time=") && strings.Contains(l, " level=") { // the log, in English by the house rule
			continue
		}
		if en := hanstest.English(l, append(allow, keyLabels...)...); len(en) > 0 {
			t.Errorf("%s: English %q in %q", what, en, l)
		}
	}
	tr := hanstest.Traditional(text)
	if sc == hans.Simplified && tr != "" {
		t.Errorf("%s in hans has Traditional characters %q", what, tr)
	}
	if sc == hans.Traditional && tr == "" {
		t.Errorf("%s in hant has no Traditional character", what)
	}
}

// selftestFailures: what a technician reads when the self-test fails is
// Chinese too: the robot's note on a dead LED (the emulated table), and
// the plain virtual table's lines when its input ends (stdin not a
// terminal, and empty) and when it closes. The plain table's "lights …"
// frames are machine-read (hw/virtual's doc) and left out.
func selftestFailures(t *testing.T, bin string, sc hans.Script, cfg string) {
	for _, c := range []struct {
		what, want string
		args       []string
	}{
		{"selftest dead-led", "座位 2", []string{"selftest", "--emulate", "--fault", "dead-led:2", "--seats", "6", "--only", "lights", "--soak", "0"}},
		// The pedal waits for a press: the input's end comes first.
		{"selftest virtual", "虛擬桌：輸入已結束", []string{"selftest", "--config", cfg, "--only", "pedal", "--soak", "0"}},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Env = append(os.Environ(), scriptEnv+"="+string(sc))
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Errorf("%s: exit %d (%v), want 1 (a problem found)\n%s", c.what, code, err, lastLines(string(out), 20))
		}
		if !strings.Contains(string(out), sc.Text(c.want)) {
			t.Errorf("%s: no %q in\n%s", c.what, c.want, lastLines(string(out), 20))
		}
		var lines []string
		for _, l := range strings.Split(string(out), "\n") {
			if !strings.HasPrefix(l, "lights ") {
				lines = append(lines, l)
			}
		}
		readerCheck(t, sc, c.what, strings.Join(lines, "\n"))
	}
}
