// Package hans writes the project's words in Simplified Chinese (简体)
// for the venues that read it. The words are written once, in
// Traditional Chinese (繁體, the source); the Simplified text is derived
// from them by tw2s.txt, a conversion table made from OpenCC's data
// (internal/mktable, `go generate ./internal/hans`), never kept by hand.
//
// A venue chooses its script in the config ([venue] script = "hant" or
// "hans"); the table's programs write through Writer, its web servers
// answer through Middleware, which also lets a browser choose (the
// public pages' 繁/简 switch, a cookie). The voice is the same Mandarin
// in both.
//
// The package is named hans, not script: package script is the judge's
// voice script.
package hans

//go:generate go run ./internal/mktable -o tw2s.txt

import (
	_ "embed"
	"fmt"
	"sync"
)

// Script is a way of writing Chinese.
type Script string

const (
	// Traditional (繁體) is the project's own: the words as written.
	Traditional Script = "hant"
	// Simplified (简体) is derived from them by the table.
	Simplified Script = "hans"
)

// ParseScript reads a script's name: "hant" or "hans" ("" = hant).
func ParseScript(s string) (Script, error) {
	switch Script(s) {
	case "", Traditional:
		return Traditional, nil
	case Simplified:
		return Simplified, nil
	}
	return "", fmt.Errorf("%q 不是字體：要寫 \"hant\"（繁體）或 \"hans\"（简体）/ want hant or hans", s)
}

// Lang is the script's HTML language tag.
func (sc Script) Lang() string {
	if sc == Simplified {
		return "zh-Hans"
	}
	return "zh-Hant"
}

// Text is s written in the script.
func (sc Script) Text(s string) string {
	if sc == Simplified {
		return String(s)
	}
	return s
}

//go:embed tw2s.txt
var tableFile []byte

var (
	tableOnce sync.Once
	table     *Table
)

// Default is the table of tw2s.txt (embedded); a bad file is a build
// defect that TestTableFile reports, so Default panics on it.
func Default() *Table {
	tableOnce.Do(func() {
		t, err := ParseTable(tableFile)
		if err != nil {
			panic("hans: " + err.Error())
		}
		table = t
	})
	return table
}

// String is s in Simplified.
func String(s string) string { return Default().Convert(s) }
