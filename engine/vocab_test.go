package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestVocabularyListed: each word list of vocab.go (Causes, ActionKinds,
// VoteKinds, SpeechKinds, RecordTypes) holds exactly the constants of its
// type declared in the engine's sources, once each. A constant added
// without its list entry would have no label in the script's tables and
// nothing would say so.
func TestVocabularyListed(t *testing.T) {
	listed := map[string][]string{
		"Cause":      words(Causes()),
		"ActionKind": words(ActionKinds()),
		"VoteKind":   words(VoteKinds()),
		"SpeechKind": words(SpeechKinds()),
		"RecordType": words(RecordTypes()),
		"Reason":     words(Reasons()),
		"Winner":     words(Winners()),
	}
	declared := declaredConsts(t)
	for ty, list := range listed {
		want := declared[ty]
		if len(want) == 0 {
			t.Fatalf("no constants of %s found in the sources: has the type moved?", ty)
		}
		got := slices.Clone(list)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: listed %v, declared %v", ty, got, want)
		}
	}
}

func words[T ~string](ws []T) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = string(w)
	}
	return out
}

// declaredConsts reads the engine's sources: for each type name, the string
// values of the constants declared with that type.
func declaredConsts(t *testing.T) map[string][]string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				id, ok := vs.Type.(*ast.Ident)
				if !ok {
					continue
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, _ := strconv.Unquote(lit.Value)
						out[id.Name] = append(out[id.Name], s)
					}
				}
			}
		}
	}
	return out
}
