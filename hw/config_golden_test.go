package hw_test

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"wolftable/hw"
)

var update = flag.Bool("update", false, "rewrite testdata/decode.golden.json from today's ParseConfig")

// goldenCase is one file ParseConfig read before the table's sections were
// decoded as typed structs (testdata/decode.golden.json was captured from
// that decoder): the config it gave, or its problems.
type goldenCase struct {
	Name     string          `json:"name"`
	Input    goldenInput     `json:"input"`
	Config   *hw.Config      `json:"config,omitempty"`
	Problems []goldenProblem `json:"problems,omitempty"`
}

type goldenProblem struct {
	Key    string `json:"key"`
	Msg    string `json:"msg"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// goldenInputs are the files of the golden: the fixtures, the fuzz seeds
// and the mistakes of TestParseConfigErrors and more.
func goldenInputs(t *testing.T) []goldenCase {
	var cases []goldenCase
	for _, glob := range []string{"testdata/*.toml", "testdata/fuzz/FuzzParseConfig/*"} {
		names, _ := filepath.Glob(glob)
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(name, "fuzz") {
				b = fuzzSeed(t, name, b)
			}
			cases = append(cases, goldenCase{Name: name, Input: goldenInput(b)})
		}
	}
	for i, src := range goldenMistakes {
		cases = append(cases, goldenCase{Name: "mistake " + strconv.Itoa(i), Input: goldenInput(src)})
	}
	return cases
}

// fuzzSeed is the []byte of a seed file of the fuzz corpus.
func fuzzSeed(t *testing.T, name string, b []byte) []byte {
	t.Helper()
	_, lit, ok := strings.Cut(strings.TrimSpace(string(b)), "[]byte(")
	if !ok || !strings.HasSuffix(lit, ")") {
		t.Fatalf("%s: not a []byte seed", name)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return []byte(s)
}

var goldenMistakes = []string{
	"[table]\nseats = 20\n",
	"[table]\nseats = \"12\"\n",
	"[table]\nmode = \"usb\"\n",
	"[table]\nbrightness = 0\n",
	"[table]\nbrightness = 300\n",
	"[tabel]\nseats = 12\n",
	"[table]\nseat = 12\n",
	"table = 3\n",
	"[[table]]\nseats = 12\n",
	"[table.x]\ny = 1\n",
	"[table]\nseats = 12\nmode = \"gpio\n",
	"[table]\nseats = 12\nseats = 13\n",
	"[table]\nseats = 99999999999999999999\n",
	"[table]\nseats = 12.0\n",
	"[table]\nmode = 1979-05-27\n",
	"[table]\nmode = [1]\n",
	"[table]\nmode = {a = 1}\n",
	"table = {seats = 8}\n",
	"[pedal]\nlong = 800\n",
	"[pedal]\ndouble = \"soon\"\n",
	"[pedal]\nlong = \"50ms\"\n",
	"[pedal]\npull = \"sideways\"\n",
	"[pedal]\nactive = \"yes\"\n",
	"[pedal]\npin = \" GPIO17\"\n",
	"[pedal]\ndebounce = true\n",
	"[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders]]\naddress = 0x30\n",
	"[[gpio.expanders]]\naddress = 0x12345\n",
	"[[gpio.expanders]]\naddress = -1\n",
	"[[gpio.expanders]]\naddress = 0\n",
	"[[gpio.expanders]]\nkeys = {A0 = \"1 OK\"}\n",
	"[[gpio.expanders]]\n",
	"[[gpio.expanders]]\naddress = 0x21\n[[gpio.expanders]]\naddress = 0x21\n",
	"[gpio]\nexpanders = 3\n",
	"[gpio]\nexpanders = [1]\n",
	"[gpio]\nexpanders = {address = 0x20}\n",
	"[gpio.expanders]\naddress = 0x20\n",
	"[gpio]\nexpanders = []\n",
	"[gpio]\nexpanders = [{address = 0x20, keys = {A0 = \"1 OK\"}}, {address = 0x22}]\n",
	"[gpio]\nexpanders = [{address = 0x20, foo = 2}]\n",
	"[[gpio.expanders]]\naddress = 0x20\npins = 3\n",
	"[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders]]\naddress = 0x21\npins = 3\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {C1 = \"1 OK\"}\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = \"OK\"}\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = \"1 JUMP\"}\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = \"x OK\"}\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {B1 = \"13 OK\"}\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = 3}\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys = 3\n",
	"[[gpio.expanders]]\naddress = \"0x20\"\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {a0 = \"1 ok\", A0 = \"2 OK\"}\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys.A0 = \"1 OK\"\nkeys.B0 = \"1 UP\"\n",
	"[table]\nseats = 7\n[[gpio.expanders]]\naddress = 0x20\nkeys = {B1 = \"8 OK\"}\n",
	"[table]\nseats = 9\n[gpio]\nled_order = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n",
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A0 = \"1 OK\"}\n[[gpio.expanders]]\naddress = 0x21\nkeys = {B7 = \"1 ok\"}\n",
	"[gpio]\nled_order = [1, 2, 3]\n",
	"[gpio]\nled_order = []\n",
	"[gpio]\nled_order = 3\n",
	"[gpio]\nled_order = [1, \"x\"]\n",
	"[gpio]\nled_order = [\n  1, 2, 3,\n  4, 5, 6,\n  7, 8, 9,\n  10, 11, 1,\n]\n",
	"[table]\nseats = 6\n[gpio]\nled_order = [1, 2, 3, 4, 5, 1]\n",
	"[table]\nseats = 6\n[gpio]\nled_order = [1, 2, 3, 4, 5, 7]\n",
	"[table]\nseats = 40\n[gpio]\nled_order = [1, 2, 3]\n",
	"[gpio]\nleds_per_seat = 0\n",
	"[gpio]\nleds_per_seat = 17\n",
	"[gpio]\npoll = \"100ms\"\n",
	"[gpio]\nkey_debounce = 10\n",
	"[gpio]\nspi = \"\"\n",
	"[gpio]\ni2c = \"\"\n",
	"[gpio]\nprivate_led = \"yes\"\n",
	"[gpio]\nfoo = 1\n",
	"[gpio]\n[gpio.x]\n",
	"[serial]\nbaud = 1200\n",
	"[serial]\nbaud = 0\n",
	"[serial]\nkeys_per_seat = 18\n",
	"[serial]\nkeys_per_seat = 16\n",
	"[serial]\nvid = 0x2e8a\npid = \"a\"\n",
	"[serial]\nvid = \"xyz\"\npid = \"a\"\n",
	"[serial]\nvid = \"0\"\n",
	"[serial]\nvid = \"\"\n",
	"[serial]\nvid = \"12345\"\n",
	"[serial]\nport = \"/dev/tty\\u0001\"\n",
	"[serial]\nport = 3\n",
	"[serial]\nbogus = 1\nport = \"/dev/ttyACM1\"\n",
	"[table]\nseats = 40\nmode = \"x\"\n[serial]\nbaud = 1200\n",
	"[table]\nseat = 12\nseats = 40\n",
	"[table]\nseats = 12\n\n[gpio\n",
}

// TestDecodeGolden: every fixture, fuzz seed and mistake decodes to what
// ParseConfig gave before the typed sections: the same Config, or the
// same problems, each naming the same key in the same words.
func TestDecodeGolden(t *testing.T) {
	const path = "testdata/decode.golden.json"
	if *update {
		cases := goldenInputs(t)
		for i := range cases {
			cases[i].Config, cases[i].Problems = decodeForGolden(t, string(cases[i].Input))
		}
		b, err := json.MarshalIndent(cases, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("the golden holds %d cases", len(cases))
	}
	for _, c := range cases {
		if ch, ok := goldenChanges[string(c.Input)]; ok {
			c.Problems = ch.problems
		}
		got, problems := decodeForGolden(t, string(c.Input))
		if !reflect.DeepEqual(got, c.Config) {
			t.Errorf("%s %q:\ngot  %+v\nwant %+v", c.Name, c.Input, got, c.Config)
		}
		if !sameProblems(problems, c.Problems) {
			t.Errorf("%s %q: problems\ngot  %+v\nwant %+v", c.Name, c.Input, problems, c.Problems)
		}
	}
}

// goldenChanges are the files whose problems the typed decode tells
// otherwise than the old decoder did, on purpose.
var goldenChanges = map[string]struct {
	why      string
	problems []goldenProblem
}{
	"table = 3\n[gpio]\nexpanders = [1, \"x\", {address = 0x21}]\nled_order = \"1\"\n": {
		"go-toml's decode stops at the first value of the wrong kind: the one problem told",
		[]goldenProblem{{Key: "table", Msg: "expected a table, got an integer", Line: 1, Column: 9}},
	},
	"[gpio]\nled_order = [1, \"x\"]\n": {
		"the old walker then counted the array without the bad element (has 1 seats); the decode stops at it",
		[]goldenProblem{{Key: "gpio.led_order[1]", Msg: "expected an integer, got a string", Line: 2, Column: 17}},
	},
	"[table]\nseats = 12\nseats = 13\n": {
		"the key named with its table, from the position (go-toml says \"seats\")",
		[]goldenProblem{{Key: "table.seats", Msg: "key seats is already defined", Line: 3, Column: 1}},
	},
	"[table]\nseats = 99999999999999999999\n": {
		"the key named (the old decode into a map had none)",
		[]goldenProblem{{Key: "table.seats", Msg: "decimal number is too large to fit in a 64-bit signed integer", Line: 2, Column: 9}},
	},
}

// sameProblems: the same keys and words; the same position where the old
// decoder gave one (a syntax error: it had no other).
func sameProblems(got, want []goldenProblem) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		g := got[i]
		if g.Key != w.Key || g.Msg != w.Msg || w.Line != 0 && (g.Line != w.Line || g.Column != w.Column) {
			return false
		}
	}
	return true
}

func decodeForGolden(t *testing.T, src string) (*hw.Config, []goldenProblem) {
	t.Helper()
	c, err := hw.ParseConfig([]byte(src))
	if err == nil {
		return c, nil
	}
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else {
		list = []error{err}
	}
	var problems []goldenProblem
	for _, e := range list {
		var ce *hw.ConfigError
		if !errors.As(e, &ce) {
			t.Fatalf("%q: %v (%T) is not a *hw.ConfigError", src, e, e)
		}
		problems = append(problems, goldenProblem{Key: ce.Key, Msg: ce.Msg, Line: ce.Line, Column: ce.Column})
	}
	return nil, problems
}

// goldenInput is a file of the golden, written as a Go string literal so
// that bytes which are not UTF-8 stay as they are.
type goldenInput string

func (s goldenInput) MarshalJSON() ([]byte, error) {
	return json.Marshal(strconv.Quote(string(s)))
}

func (s *goldenInput) UnmarshalJSON(b []byte) error {
	var q string
	if err := json.Unmarshal(b, &q); err != nil {
		return err
	}
	u, err := strconv.Unquote(q)
	*s = goldenInput(u)
	return err
}
