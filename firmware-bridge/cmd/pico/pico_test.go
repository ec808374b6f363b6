package main

// The firmware's compile check. TinyGo does not run here, so the files
// TinyGo 0.39 builds for the Makefile's firmware build (chosen by the build
// tags it sets: tinygo_test.go) are type-checked with go/types against the
// stand-ins in testdata/tinygo for the packages only TinyGo has (machine,
// device/arm, device/rp, runtime/volatile) and those built only for the
// RP2040 (the PIO library), and against the real standard library, core and
// protocol. A call that does not match a stand-in's signature fails the
// check, as it would fail TinyGo's build; TestPicoCompileCheckCatchesSlips
// shows it does.

import (
	"bytes"
	"go/ast"
	"go/build/constraint"
	"go/importer"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// standIns is where the stand-in packages live, a directory per import path.
const standIns = "testdata/tinygo"

// firmwareFiles returns the .go files of cmd/pico TinyGo builds for the
// Pico, by name.
func firmwareFiles(t *testing.T) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	tags := firmwareTags(t)
	files := map[string][]byte{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if built(t, name, src, tags) {
			files[name] = src
		}
	}
	if len(files) == 0 {
		t.Fatal("no firmware source in cmd/pico")
	}
	return files
}

// built reports whether TinyGo builds src with tags (firmwareTags: the
// Makefile's build).
func built(t *testing.T, name string, src []byte, tags []string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if constraint.IsGoBuild(c.Text) {
				expr, err := constraint.Parse(c.Text)
				if err != nil {
					t.Fatal(err)
				}
				return expr.Eval(func(tag string) bool { return slices.Contains(tags, tag) })
			}
		}
	}
	return true
}

// checker type-checks the firmware: stand-ins from source, everything else
// from the export data go list builds.
type checker struct {
	fset    *token.FileSet
	exports map[string]string // import path → export data file
	gc      types.Importer
	done    map[string]*types.Package
}

func newChecker(t *testing.T, files map[string][]byte) *checker {
	t.Helper()
	c := &checker{fset: token.NewFileSet(), exports: map[string]string{}, done: map[string]*types.Package{}}
	// The imports of the firmware and of the stand-ins that are not
	// stand-ins themselves.
	want := map[string]bool{}
	collect := func(name string, src []byte) {
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if !isStandIn(p) {
				want[p] = true
			}
		}
	}
	for name, src := range files {
		collect(name, src)
	}
	err := filepath.WalkDir(standIns, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			collect(path, src)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}"}
	for p := range want {
		args = append(args, p)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "="); ok && file != "" {
			c.exports[path] = file
		}
	}
	c.gc = importer.ForCompiler(c.fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(c.exports[path])
	})
	return c
}

func isStandIn(path string) bool {
	fi, err := os.Stat(filepath.Join(standIns, filepath.FromSlash(path)))
	return err == nil && fi.IsDir()
}

func (c *checker) Import(path string) (*types.Package, error) {
	if p, ok := c.done[path]; ok {
		return p, nil
	}
	if !isStandIn(path) {
		return c.gc.Import(path)
	}
	dir := filepath.Join(standIns, filepath.FromSlash(path))
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	files := map[string][]byte{}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		files[name] = src
	}
	p, err := c.check(path, files)
	if err != nil {
		return nil, err
	}
	c.done[path] = p
	return p, nil
}

// check type-checks one package for the RP2040 (32-bit ARM), returning
// every error it finds as one.
func (c *checker) check(path string, srcs map[string][]byte) (*types.Package, error) {
	var files []*ast.File
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range srcs {
			if !yield(n) {
				return
			}
		}
	}) {
		f, err := parser.ParseFile(c.fset, name, srcs[name], parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	var errs []string
	conf := types.Config{
		Importer:  c,
		Sizes:     types.SizesFor("gc", "arm"),
		GoVersion: "go1.24", // firmware-bridge/go.mod
		Error:     func(err error) { errs = append(errs, err.Error()) },
	}
	p, _ := conf.Check(path, c.fset, files, nil)
	if len(errs) > 0 {
		return nil, &checkError{errs}
	}
	return p, nil
}

type checkError struct{ errs []string }

func (e *checkError) Error() string { return strings.Join(e.errs, "\n") }

// TestPicoCompileCheck: the Pico main type-checks against the stand-ins.
func TestPicoCompileCheck(t *testing.T) {
	files := firmwareFiles(t)
	c := newChecker(t, files)
	if _, err := c.check("wolftable/firmware-bridge/cmd/pico", files); err != nil {
		t.Fatalf("the Pico firmware does not type-check against TinyGo's API:\n%v", err)
	}
}

// TestPicoCompileCheckCatchesSlips: the check fails on each kind of slip a
// hand-written firmware makes against TinyGo's API: a misspelt constant, a
// wrong field, a wrong argument type, a method the type lacks, an ignored
// result used as a value, a stand-in the real package would not satisfy.
func TestPicoCompileCheckCatchesSlips(t *testing.T) {
	files := firmwareFiles(t)
	src := string(files["main.go"])
	for _, slip := range []struct{ name, old, new string }{
		{"misspelt pin mode", "machine.PinInputPullup})", "machine.PinInputPullUp})"},
		{"wrong config field", "machine.WatchdogConfig{TimeoutMillis: watchdogMillis}", "machine.WatchdogConfig{Timeout: watchdogMillis}"},
		{"wrong argument type", "l.ws.WriteRaw(l.raw[:n])", "l.ws.WriteRaw(frame)"},
		{"method the type lacks", "pinQ7.Get()", "pinQ7.Read()"},
		{"result count", "ws, err := piolib.NewWS2812B(sm, pinLEDs)", "ws := piolib.NewWS2812B(sm, pinLEDs); var err error"},
		{"CPU clock type", "core.SettleCycles(machine.CPUFrequency(), core.SettleNanos)", "core.SettleCycles(uint64(machine.CPUFrequency()), core.SettleNanos)"},
		{"port lacking a method", "bridge.Poll(port, uint64(now/time.Microsecond))", "bridge.Poll(machine.UARTConfig{}, uint64(now/time.Microsecond))"},
		{"a register for its value", "core.ResetReasonOf(rp.WATCHDOG.REASON.Get(),", "core.ResetReasonOf(rp.WATCHDOG.REASON,"},
		{"a register the peripheral lacks", "rp.WATCHDOG.SCRATCH4.Set(", "rp.WATCHDOG.SCRATCH[4].Set("},
		{"a peripheral the package lacks", "rp.VREG_AND_CHIP_RESET.CHIP_RESET.Get()", "rp.CHIP_RESET.Get()"},
	} {
		if !strings.Contains(src, slip.old) {
			t.Errorf("%s: main.go no longer contains %q: update the test", slip.name, slip.old)
			continue
		}
		bad := map[string][]byte{"main.go": []byte(strings.Replace(src, slip.old, slip.new, 1))}
		c := newChecker(t, bad)
		if _, err := c.check("wolftable/firmware-bridge/cmd/pico", bad); err == nil {
			t.Errorf("%s: the check accepts %q", slip.name, slip.new)
		} else {
			t.Logf("%s: %v", slip.name, err)
		}
	}
}

// TestPIOStandInMatchesModule: every declaration of the PIO library's
// stand-ins is declared the same way in the real module's source, at the
// version firmware-bridge/go.mod requires.
func TestPIOStandInMatchesModule(t *testing.T) {
	const mod = "github.com/tinygo-org/pio"
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Fatalf("go list -m %s: %v (run go mod download in firmware-bridge)", mod, err)
	}
	for _, pkg := range []string{"rp2-pio", "rp2-pio/piolib"} {
		real := declarations(t, filepath.Join(dir, filepath.FromSlash(pkg)))
		stand := declarations(t, filepath.Join(standIns, filepath.FromSlash(mod+"/"+pkg)))
		if len(stand) == 0 {
			t.Fatalf("%s: no stand-in declarations", pkg)
		}
		for name, decl := range stand {
			if !slices.Contains(real[name], decl[0]) {
				t.Errorf("%s: stand-in %s\n\tmodule has %q", pkg, decl[0], real[name])
			}
		}
	}
}

// declarations returns each exported top-level name of the package in dir
// with how it is declared: a function's or method's signature, a type's
// kind, a variable's type when its value is &T{…}.
func declarations(t *testing.T, dir string) map[string][]string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	decls := map[string][]string{}
	fset := token.NewFileSet()
	add := func(name, decl string) {
		if ast.IsExported(strings.TrimPrefix(name, "*")) || strings.Contains(name, ".") {
			decls[name] = append(decls[name], decl)
		}
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				d.Body, d.Doc = nil, nil
				var b bytes.Buffer
				printer.Fprint(&b, fset, d)
				key := d.Name.Name
				if d.Recv != nil {
					var r bytes.Buffer
					printer.Fprint(&r, fset, d.Recv.List[0].Type)
					key = r.String() + "." + key
				}
				add(key, b.String())
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						var b bytes.Buffer
						printer.Fprint(&b, fset, s.Type)
						kind := b.String()
						if _, ok := s.Type.(*ast.StructType); ok {
							kind = "struct"
						}
						add(s.Name.Name, "type "+s.Name.Name+" "+kind)
					case *ast.ValueSpec:
						for i, n := range s.Names {
							decl := "var " + n.Name
							if i < len(s.Values) {
								if u, ok := s.Values[i].(*ast.UnaryExpr); ok && u.Op == token.AND {
									if cl, ok := u.X.(*ast.CompositeLit); ok {
										var b bytes.Buffer
										printer.Fprint(&b, fset, cl.Type)
										decl += " = &" + b.String() + "{}"
									}
								}
							}
							add(n.Name, decl)
						}
					}
				}
			}
		}
	}
	return decls
}
