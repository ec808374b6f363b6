package hw

import (
	"errors"
	"reflect"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Sections are the table's sections of a config file as TOML decodes them,
// in the file's own words: durations and USB ids are strings ("800ms",
// "2e8a"), pins are names ("A0"), keys are "SEAT KEY". A decode starts
// from DefaultConfig().Sections(), so a key the file leaves out keeps its
// default; Config checks and converts them. The daemon's config file
// (package config) decodes them with its own sections in one pass.
type Sections struct {
	Table  TableSection  `toml:"table"`
	Pedal  PedalSection  `toml:"pedal"`
	GPIO   GPIOSection   `toml:"gpio"`
	Serial SerialSection `toml:"serial"`
}

// Sections is the config in the file's words, as Encode writes it.
func (c *Config) Sections() *Sections {
	return &Sections{
		Table:  c.tableSection(),
		Pedal:  c.Pedal.section(),
		GPIO:   c.GPIO.section(),
		Serial: c.Serial.section(),
	}
}

// Config checks the sections as Validate checks a config and converts
// them. It reports every problem (errors.Join of *ConfigError), each naming
// its key and, when at is not nil, where the file writes it.
func (s *Sections) Config(at *Positions) (*Config, error) {
	c, errs := s.config(at)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

func (s *Sections) config(at *Positions) (*Config, []error) {
	p := &problems{}
	c := DefaultConfig()
	s.Table.decode(c, p)
	s.Pedal.decode(&c.Pedal, p)
	g := s.GPIO
	if at.kind("gpio.expanders") == unstable.Table {
		// go-toml reads a [gpio.expanders] (or a dotted gpio.expanders.x)
		// as an array of one table; the parser saw a table
		p.add("gpio.expanders", "expected an array of tables ([[gpio.expanders]]), got a table")
		g.Expanders = nil
	}
	g.decode(&c.GPIO, p)
	s.Serial.decode(&c.Serial, p)
	p.check(c)
	for _, err := range p.errs {
		if e := err.(*ConfigError); e.Line == 0 {
			pos := at.Of(e.Key)
			e.Line, e.Column = pos.Line, pos.Column
		}
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return c, nil
}

// DecodeProblem is what go-toml's decoder found wrong at one key of the
// table's sections (a *toml.DecodeError, or one of a
// *toml.StrictMissingError's Errors: unknown), in ParseConfig's words: the
// key with the indexes go-toml leaves out ("gpio.expanders[1].pins"), read
// from at by the position go-toml gives, and what the key takes.
func DecodeProblem(e *toml.DecodeError, unknown bool, at *Positions) *ConfigError {
	line, col := e.Position()
	ce := &ConfigError{Key: strings.Join(e.Key(), "."), Line: line, Column: col, Msg: strings.TrimPrefix(e.Error(), "toml: ")}
	if ce.Key == "" {
		return ce // a syntax error
	}
	key, kind := at.keyAt(Position{Line: line, Column: col}, e.Key())
	if key != "" {
		ce.Key = key
	} else if pos := at.Of(ce.Key); pos.Line > 0 {
		// go-toml points at no token of the parser (an array in an array
		// has no range): the key's own position
		ce.Line, ce.Column = pos.Line, pos.Column
	}
	path := splitKey(ce.Key)
	t := sectionType(path)
	switch {
	case unknown:
		for i := range path { // the first part that is unknown ("table.foo" of "table.foo.bar")
			if sectionType(path[:i+1]) == nil {
				path = path[:i+1]
				break
			}
		}
		ce.Key = strings.Join(path, ".")
		ce.Msg = "unknown key"
		if names := knownKeys(path[:len(path)-1]); names != nil {
			ce.Msg += " (known here: " + strings.Join(names, ", ") + ")"
		}
	case t != nil && kind != unstable.Invalid && !fits(t, kind):
		ce.Msg = kindProblem(ce.Key, t, kind)
	case strings.HasPrefix(ce.Msg, "cannot decode ") || strings.HasPrefix(ce.Msg, "cannot store "):
		// go-toml's words name Go types; the value's token is not known
		ce.Msg = "a value of another kind than the key takes"
		if t != nil {
			ce.Msg = "expected " + takes(ce.Key, t) + ", got a value of another kind"
		}
	}
	return ce
}

// kindProblem is a value of the wrong kind at key (its indexes included),
// which takes t.
func kindProblem(key string, t reflect.Type, got unstable.Kind) string {
	if got == unstable.Integer {
		switch key {
		case "pedal.long", "pedal.double", "pedal.debounce", "gpio.poll", "gpio.key_debounce":
			return `write durations as strings with a unit, e.g. "800ms"`
		case "serial.vid", "serial.pid":
			return `write USB ids as hex strings, e.g. "2e8a"`
		}
	}
	return "expected " + takes(key, t) + ", got " + kindWords(got)
}

// takes is what a key of type t takes, in words.
func takes(key string, t reflect.Type) string {
	switch key {
	case "gpio.led_order":
		return "an array of seat numbers"
	case "gpio.expanders":
		return "an array of tables ([[gpio.expanders]])"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int64:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "an array"
	}
	return "a table"
}

// fits says whether a TOML value of kind k decodes into t.
func fits(t reflect.Type, k unstable.Kind) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int64:
		return k == unstable.Integer
	case reflect.String:
		return k == unstable.String
	case reflect.Bool:
		return k == unstable.Bool
	case reflect.Slice:
		return k == unstable.Array || k == unstable.ArrayTable
	}
	return k == unstable.Table || k == unstable.InlineTable
}

// kindWords names a kind of TOML value.
func kindWords(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "a string"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	case unstable.Bool:
		return "a boolean"
	case unstable.Array, unstable.ArrayTable:
		return "an array"
	case unstable.Table, unstable.InlineTable:
		return "a table"
	}
	return "a date or time"
}

// sectionType is the Go type a key path of Sections decodes into
// ("gpio.expanders[0].keys.A0": string), nil when there is none.
func sectionType(path []string) reflect.Type {
	t := reflect.TypeFor[Sections]()
	for _, part := range path {
		name, indexes := cutIndexes(part)
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct {
			// "gpio.expanders.keys": go-toml reads a table where an array
			// of tables is as its one table
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Struct:
			f, ok := fieldByTag(t, name)
			if !ok {
				return nil
			}
			t = f.Type
		case reflect.Map:
			t = t.Elem()
		default:
			return nil
		}
		for range indexes {
			if t.Kind() != reflect.Slice {
				return nil
			}
			t = t.Elem()
		}
	}
	return t
}

// knownKeys are the keys of the table at path, in the order of the
// documentation; nil when path is no table of Sections.
func knownKeys(path []string) []string {
	t := sectionType(path)
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		names = append(names, tagName(f))
	}
	return names
}

func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for f := range t.Fields() {
		if tagName(f) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return name
}
