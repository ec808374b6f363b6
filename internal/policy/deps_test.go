package policy

import (
	"bufio"
	"fmt"
	"go/parser"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The package rules live in one place: the "may import" column of the
// table under "## Package layout" in docs/design.md. TestDeps reads that
// table from the document itself, so the document and the test cannot
// drift, and holds every package of the repository to it, in the manner
// of the standard library's go/build/deps_test.go.
//
// A row names one or more packages (`engine/`, `audio/pack`, …) and what
// they may import of this repository:
//
//	nothing                      no package of the repository
//	`a`, `b/…` [only]            a, and b and any package under it
//	everything but `x`           any package but x, directly or not
//
// Text in parentheses is a comment. Only a package's own files count (not
// its _test.go files), on every platform and build tag.

const (
	designDoc     = "docs/design.md"
	layoutHeading = "## Package layout"
	modulePrefix  = "wolftable/"
)

// rule is one row of the table: what its packages may import.
type rule struct {
	line    int      // in docs/design.md
	pkgs    []string // the packages of the row, "engine", "audio/pack"
	allow   []string // may import these; "x/…" is x and any package under it
	nothing bool     // may import nothing of the repository
	except  []string // "everything but": all but these, directly or not
}

// allows says whether the rule lets its packages import pkg directly.
func (r rule) allows(pkg string) bool {
	if r.nothing {
		return false
	}
	if r.except != nil {
		return !matchesAny(r.except, pkg)
	}
	return matchesAny(r.allow, pkg)
}

// matchesAny says whether pkg is one of items ("x/…" is x and any
// package under it).
func matchesAny(items []string, pkg string) bool {
	for _, it := range items {
		if prefix, ok := strings.CutSuffix(it, "/…"); ok {
			if pkg == prefix || strings.HasPrefix(pkg, prefix+"/") {
				return true
			}
		} else if it == pkg {
			return true
		}
	}
	return false
}

var (
	backticked = regexp.MustCompile("`([^`]*)`")
	comment    = regexp.MustCompile(`\([^)]*\)`)
)

// parseLayout reads the package table of design.md's text.
func parseLayout(text string) ([]rule, error) {
	var rules []rule
	in, header := false, 0
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == layoutHeading {
			in = true
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if header > 0 {
				break // the table ended
			}
			continue
		}
		if header++; header <= 2 {
			continue // the column names and the |---| line
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			return nil, fmt.Errorf("%s:%d: a row of the package table has %d columns, want 3 (package, what it is, may import)", designDoc, n, len(cells))
		}
		r := rule{line: n}
		for _, m := range backticked.FindAllStringSubmatch(cells[0], -1) {
			r.pkgs = append(r.pkgs, strings.TrimSuffix(m[1], "/"))
		}
		if len(r.pkgs) == 0 {
			return nil, fmt.Errorf("%s:%d: the package column names no `package`", designDoc, n)
		}
		spec := strings.TrimSpace(comment.ReplaceAllString(cells[2], ""))
		var list []string
		for _, m := range backticked.FindAllStringSubmatch(spec, -1) {
			list = append(list, strings.TrimSuffix(m[1], "/"))
		}
		rest := strings.TrimSpace(backticked.ReplaceAllString(spec, ""))
		switch {
		case rest == "nothing" && len(list) == 0:
			r.nothing = true
		case rest == "everything but" && len(list) > 0:
			r.except = list
		case len(list) > 0 && strings.Trim(strings.TrimSuffix(rest, "only"), ", ") == "":
			r.allow = list
		default:
			return nil, fmt.Errorf("%s:%d: cannot read the may-import column %q: write nothing, `pkg`, … [only], or everything but `pkg`, … (comments in parentheses)", designDoc, n, strings.TrimSpace(cells[2]))
		}
		rules = append(rules, r)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rules) == 0 {
		return nil, fmt.Errorf("%s: no package table under %q", designDoc, layoutHeading)
	}
	return rules, nil
}

// repoImports parses the imports of every package of the repository (its
// non-test files, whatever their build tags): package → the packages of
// the repository it imports directly, both as paths from the root
// ("engine", "firmware-bridge/protocol").
func repoImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	deps := map[string][]string{}
	for _, f := range sourceFiles(t, root, parser.ImportsOnly, false) {
		if strings.HasSuffix(f.rel, "_test.go") {
			continue
		}
		pkg := path.Dir(f.rel)
		if _, ok := deps[pkg]; !ok {
			deps[pkg] = nil
		}
		for _, im := range f.file.Imports {
			p, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				t.Fatalf("%s: import %s: %v", f.rel, im.Path.Value, err)
			}
			if own, ok := strings.CutPrefix(p, modulePrefix); ok && !contains(deps[pkg], own) {
				deps[pkg] = append(deps[pkg], own)
			}
		}
	}
	delete(deps, ".") // no package at the root
	return deps
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// reach is every package pkg imports, directly or not.
func reach(deps map[string][]string, pkg string) map[string]bool {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		for _, d := range deps[p] {
			if !seen[d] {
				seen[d] = true
				walk(d)
			}
		}
	}
	walk(pkg)
	return seen
}

// checkDeps holds the import graph to the rules: every package has one
// row, every row names packages that exist, and every import is allowed.
func checkDeps(rules []rule, deps map[string][]string) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	ruleOf := map[string]rule{}
	exists := func(item string) bool {
		for p := range deps {
			if matchesAny([]string{item}, p) {
				return true
			}
		}
		return false
	}
	for _, r := range rules {
		for _, p := range r.pkgs {
			if prev, dup := ruleOf[p]; dup {
				bad("%s:%d: %s has a row already (line %d)", designDoc, r.line, p, prev.line)
			}
			ruleOf[p] = r
			if _, ok := deps[p]; !ok {
				bad("%s:%d: the table names %s, which is no package of the repository: remove or rename its row", designDoc, r.line, p)
			}
		}
		for _, it := range append(append([]string(nil), r.allow...), r.except...) {
			if !exists(it) {
				bad("%s:%d: the may-import column names %s, which is no package of the repository", designDoc, r.line, it)
			}
		}
	}
	for pkg, imports := range deps {
		r, ok := ruleOf[pkg]
		if !ok {
			bad("%s: no row in %s's package table: add one saying what it is and what it may import", pkg, designDoc)
			continue
		}
		for _, im := range imports {
			if !r.allows(im) {
				bad("%s imports %s, which %s:%d does not allow: cut the import, or change the table with the reason", pkg, im, designDoc, r.line)
			}
		}
		if r.except != nil {
			for p := range reach(deps, pkg) {
				if matchesAny(r.except, p) && !contains(imports, p) {
					bad("%s imports %s indirectly, which %s:%d forbids", pkg, p, designDoc, r.line)
				}
			}
		}
	}
	sort.Strings(problems)
	return problems
}

// TestDeps: every package of the repository imports only what
// docs/design.md's package table says it may, and every package has a row.
func TestDeps(t *testing.T) {
	root := repoRoot(t)
	text, err := os.ReadFile(filepath.Join(root, designDoc))
	if err != nil {
		t.Fatal(err)
	}
	rules, err := parseLayout(string(text))
	if err != nil {
		t.Fatal(err)
	}
	deps := repoImports(t, root)
	for _, want := range []string{"engine", "cmd/wolftable", "firmware-bridge/protocol"} {
		if _, ok := deps[want]; !ok {
			t.Fatalf("the walk found no package %s: it reads the wrong tree", want)
		}
	}
	for _, p := range checkDeps(rules, deps) {
		t.Error(p)
	}
}

// TestDepsSeeDrift: the reader and the checker refuse what they must, so
// TestDeps cannot pass by reading nothing.
func TestDepsSeeDrift(t *testing.T) {
	doc := strings.Join([]string{
		"# x", "", layoutHeading, "", "| package | what | may import |", "|---|---|---|",
		"| `engine/` | rules | nothing |",
		"| `script/`, `boards/` | lines | `engine` (the vocabulary) |",
		"| `audio/pack` | packs | `audio/…` only |",
		"| `cmd/x/` | main | everything but `desk` |",
		"| `desk` | desk | `engine` |",
		"", "after the table | a | b | c |",
	}, "\n")
	rules, err := parseLayout(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 5 || fmt.Sprint(rules[1].pkgs, rules[1].allow) != "[script boards] [engine]" || !rules[0].nothing || fmt.Sprint(rules[3].except) != "[desk]" {
		t.Fatalf("parseLayout = %+v", rules)
	}
	good := map[string][]string{"engine": nil, "script": {"engine"}, "boards": nil, "audio/pack": nil, "cmd/x": {"script"}, "desk": {"engine"}}
	if p := checkDeps(rules, good); len(p) != 0 {
		t.Errorf("a graph the table allows: %q", p)
	}
	for _, c := range []struct {
		name string
		edit func(map[string][]string)
		want string
	}{
		{"engine imports", func(d map[string][]string) { d["engine"] = []string{"script"} }, "engine imports script"},
		{"not in the list", func(d map[string][]string) { d["boards"] = []string{"script"} }, "boards imports script"},
		{"forbidden directly", func(d map[string][]string) { d["cmd/x"] = []string{"desk"} }, "cmd/x imports desk"},
		{"forbidden indirectly", func(d map[string][]string) { d["script"] = []string{"engine", "desk"} }, "cmd/x imports desk indirectly"},
		{"no row", func(d map[string][]string) { d["hw"] = nil }, "hw: no row"},
		{"a row of no package", func(d map[string][]string) { delete(d, "boards") }, "names boards, which is no package"},
	} {
		deps := map[string][]string{}
		for k, v := range good {
			deps[k] = append([]string(nil), v...)
		}
		c.edit(deps)
		got := checkDeps(rules, deps)
		found := false
		for _, p := range got {
			found = found || strings.Contains(p, c.want)
		}
		if !found {
			t.Errorf("%s: problems %q, want one with %q", c.name, got, c.want)
		}
	}
	for _, bad := range []string{"| `x` | y | emulator |", "| `x` | y | `a` or `b` |", "| x | y | nothing |", "| `x` | y |"} {
		if _, err := parseLayout(layoutHeading + "\n| a | b | c |\n|---|---|---|\n" + bad + "\n"); err == nil {
			t.Errorf("parseLayout read %q", bad)
		}
	}
}
