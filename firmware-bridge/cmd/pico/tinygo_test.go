package main

// How TinyGo 0.39 builds this firmware: the build tags it sets, from its
// target files and the command line, and which globals its -ldflags -X
// can set. TinyGo is not run here; these tests read the build as the
// Makefile, the firmware's header and docs/wiring.md write it.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// tinygoTarget is what a TinyGo 0.39 target file (targets/*.json) says that
// bears on the build tags.
type tinygoTarget struct {
	inherits  []string
	buildTags []string
	scheduler string
	serial    string
	gc        string
	goos      string
	goarch    string
}

// tinygoTargets are TinyGo 0.39's targets/pico.json and what it inherits
// (rp2040.json, cortex-m0plus.json, cortex-m.json), the fields that set
// build tags.
var tinygoTargets = map[string]tinygoTarget{
	"pico":          {inherits: []string{"rp2040"}, buildTags: []string{"pico"}},
	"rp2040":        {inherits: []string{"cortex-m0plus"}, buildTags: []string{"rp2040", "rp"}, scheduler: "cores", serial: "usb"},
	"cortex-m0plus": {inherits: []string{"cortex-m"}},
	"cortex-m":      {buildTags: []string{"cortexm", "baremetal", "linux", "arm"}, scheduler: "tasks", gc: "conservative", goos: "linux", goarch: "arm"},
}

// tinygoGoMinor is the minor version of the Go TinyGo runs with (Makefile:
// TINYGO_GO, Go 1.25): TinyGo sets go1.1 … go1.N.
const tinygoGoMinor = 25

// resolve merges target's inherited files as TinyGo does: parents first,
// the child's scalars overriding, build tags appended.
func resolve(name string) (tinygoTarget, error) {
	t, ok := tinygoTargets[name]
	if !ok {
		return tinygoTarget{}, fmt.Errorf("unknown TinyGo target %q", name)
	}
	var spec tinygoTarget
	for _, parent := range t.inherits {
		p, err := resolve(parent)
		if err != nil {
			return tinygoTarget{}, err
		}
		spec = merge(spec, p)
	}
	return merge(spec, t), nil
}

func merge(dst, src tinygoTarget) tinygoTarget {
	dst.buildTags = append(slices.Clone(dst.buildTags), src.buildTags...)
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&dst.scheduler, src.scheduler}, {&dst.serial, src.serial}, {&dst.gc, src.gc}, {&dst.goos, src.goos}, {&dst.goarch, src.goarch},
	} {
		if f.src != "" {
			*f.dst = f.src
		}
	}
	return dst
}

// tinygoBuild is a `tinygo build` (or flash) command line.
type tinygoBuild struct {
	target, scheduler, serial, gc string
	xVars                         []string // the main.NAME of every -X main.NAME=…
}

var (
	flagRE = regexp.MustCompile(`(?:^|\s)-(target|scheduler|serial|gc)=(\S+)`)
	xRE    = regexp.MustCompile(`-X\s+main\.(\w+)=`)
)

func parseBuild(line string) tinygoBuild {
	var b tinygoBuild
	for _, m := range flagRE.FindAllStringSubmatch(line, -1) {
		switch m[1] {
		case "target":
			b.target = m[2]
		case "scheduler":
			b.scheduler = m[2]
		case "serial":
			b.serial = m[2]
		case "gc":
			b.gc = m[2]
		}
	}
	for _, m := range xRE.FindAllStringSubmatch(line, -1) {
		b.xVars = append(b.xVars, m[1])
	}
	return b
}

// tags returns the build tags TinyGo 0.39 sets for b (its
// compileopts.Config.BuildTags), with those go/build adds for GOOS and
// GOARCH, and the scheduler the build runs.
func (b tinygoBuild) tags() (tags []string, scheduler string, err error) {
	spec, err := resolve(b.target)
	if err != nil {
		return nil, "", err
	}
	scheduler, serial, gc := spec.scheduler, spec.serial, spec.gc
	for _, o := range []struct {
		dst  *string
		flag string
	}{{&scheduler, b.scheduler}, {&serial, b.serial}, {&gc, b.gc}} {
		if o.flag != "" {
			*o.dst = o.flag
		}
	}
	tags = append(slices.Clone(spec.buildTags), "tinygo", "purego", "osusergo", "math_big_pure_go",
		"gc."+gc, "scheduler."+scheduler, "serial."+serial)
	if scheduler != "threads" && scheduler != "cores" {
		tags = append(tags, "tinygo.unicore")
	}
	for i := 1; i <= tinygoGoMinor; i++ {
		tags = append(tags, fmt.Sprintf("go1.%d", i))
	}
	tags = append(tags, spec.goos, spec.goarch, "unix")
	return tags, scheduler, nil
}

// buildLines returns the `tinygo build` and `tinygo flash` command lines
// in the file at path (backslash continuations joined).
func buildLines(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.ReplaceAll(string(src), "\\\n", " ")
	var lines []string
	for _, l := range strings.Split(joined, "\n") {
		if strings.Contains(l, "tinygo build") || strings.Contains(l, "tinygo flash") || strings.Contains(l, "$(TINYGO) build") {
			lines = append(lines, l)
		}
	}
	return lines
}

// makefileBuild is the Makefile's firmware build.
func makefileBuild(t *testing.T) tinygoBuild {
	t.Helper()
	lines := buildLines(t, "../../../Makefile")
	for _, l := range lines {
		if strings.Contains(l, "$(TINYGO) build") {
			return parseBuild(l)
		}
	}
	t.Fatalf("no $(TINYGO) build line in the Makefile (lines: %q)", lines)
	return tinygoBuild{}
}

// firmwareTags are the build tags of the Makefile's firmware build.
func firmwareTags(t *testing.T) []string {
	t.Helper()
	tags, _, err := makefileBuild(t).tags()
	if err != nil {
		t.Fatal(err)
	}
	return tags
}

// TestFirmwareBuildFlags (H3): the Makefile builds for the Pico with USB
// serial and the single-core tasks scheduler (TinyGo 0.39's rp2040 target
// defaults to "cores"), and every build or flash command the firmware's
// header and docs/wiring.md give says so too.
func TestFirmwareBuildFlags(t *testing.T) {
	b := makefileBuild(t)
	tags, scheduler, err := b.tags()
	if err != nil {
		t.Fatal(err)
	}
	if b.target != "pico" || b.serial != "usb" || scheduler != "tasks" {
		t.Errorf("Makefile builds -target=%s -serial=%s, scheduler %q; want pico, usb, tasks (-scheduler=tasks)", b.target, b.serial, scheduler)
	}
	for _, want := range []string{"scheduler.tasks", "tinygo.unicore", "serial.usb", "rp2040", "baremetal"} {
		if !slices.Contains(tags, want) {
			t.Errorf("build tags %v lack %s", tags, want)
		}
	}
	for _, path := range []string{"main.go", "../../../docs/wiring.md", "../../../README.md"} {
		for _, l := range buildLines(t, path) {
			if !strings.Contains(l, "-target=pico") {
				continue
			}
			if _, sched, _ := parseBuild(l).tags(); sched != "tasks" {
				t.Errorf("%s: %q runs the %q scheduler; add -scheduler=tasks", path, strings.TrimSpace(l), sched)
			}
		}
	}
	// Without the flag, 0.39 would run the cores scheduler.
	b.scheduler = ""
	if _, sched, _ := b.tags(); sched != "cores" {
		t.Errorf("the model of TinyGo 0.39's rp2040 target defaults to %q, want cores", sched)
	}
}

// xTargetErrors checks that every name is a package-level string variable
// of the firmware declared without an initializer: TinyGo 0.39's -X sets
// only those, and leaves one with an initializer as it is, silently.
func xTargetErrors(files map[string][]byte, names []string) []string {
	fset := token.NewFileSet()
	found := map[string]string{} // name → problem, "" if fine
	for name, src := range files {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			return []string{err.Error()}
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for _, id := range vs.Names {
					switch typ, _ := vs.Type.(*ast.Ident); {
					case len(vs.Values) > 0:
						found[id.Name] = "has an initializer: TinyGo 0.39's -X leaves it unchanged"
					case typ == nil || typ.Name != "string":
						found[id.Name] = "is not declared string"
					default:
						found[id.Name] = ""
					}
				}
			}
		}
	}
	var errs []string
	for _, n := range names {
		problem, ok := found[n]
		switch {
		case !ok:
			errs = append(errs, "-X main."+n+": no such package-level variable")
		case problem != "":
			errs = append(errs, "-X main."+n+": "+problem)
		}
	}
	return errs
}

// TestXTargetsUninitialized (H1): what the Makefile and the firmware's
// header set with -X are package-level strings without an initializer.
func TestXTargetsUninitialized(t *testing.T) {
	files := firmwareFiles(t)
	targets := makefileBuild(t).xVars
	if !slices.Equal(slices.Sorted(slices.Values(targets)), []string{"chainFromLastSeat", "registersPerSeat", "seats"}) {
		t.Errorf("the Makefile sets %v with -X, want seats, registersPerSeat and chainFromLastSeat", targets)
	}
	for _, l := range buildLines(t, "main.go") {
		targets = append(targets, parseBuild(l).xVars...)
	}
	for _, e := range xTargetErrors(files, targets) {
		t.Error(e)
	}
}

// TestXTargetCheckCatchesInitializer: the check fails on each way a -X
// target can go wrong.
func TestXTargetCheckCatchesInitializer(t *testing.T) {
	src := string(firmwareFiles(t)["main.go"])
	const decl = "\tseats             string // 6…18\n"
	if !strings.Contains(src, decl) {
		t.Fatalf("main.go no longer declares %q: update the test", decl)
	}
	for _, slip := range []string{
		"\tseats = \"12\"\n",
		"\tseats string = \"12\"\n",
		"\tseats int\n",
		"\tseatCount string\n",
	} {
		bad := map[string][]byte{"main.go": []byte(strings.Replace(src, decl, slip, 1))}
		if errs := xTargetErrors(bad, []string{"seats"}); len(errs) == 0 {
			t.Errorf("the check accepts %q", strings.TrimSpace(slip))
		} else {
			t.Logf("%q: %v", strings.TrimSpace(slip), errs)
		}
	}
}
