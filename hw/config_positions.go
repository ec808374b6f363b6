package hw

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Position is where a config file writes something.
type Position struct {
	Line   int // 1-based; 0: not written
	Column int // 1-based, in bytes, as go-toml counts
}

// Positions says where a TOML document writes each of its keys, read from
// the tokens of go-toml's parser in one walk, as nats-server's config
// parser keeps each value's token: a problem found after the decode is
// told at its key's position, never found by searching the text. A key is
// its dotted path with the index of each element of an array or array of
// tables: "gpio.expanders[1].address", "gpio.led_order[3]".
//
// A nil *Positions knows no key.
type Positions struct {
	keys map[string]written
	// at lists the paths whose key or value starts at a position.
	at    map[Position][]string
	lines []int // the offset of each line's first byte
}

type written struct {
	value Position      // the value's first byte; a table's: its header's name
	kind  unstable.Kind // the value's kind; Table or ArrayTable for a header
}

// ReadPositions walks data's keys. It never fails: on a document the
// parser refuses, it knows the keys before the error.
func ReadPositions(data []byte) *Positions {
	p := &Positions{keys: map[string]written{}, at: map[Position][]string{}, lines: []int{0}}
	for i, b := range data {
		if b == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	w := &walker{Positions: p, data: data, count: map[string]int{}}
	w.walk()
	return p
}

// Of is where key is written: its value, or a table's header. A key the
// file leaves out is at its nearest parent the file writes (an expander
// without an address: its [[gpio.expanders]] header); zero when none.
func (p *Positions) Of(key string) Position {
	if p == nil {
		return Position{}
	}
	for key != "" {
		if w, ok := p.keys[key]; ok {
			return w.value
		}
		key = parentKey(key)
	}
	return Position{}
}

// kind is the kind of value the file writes at key; Invalid when none.
func (p *Positions) kind(key string) unstable.Kind {
	if p == nil {
		return unstable.Invalid
	}
	return p.keys[key].kind
}

// keyAt is the path written at pos that agrees with the key go-toml gives
// (go-toml's key leaves out the indexes of arrays and may skip the array's
// name: its parts are in the path in order), and the kind of its value.
// The shortest such path wins: a dotted key's first part is also its
// table's. "" when none.
func (p *Positions) keyAt(pos Position, key []string) (string, unstable.Kind) {
	if p == nil {
		return "", unstable.Invalid
	}
	best := ""
	for _, path := range p.at[pos] {
		if isSubsequence(key, splitKey(stripIndexes(path))) && (best == "" || len(path) < len(best)) {
			best = path
		}
	}
	if best == "" {
		return "", unstable.Invalid
	}
	return best, p.keys[best].kind
}

func isSubsequence(sub, of []string) bool {
	for _, s := range of {
		if len(sub) > 0 && sub[0] == s {
			sub = sub[1:]
		}
	}
	return len(sub) == 0
}

// position of a byte offset of the document.
func (p *Positions) position(offset int) Position {
	i, found := slices.BinarySearch(p.lines, offset)
	if !found {
		i--
	}
	return Position{Line: i + 1, Column: offset - p.lines[i] + 1}
}

func (p *Positions) record(path string, at Position, value Position, kind unstable.Kind) {
	if _, ok := p.keys[path]; !ok {
		p.keys[path] = written{value: value, kind: kind}
	}
	p.at[at] = append(p.at[at], path)
	if value != at {
		p.at[value] = append(p.at[value], path)
	}
}

// walker reads the document's expressions in order.
type walker struct {
	*Positions
	data  []byte
	count map[string]int // the tables of each array of tables so far
}

func (w *walker) walk() {
	defer func() { _ = recover() }() // the parser panics on some malformed input: the walk ends there
	var p unstable.Parser
	p.Reset(w.data)
	table := ""
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = w.header(e)
		case unstable.KeyValue:
			w.keyValue(table, e)
		}
	}
}

// header records a [table] or [[array table]] header and returns the
// table's path. A header under an array of tables is in its last table
// ([gpio.expanders.keys] after two [[gpio.expanders]]: gpio.expanders[1].keys).
func (w *walker) header(e *unstable.Node) string {
	var parts []*unstable.Node
	for it := e.Key(); it.Next(); {
		parts = append(parts, it.Node())
	}
	path := ""
	at := w.position(int(parts[0].Raw.Offset))
	for i, part := range parts {
		path = joinKey(path, string(part.Data))
		last := i == len(parts)-1
		n, isArray := w.count[path]
		switch {
		case last && e.Kind == unstable.ArrayTable:
			w.record(path, at, at, unstable.ArrayTable)
			w.count[path] = n + 1
			path += "[" + strconv.Itoa(n) + "]"
			w.keys[path] = written{value: at, kind: unstable.Table}
		case isArray:
			path += "[" + strconv.Itoa(n-1) + "]"
		case last:
			w.record(path, at, at, unstable.Table)
		default:
			w.record(path, w.position(int(part.Raw.Offset)), at, unstable.Table)
		}
	}
	return path
}

// keyValue records key = value in table, and what value holds.
func (w *walker) keyValue(table string, e *unstable.Node) {
	path := table
	var last *unstable.Node
	for it := e.Key(); it.Next(); {
		last = it.Node()
		path = joinKey(path, string(last.Data))
		if !it.IsLast() {
			at := w.position(int(last.Raw.Offset))
			w.record(path, at, at, unstable.Table) // a dotted key's table
		}
	}
	first := e.Key()
	first.Next()
	v := e.Value()
	w.record(path, w.position(int(first.Node().Raw.Offset)), w.valueStart(v, last), v.Kind)
	w.value(path, v)
}

// valueStart is where a key-value's value starts. go-toml keeps no range
// for an array: as its decoder does, it is the first byte after the key's
// last part, the blanks and the '='.
func (w *walker) valueStart(v, lastKey *unstable.Node) Position {
	if v.Kind != unstable.Array {
		return w.position(int(v.Raw.Offset))
	}
	i := int(lastKey.Raw.Offset + lastKey.Raw.Length)
	skip := func() {
		for i < len(w.data) && (w.data[i] == ' ' || w.data[i] == '\t') {
			i++
		}
	}
	skip()
	i++ // '='
	skip()
	return w.position(i)
}

// value records the elements of an array and the keys of an inline table.
func (w *walker) value(path string, v *unstable.Node) {
	switch v.Kind {
	case unstable.Array:
		i := 0
		for it := v.Children(); it.Next(); {
			el := it.Node()
			if el.Kind == unstable.Comment {
				continue
			}
			p := path + "[" + strconv.Itoa(i) + "]"
			if el.Kind != unstable.Array { // go-toml keeps no range for a nested array
				at := w.position(int(el.Raw.Offset))
				w.record(p, at, at, el.Kind)
			}
			w.value(p, el)
			i++
		}
	case unstable.InlineTable:
		for it := v.Children(); it.Next(); {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				w.keyValue(path, kv)
			}
		}
	}
}

func joinKey(path, part string) string {
	if path == "" {
		return part
	}
	return path + "." + part
}

// parentKey is the key holding key: "a.b[1]" of "a.b[1].c", "a.b" of
// "a.b[1]"; "" of a section.
func parentKey(key string) string {
	if strings.HasSuffix(key, "]") {
		if i := strings.LastIndexByte(key, '['); i > 0 {
			return key[:i]
		}
	}
	i := strings.LastIndexByte(key, '.')
	if i < 0 {
		return ""
	}
	return key[:i]
}

func splitKey(key string) []string { return strings.Split(key, ".") }

// stripIndexes leaves the indexes out of a key: "gpio.expanders.address"
// of "gpio.expanders[1].address".
func stripIndexes(key string) string {
	var b strings.Builder
	in := false
	for _, r := range key {
		switch {
		case r == '[':
			in = true
		case r == ']' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cutIndexes splits a part of a key into its name and its indexes
// ("led_order", 1 of "led_order[3]").
func cutIndexes(part string) (string, int) {
	name := stripIndexes(part)
	return name, strings.Count(part, "[")
}
