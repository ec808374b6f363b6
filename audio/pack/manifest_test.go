package pack

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseManifest(t *testing.T) {
	good := Manifest{
		Name:       "梁法官",
		Language:   "zh-TW",
		RecordedBy: "Liang",
		Date:       time.Date(2025, 11, 29, 0, 0, 0, 0, time.UTC),
		Notes:      "studio: room 3",
	}
	tests := []struct {
		name    string
		in      string
		want    Manifest
		errLine int // -1: no error
	}{
		{"full", "name: 梁法官\nlanguage: zh-TW\nrecorded-by: Liang\ndate: 2025-11-29\nnotes: studio: room 3\n", good, -1},
		{"bom crlf comments case", "\uFEFF# voice\r\nName: 梁法官\r\n\r\nLANGUAGE : zh-TW\r\nrecorded-by:Liang\r\ndate: 2025-11-29\r\nnotes: studio: room 3", good, -1},
		{"minimal", "name: x\nlanguage: en\n", Manifest{Name: "x", Language: "en"}, -1},
		{"empty date", "name: x\nlanguage: en\ndate:\n", Manifest{Name: "x", Language: "en"}, -1},
		{"no name", "language: en\n", Manifest{}, 0},
		{"no language", "name: x\n", Manifest{}, 0},
		{"empty", "", Manifest{}, 0},
		{"no colon", "name: x\nlanguage en\n", Manifest{}, 2},
		{"twice", "name: x\nname: y\nlanguage: en\n", Manifest{}, 2},
		{"unknown key", "name: x\nlanguage: en\nvoice: y\n", Manifest{}, 3},
		{"bad date", "name: x\nlanguage: en\ndate: 29/11/2025\n", Manifest{}, 3},
		{"control", "name: x\x07y\nlanguage: en\n", Manifest{}, 1},
		{"not utf8", "name: \xff\nlanguage: en\n", Manifest{}, 0},
		{"too big", "name: x\nlanguage: en\n" + strings.Repeat("#", MaxManifestSize), Manifest{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseManifest([]byte(tt.in))
			if tt.errLine < 0 {
				if err != nil {
					t.Fatalf("ParseManifest: %v", err)
				}
				if got != tt.want {
					t.Fatalf("got %+v, want %+v", got, tt.want)
				}
				return
			}
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("err = %v, want *ManifestError", err)
			}
			if me.Line != tt.errLine {
				t.Errorf("error on line %d, want %d: %v", me.Line, tt.errLine, err)
			}
		})
	}
}

func TestManifestRoundTrip(t *testing.T) {
	m := Manifest{Name: "Default", Language: "zh-TW", RecordedBy: "espeak-ng", Date: time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC)}
	b, err := m.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseManifest(b)
	if err != nil {
		t.Fatalf("ParseManifest(%q): %v", b, err)
	}
	if got != m {
		t.Fatalf("round trip: got %+v, want %+v", got, m)
	}
}
