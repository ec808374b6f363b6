package cliflag

import (
	"bytes"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
)

func testCommands(got *[]string) *Command {
	var format string
	var pages int
	show := &Command{
		Name:       "show",
		ShortUsage: "rec show FILE [--format F]",
		ShortHelp:  "the record",
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&format, "format", "text", "`text|md|json`: the layout")
			fs.IntVar(&pages, "page", 0, "the page")
		},
		Exec: func(args []string, stdout, stderr io.Writer) int {
			*got = append([]string{format}, args...)
			return 0
		},
	}
	return &Command{Name: "rec", Subcommands: []*Command{show, {
		Name: "keygen", ShortUsage: "rec keygen", ShortHelp: "a key",
		Exec: func(args []string, stdout, stderr io.Writer) int { return 7 },
	}}}
}

// TestCommandRun: the first argument picks the subcommand, flags come
// anywhere among the positional arguments, -h prints the generated usage,
// a bad flag or an unknown subcommand is exit 2.
func TestCommandRun(t *testing.T) {
	var got []string
	rec := testCommands(&got)
	var out, errb bytes.Buffer
	if c := rec.Run("bin", []string{"show", "a.wtj", "--format", "md"}, &out, &errb); c != 0 || !reflect.DeepEqual(got, []string{"md", "a.wtj"}) {
		t.Fatalf("exit %d, got %q (%s)", c, got, errb.String())
	}
	if c := rec.Run("bin", []string{"keygen"}, &out, &errb); c != 7 {
		t.Fatalf("keygen: exit %d", c)
	}
	errb.Reset()
	if c := rec.Run("bin", []string{"show", "-h"}, &out, &errb); c != 0 || !strings.Contains(errb.String(), "--format text|md|json（預設 text）") {
		t.Fatalf("-h: exit %d, usage:\n%s", c, errb.String())
	}
	if c := rec.Run("bin", []string{"show", "--nope"}, &out, io.Discard); c != 2 {
		t.Fatalf("a bad flag: exit %d", c)
	}
	errb.Reset()
	if c := rec.Run("bin", []string{"nope"}, &out, &errb); c != 2 || !strings.Contains(errb.String(), `bin rec：沒有 "nope" 這個指令`) {
		t.Fatalf("unknown: exit %d, %s", c, errb.String())
	}
	errb.Reset()
	if c := rec.Run("bin", nil, &out, &errb); c != 2 || !strings.Contains(errb.String(), "bin rec keygen") {
		t.Fatalf("none: exit %d, %s", c, errb.String())
	}
}

// TestGeneratedUsageListsEveryFlag: the help of a command lists every flag
// it defines, with its value word, default and help; a flag added to
// Flags is in the help without editing any text.
func TestGeneratedUsageListsEveryFlag(t *testing.T) {
	var got []string
	rec := testCommands(&got)
	help := Help("bin", "bin — a test", []*Command{rec})
	for _, want := range []string{"bin rec show FILE [--format F]", "the record", "--format text|md|json（預設 text）", "the layout", "--page int", "bin rec keygen", "a key"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	rec.Subcommands[0].Flags(fs)
	if missing := InUsage(fs, help); len(missing) > 0 {
		t.Fatalf("help misses %v", missing)
	}
	if u := rec.Subcommands[0].Usage("bin"); !strings.Contains(u, "--page") || !strings.HasPrefix(u, "用法：\n  bin rec show") {
		t.Fatalf("usage:\n%s", u)
	}
}
