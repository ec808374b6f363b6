package config

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

var update = flag.Bool("update", false, "rewrite testdata/table.golden.json from today's Parse")

// tableGolden is one file Parse read before the table's sections were
// decoded as typed structs (testdata/table.golden.json was captured from
// that decoder): the table it gave, or its error.
type tableGolden struct {
	Name  string       `json:"name"`
	Input goldenInput  `json:"input"`
	Table *hw.Config   `json:"table,omitempty"`
	Error *goldenError `json:"error,omitempty"`
}

type goldenError struct {
	Key    string `json:"key"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
	Msg    string `json:"msg"`
}

// tableGoldenInputs: the shipped file, the fixtures, the fuzz seeds of both
// packages, the files of hw's golden and the mistakes of TestErrorLines.
func tableGoldenInputs(t *testing.T) []tableGolden {
	var cases []tableGolden
	for _, glob := range []string{"../deploy/config.toml", "../hw/testdata/*.toml", "testdata/fuzz/FuzzParse/*", "../hw/testdata/fuzz/FuzzParseConfig/*"} {
		names, _ := filepath.Glob(glob)
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(name, "fuzz") {
				b = corpusSeed(t, name, b)
			}
			cases = append(cases, tableGolden{Name: name, Input: goldenInput(b)})
		}
	}
	b, err := os.ReadFile("../hw/testdata/decode.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var hwCases []struct {
		Name  string      `json:"name"`
		Input goldenInput `json:"input"`
	}
	if err := json.Unmarshal(b, &hwCases); err != nil {
		t.Fatal(err)
	}
	for _, c := range hwCases {
		cases = append(cases, tableGolden{Name: "hw " + c.Name, Input: c.Input})
	}
	for i, src := range []string{
		"[table]\nmode = \"virtual\"\n\nseats = 99\n",
		"[table]\nseats = 10\n",
		"[table]\nseats = 12\n[game]\nboard = \"nope\"\n",
		"[game]\nboard = \"seer-witch-hunter-idiot\"\n[table]\nseats = 9\n",
		"[game]\ndeal = \"stacked\"\n",
		"[voice]\nvolume = \"loud\"\n",
		"[voice]\nvolume = 1.5\n",
		"[voice]\nbogus = 3\n",
		"[voices]\nvolume = 1\n",
		"voice = 3\n",
		"[[voice]]\nvolume = 1\n",
		"[voice]\nvolume = 1\n[voice]\npack = \"\"\n",
		"[journal]\nresume = \"yes\"\n",
		"[console]\nhosts = [1]\n",
		"[pedal_actions]\nshort = \"jump\"\n",
		"[game.options]\n\"witch.self_save\" = 3\n",
		"[table]\nseats = 12\n[serial]\nbaud = 1200\n[voice]\nvolume = 2\n",
		"[serial]\nbogus = 1\n[voice]\nbogus = 1\n",
		"[voice]\nbogus = 1\n[serial]\nbogus = 1\n",
		"[table]\nbogus = 1\nseats = 10\n",
		"[gpio]\n\n[[gpio.expanders]]\naddress = 0x20\n[[gpio.expanders]]\n# the second board\naddress = 0x40\n",
	} {
		cases = append(cases, tableGolden{Name: "mistake " + strconv.Itoa(i), Input: goldenInput(src)})
	}
	return cases
}

// corpusSeed is the []byte of a seed file of a fuzz corpus.
func corpusSeed(t *testing.T, name string, b []byte) []byte {
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

// TestTableGolden: the shipped file, every fixture, fuzz seed and mistake
// gives the hw.Config Parse gave before the typed sections, or the error
// naming the same key at the same line in the same words.
func TestTableGolden(t *testing.T) {
	const path = "testdata/table.golden.json"
	if *update {
		cases := tableGoldenInputs(t)
		for i := range cases {
			cases[i].Table, cases[i].Error = parseForGolden(t, string(cases[i].Input))
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
	var cases []tableGolden
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("the golden holds %d cases", len(cases))
	}
	for _, c := range cases {
		if ch, ok := tableGoldenChanges[string(c.Input)]; ok {
			e := *c.Error
			e.Line = ch.line
			if ch.msg != "" {
				e.Key, e.Msg = ch.key, ch.msg
			}
			c.Error = &e
		}
		tab, e := parseForGolden(t, string(c.Input))
		if !reflect.DeepEqual(tab, c.Table) {
			t.Errorf("%s %q:\ngot  %+v\nwant %+v", c.Name, c.Input, tab, c.Table)
		}
		if !reflect.DeepEqual(e, c.Error) {
			t.Errorf("%s %q: error\ngot  %+v\nwant %+v", c.Name, c.Input, e, c.Error)
		}
	}
}

// tableGoldenChanges are the files whose error Parse tells otherwise than
// the old decoder did, on purpose: mostly the line, which the old decoder
// found by searching the text for the key and missed for a key in an
// inline table or on a line of its own in an array; the line now comes
// from the key's token.
var tableGoldenChanges = map[string]struct {
	why      string
	line     int
	key, msg string // "": as before
}{
	"[table]\nseats = 99999999999999999999\n": {why: "go-toml's words for the number, not \"wrong kind of value\"", line: 2,
		key: "table.seats", msg: "要是 6 到 18 之間的整數，並等於板子的人數 / decimal number is too large to fit in a 64-bit signed integer"},
	"[serial]\nbogus = 1\n[voice]\nbogus = 1\n": {why: "unknown keys are told in the order of the file (the old decoder read [serial] after the other sections)", line: 2,
		key: "serial.bogus", msg: "不認得這個鍵 / unknown key (known here: port, vid, pid, baud, keys_per_seat)"},
	"table = {seats = 8}\n":                                                                                                    {why: "an inline table's key", line: 1},
	"[gpio]\nexpanders = [{address = 0x20, foo = 2}]\n":                                                                        {why: "an inline table's key", line: 2},
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {C1 = \"1 OK\"}\n":                                                             {why: "an inline table's key", line: 3},
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = \"OK\"}\n":                                                               {why: "an inline table's key", line: 3},
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = \"1 JUMP\"}\n":                                                           {why: "an inline table's key", line: 3},
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = \"x OK\"}\n":                                                             {why: "an inline table's key", line: 3},
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {B1 = \"13 OK\"}\n":                                                            {why: "an inline table's key", line: 3},
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A1 = 3}\n":                                                                    {why: "an inline table's key", line: 3},
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {a0 = \"1 ok\", A0 = \"2 OK\"}\n":                                              {why: "an inline table's key", line: 3},
	"[table]\nseats = 7\n[[gpio.expanders]]\naddress = 0x20\nkeys = {B1 = \"8 OK\"}\n":                                         {why: "an inline table's key", line: 5},
	"[[gpio.expanders]]\naddress = 0x20\nkeys = {A0 = \"1 OK\"}\n[[gpio.expanders]]\naddress = 0x21\nkeys = {B7 = \"1 ok\"}\n": {why: "an inline table's key", line: 6},
	"[gpio]\nled_order = [\n  1, 2, 3,\n  4, 5, 6,\n  7, 8, 9,\n  10, 11, 1,\n]\n":                                             {why: "an array's element on a line of its own", line: 6},
}

func parseForGolden(t *testing.T, src string) (*hw.Config, *goldenError) {
	t.Helper()
	c, err := Parse([]byte(src))
	if err == nil {
		return c.Table, nil
	}
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("%q: %v (%T) is not an *Error", src, err, err)
	}
	return nil, &goldenError{Key: ce.Key, Line: ce.Line, Msg: ce.Msg}
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
