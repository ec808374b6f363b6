package core_test

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// tinygoStd is the standard library the firmware packages may use: packages
// TinyGo compiles for the RP2040 without reflection, os or net.
var tinygoStd = map[string]bool{
	"errors":          true,
	"encoding/binary": true,
	"strconv":         true,
}

// firmwareImports lists, for each firmware package (relative to
// firmware-bridge), the packages of this module it may import.
var firmwareImports = map[string][]string{
	"protocol":      nil,
	"core":          {"wolftable/firmware-bridge/protocol"},
	"core/coretest": {"wolftable/firmware-bridge/core", "wolftable/firmware-bridge/protocol"},
}

// tinygoOnly are imports that exist only under TinyGo.
func tinygoOnly(path string) bool {
	return path == "machine" || strings.HasPrefix(path, "device/") || strings.HasPrefix(path, "machine/") ||
		path == "runtime/interrupt" || path == "runtime/volatile" || strings.HasPrefix(path, "tinygo.org/") ||
		strings.HasPrefix(path, "github.com/tinygo-org/")
}

// TestFirmwareImports: the firmware packages (protocol, core and its fakes)
// import only the TinyGo-safe standard library and each other; no file in
// firmware-bridge but cmd/pico/main.go imports machine, and TinyGo-only
// imports appear only in files built solely under the tinygo build tag.
func TestFirmwareImports(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	sawPico := false
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		tinygoTagged := false
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, c := range cg.List {
				if !constraint.IsGoBuild(c.Text) {
					continue
				}
				expr, err := constraint.Parse(c.Text)
				if err != nil {
					t.Errorf("%s: %v", rel, err)
					continue
				}
				without := expr.Eval(func(tag string) bool { return tag != "tinygo" })
				with := expr.Eval(func(tag string) bool { return true })
				tinygoTagged = !without && with
			}
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		allowed, isFirmware := firmwareImports[dir]
		test := strings.HasSuffix(rel, "_test.go")
		if rel == "cmd/pico/main.go" {
			sawPico = true
			if !tinygoTagged {
				t.Errorf("%s: needs a //go:build tinygo constraint", rel)
			}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "machine" && rel != "cmd/pico/main.go" {
				t.Errorf("%s imports machine; only cmd/pico/main.go may", rel)
			}
			if tinygoOnly(p) && !tinygoTagged {
				t.Errorf("%s imports %s without a tinygo-only build constraint", rel, p)
			}
			if !isFirmware || test {
				continue
			}
			ok := tinygoStd[p]
			for _, a := range allowed {
				ok = ok || p == a
			}
			if !ok {
				t.Errorf("%s imports %s; firmware packages may import only %v and %v", rel, p, slices.Sorted(maps.Keys(tinygoStd)), allowed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !sawPico {
		t.Error("cmd/pico/main.go not found")
	}
}
