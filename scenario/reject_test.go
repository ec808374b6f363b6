package scenario_test

import (
	"os"
	"strings"
	"testing"

	"wolftable/engine"
	"wolftable/scenario"
)

// withHeader is a suite file with its first line replaced.
func withHeader(t *testing.T, file, header string) []byte {
	t.Helper()
	src, err := os.ReadFile("../scenarios/" + file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(src), "\n")
	return []byte(header + "\n" + rest)
}

// checkReject runs src as the suite does and returns Check's verdict.
func checkReject(t *testing.T, src []byte) error {
	t.Helper()
	want, ok, err := scenario.ParseReject(src)
	if err != nil {
		return err
	}
	if !ok {
		t.Fatal("not a reject header")
	}
	f, perr := scenario.Parse("x.wolf", src)
	var res *scenario.Result
	if perr == nil {
		res = scenario.Run(f, getBoard)
	}
	return want.Check(perr, res)
}

// TestRejectReason: a rejection case passes only on the refusal its header
// names — the line AND the reason (issue 13 item 7). Before the reason was
// required, every header below with the right line passed.
func TestRejectReason(t *testing.T) {
	const guard = "rejected/guard-same-player-two-nights.wolf" // the engine: ErrRule at 14
	const never = "rejected/vote-after-exile-day-explosion.wolf"
	line := func(file string) string {
		src, _ := os.ReadFile("../scenarios/" + file)
		first, _, _ := strings.Cut(string(src), "\n")
		f := strings.Fields(first)
		return f[2]
	}
	g, n := line(guard), line(never)
	// a parse error: an unknown decision on the line
	parseSrc := func(header string) []byte {
		src := withHeader(t, guard, header)
		lines := strings.Split(string(src), "\n")
		i := len(lines) - 1
		for strings.TrimSpace(lines[i]) == "" {
			i--
		}
		lines[i] = "咒語 3"
		return []byte(strings.Join(lines, "\n"))
	}
	cases := []struct {
		name string
		src  []byte
		ok   bool
		why  string
	}{
		{"engine code", withHeader(t, guard, "# reject-line: "+g+" ErrRule"), true, ""},
		{"engine code and phrase", withHeader(t, guard, "# reject-line: "+g+` ErrRule "two nights running"`), true, ""},
		{"no reason", withHeader(t, guard, "# reject-line: "+g), false, "needs a reason"},
		{"wrong code", withHeader(t, guard, "# reject-line: "+g+" ErrBadTarget"), false, "want ErrBadTarget"},
		{"unknown code", withHeader(t, guard, "# reject-line: "+g+" ErrNope"), false, "unknown reason"},
		{"wrong phrase", withHeader(t, guard, "# reject-line: "+g+` ErrRule "self-save"`), false, `want the phrase "self-save"`},
		{"engine refusal named as the runner's", withHeader(t, guard, "# reject-line: "+g+` "two nights running"`), false, "want the runner's own refusal"},
		{"wrong line", withHeader(t, guard, "# reject-line: 3 ErrRule"), false, "want line 3"},
		{"parse error counted only when named", parseSrc("# reject-line: " + g + " ErrRule"), false, "parse"},
		{"parse error named", parseSrc("# reject-line: " + g + " parse"), true, ""},
		{"parse named, engine refused", withHeader(t, guard, "# reject-line: "+g+" parse"), false, "want parse"},
		{"window never opened", withHeader(t, never, "# reject-line: "+n+` "no exile vote came in this section"`), true, ""},
		{"window never opened, any refusal", withHeader(t, never, "# reject-line: "+n+" ErrRule"), false, "ended first"},
		{"unquoted phrase", withHeader(t, never, "# reject-line: "+n+` "no exile`), false, "not a quoted phrase"},
	}
	for _, c := range cases {
		err := checkReject(t, c.src)
		if c.ok && err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), c.why)) {
			t.Errorf("%s: got %v, want an error about %q", c.name, err, c.why)
		}
	}
}

// TestCodeNames: every engine error code has a header name.
func TestCodeNames(t *testing.T) {
	seen := map[string]bool{}
	for c := 1; c <= 8; c++ {
		n := scenario.CodeName(engineCode(c))
		if !strings.HasPrefix(n, "Err") || strings.HasPrefix(n, "ErrorCode(") || seen[n] {
			t.Errorf("code %d: name %q", c, n)
		}
		seen[n] = true
	}
}

func engineCode(c int) engine.ErrorCode { return engine.ErrorCode(c) }
