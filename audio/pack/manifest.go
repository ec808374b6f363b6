package pack

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// ManifestName is the manifest's file name at the top of a pack.
const ManifestName = "pack.txt"

// MaxManifestSize bounds the manifest file; a bigger one is rejected unread.
const MaxManifestSize = 64 << 10

// Manifest describes a voice pack.
type Manifest struct {
	Name       string    // how logs and the console call the voice
	Language   string    // BCP 47 tag, e.g. "zh-TW"
	RecordedBy string    // optional
	Date       time.Time // optional; zero when absent (UTC midnight otherwise)
	Notes      string    // optional
}

// ManifestError reports a line of pack.txt that cannot be read. Line is
// 1-based; 0 means the file as a whole.
type ManifestError struct {
	Line int
	Msg  string
}

func (e *ManifestError) Error() string {
	if e.Line == 0 {
		return "pack: " + ManifestName + ": " + e.Msg
	}
	return fmt.Sprintf("pack: %s:%d: %s", ManifestName, e.Line, e.Msg)
}

const dateLayout = "2006-01-02"

// ParseManifest reads a pack.txt (see the package documentation for the
// format). It never panics; every problem is a *ManifestError.
func ParseManifest(b []byte) (Manifest, error) {
	var m Manifest
	if len(b) > MaxManifestSize {
		return m, &ManifestError{Msg: fmt.Sprintf("larger than %d bytes", MaxManifestSize)}
	}
	if !utf8.Valid(b) {
		return m, &ManifestError{Msg: "not UTF-8 text"}
	}
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	seen := map[string]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		n := i + 1
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			return Manifest{}, &ManifestError{Line: n, Msg: fmt.Sprintf("want \"key: value\", got %q", line)}
		}
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		if seen[key] {
			return Manifest{}, &ManifestError{Line: n, Msg: fmt.Sprintf("%q given twice", key)}
		}
		seen[key] = true
		if strings.ContainsFunc(value, isControl) {
			return Manifest{}, &ManifestError{Line: n, Msg: fmt.Sprintf("%q holds a control character", key)}
		}
		switch key {
		case "name":
			m.Name = value
		case "language":
			m.Language = value
		case "recorded-by":
			m.RecordedBy = value
		case "notes":
			m.Notes = value
		case "date":
			if value == "" {
				break
			}
			d, err := time.Parse(dateLayout, value)
			if err != nil {
				return Manifest{}, &ManifestError{Line: n, Msg: fmt.Sprintf("date %q is not YYYY-MM-DD", value)}
			}
			m.Date = d
		default:
			return Manifest{}, &ManifestError{Line: n, Msg: fmt.Sprintf("unknown key %q (known: name, language, recorded-by, date, notes)", key)}
		}
	}
	if m.Name == "" {
		return Manifest{}, &ManifestError{Msg: "name is missing"}
	}
	if m.Language == "" {
		return Manifest{}, &ManifestError{Msg: "language is missing"}
	}
	return m, nil
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f
}

// MarshalText writes m in the pack.txt format; ParseManifest reads it back
// unchanged.
func (m Manifest) MarshalText() ([]byte, error) {
	var b strings.Builder
	put := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	put("name", m.Name)
	put("language", m.Language)
	put("recorded-by", m.RecordedBy)
	if !m.Date.IsZero() {
		put("date", m.Date.Format(dateLayout))
	}
	put("notes", m.Notes)
	return []byte(b.String()), nil
}
