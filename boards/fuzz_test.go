package boards

import (
	"bytes"
	"errors"
	"io/fs"
	"reflect"
	"testing"
)

// FuzzParse guards that Parse never panics, that every rejection is an
// *Error naming a line of the input, and that every board it accepts
// passes Validate and survives Format and Parse unchanged.
func FuzzParse(f *testing.F) {
	names, err := fs.Glob(embedded, "data/*.board")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range names {
		src, err := embedded.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		b, err := Parse("fuzz.board", src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not *Error", err, err)
			}
			if n := bytes.Count(src, []byte("\n")) + 1; e.File != "fuzz.board" || e.Line < 1 || e.Line > n {
				t.Fatalf("error %v: line %d outside the input's %d lines", err, e.Line, n)
			}
			if b != nil {
				t.Fatalf("board returned with error %v", err)
			}
			return
		}
		if err := Validate(b); err != nil {
			t.Fatalf("accepted board fails Validate: %v", err)
		}
		text := Format(b)
		back, err := Parse("fuzz.board", text)
		if err != nil {
			t.Fatalf("Format's output does not parse: %v\n%s", err, text)
		}
		if !reflect.DeepEqual(back, b) {
			t.Fatalf("round trip differs:\n got %+v\nwant %+v", back, b)
		}
	})
}
