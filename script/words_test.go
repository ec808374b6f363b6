package script_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"wolftable/script"
)

// engineConsts reads the engine's sources and returns, for each of the named
// types, the string values of its constants. Some of the engine's words are
// type aliases of string (ActionKind, VoteKind, SpeechKind), which reflection
// cannot tell apart, so the source is the list.
func engineConsts(t *testing.T, types ...string) map[string][]string {
	t.Helper()
	want := map[string]bool{}
	for _, ty := range types {
		want[ty] = true
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob("../engine/*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		{
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					id, ok := vs.Type.(*ast.Ident)
					if !ok || !want[id.Name] {
						continue
					}
					for _, v := range vs.Values {
						lit, ok := v.(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							t.Fatalf("a %s constant is not a string literal", id.Name)
						}
						s, err := strconv.Unquote(lit.Value)
						if err != nil {
							t.Fatal(err)
						}
						out[id.Name] = append(out[id.Name], s)
					}
				}
			}
		}
	}
	for _, ty := range types {
		if len(out[ty]) == 0 {
			t.Fatalf("no constants of engine.%s found: has the type moved?", ty)
		}
	}
	return out
}

// TestEveryEngineWordHasALabel: every cause of death, action kind, vote
// kind, speech kind and record kind the engine defines has one Chinese label
// in the script's word tables, and no label is left for a word the engine
// no longer has.
func TestEveryEngineWordHasALabel(t *testing.T) {
	consts := engineConsts(t, "Cause", "ActionKind", "VoteKind", "SpeechKind", "RecordType")
	tables := map[string]map[string]string{
		"Cause":      script.Causes,
		"ActionKind": script.Actions,
		"VoteKind":   script.Votes,
		"SpeechKind": script.Speeches,
		"RecordType": script.Records,
	}
	extra := map[string]bool{"ActionKind/check": true} // a check record's verb
	for ty, vals := range consts {
		table := tables[ty]
		seen := map[string]bool{}
		for _, v := range vals {
			seen[v] = true
			w, ok := table[v]
			if !ok {
				t.Errorf("engine.%s %q has no label in script", ty, v)
				continue
			}
			if w == "" || !hasHan(w) {
				t.Errorf("engine.%s %q: label %q is not Chinese", ty, v, w)
			}
		}
		for k := range table {
			if !seen[k] && !extra[ty+"/"+k] {
				t.Errorf("script labels %s %q, which the engine does not define", ty, k)
			}
		}
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

func TestPhaseLabel(t *testing.T) {
	for in, want := range map[string]string{
		"night-1": "第1夜", "day-12": "第12天", "setup": "開局", "night-x": "night-x", "": "",
	} {
		if got := script.PhaseLabel(in); got != want {
			t.Errorf("PhaseLabel(%q) = %q, want %q", in, got, want)
		}
	}
}
