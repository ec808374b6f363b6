package policy

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The size limits: a function of more lines than maxFuncLines (from its
// func keyword to its closing brace) or a file of more lines than
// maxFileLines is an offender. Today's offenders are listed in
// size-offenders.txt; the list may only shrink.
const (
	maxFuncLines = 80
	maxFileLines = 600
)

// goFile is one parsed Go source file of the repository.
type goFile struct {
	rel  string // slash-separated, from the repository root
	fset *token.FileSet
	file *ast.File
}

// skipDir says whether the walk leaves a folder out: testdata (not the
// module's code: the firmware's TinyGo stand-ins, fuzz corpora), hidden
// and underscore folders (the go tool ignores them), and build outputs.
func skipDir(rel, name string) bool {
	if rel == "." {
		return false
	}
	return name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
		rel == "bin" || rel == "dist"
}

// sourceFiles parses every .go file of the repository (both modules: the
// table's and firmware-bridge's, tests included) with mode. Generated files
// (a "Code generated … DO NOT EDIT." line) are skipped when skipGenerated.
func sourceFiles(t *testing.T, root string, mode parser.Mode, skipGenerated bool) []goFile {
	t.Helper()
	var files []goFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skipDir(rel, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, mode|parser.ParseComments)
		if err != nil {
			return fmt.Errorf("%s: %v", rel, err)
		}
		if skipGenerated && ast.IsGenerated(f) {
			return nil
		}
		files = append(files, goFile{rel: rel, fset: fset, file: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no Go files found under the repository root")
	}
	return files
}

// funcName is how size-offenders.txt names a function: Name, or Type.Name
// for a method (the receiver's type without * or type parameters).
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// sizes measures one file: "path" → its lines and "path:func" → each
// function's lines, for every file and function over the limits. Two
// functions of one name in a file (init) are "init", "init#2", ….
func sizes(f goFile, over map[string]int) {
	tf := f.fset.File(f.file.Pos())
	if n := tf.LineCount(); n > maxFileLines {
		over[f.rel] = n
	}
	seen := map[string]int{}
	for _, d := range f.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := funcName(fd)
		seen[name]++
		if seen[name] > 1 {
			name += "#" + strconv.Itoa(seen[name])
		}
		lines := f.fset.Position(fd.End()).Line - f.fset.Position(fd.Pos()).Line + 1
		if lines > maxFuncLines {
			over[f.rel+":"+name] = lines
		}
	}
}

// readOffenders reads size-offenders.txt: "path lines" or "path:func lines"
// a line, # comments.
func readOffenders(t *testing.T, name string) map[string]int {
	t.Helper()
	fh, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	list := map[string]int{}
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		lines, err := 0, error(nil)
		if len(f) == 2 {
			lines, err = strconv.Atoi(f[1])
		}
		if len(f) != 2 || err != nil || lines <= 0 {
			t.Errorf("%s:%d: %q: want \"path lines\" or \"path:func lines\"", name, n, line)
			continue
		}
		if _, dup := list[f[0]]; dup {
			t.Errorf("%s:%d: %s is listed twice", name, n, f[0])
		}
		list[f[0]] = lines
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return list
}

// ratchet compares what is over the limits now with the list: every
// offender must be listed, at no more than its listed size, and every
// listed one must still be over the limits (else its line goes).
func ratchet(over, listed map[string]int) []string {
	var problems []string
	for name, n := range over {
		limit, what := maxFuncLines, "function"
		if !strings.Contains(name, ":") {
			limit, what = maxFileLines, "file"
		}
		switch was, ok := listed[name]; {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: %s of %d lines, over %d: split it (the list of offenders only shrinks)", name, what, n, limit))
		case n > was:
			problems = append(problems, fmt.Sprintf("%s: %s grew to %d lines, from %d listed: an offender must not grow; split it", name, what, n, was))
		}
	}
	for name, was := range listed {
		if _, ok := over[name]; !ok {
			problems = append(problems, fmt.Sprintf("%s: listed at %d lines, now within the limits or gone: remove its line from size-offenders.txt", name, was))
		}
	}
	sort.Strings(problems)
	return problems
}

// TestSizeRatchet: no function over 80 lines and no file over 600 in the
// repository's Go code (tests included, generated files not), except the
// offenders in size-offenders.txt, none of which may grow; a listed one
// now within the limits, or gone, must leave the list.
func TestSizeRatchet(t *testing.T) {
	root := repoRoot(t)
	over := map[string]int{}
	for _, f := range sourceFiles(t, root, 0, true) {
		sizes(f, over)
	}
	for _, p := range ratchet(over, readOffenders(t, "size-offenders.txt")) {
		t.Error(p)
	}
}

// TestSizesSeeOffenders: the measure and the ratchet find what they must,
// so TestSizeRatchet cannot pass by measuring nothing.
func TestSizesSeeOffenders(t *testing.T) {
	var src strings.Builder
	src.WriteString("package x\n\nfunc short() {}\n\ntype T[E any] struct{}\n\nfunc (t *T[E]) long() {\n")
	for range maxFuncLines {
		src.WriteString("\t_ = 1\n")
	}
	src.WriteString("}\n\nfunc init() {}\n\nfunc init() {\n")
	for range maxFuncLines {
		src.WriteString("\t_ = 1\n")
	}
	src.WriteString("}\n")
	for range maxFileLines {
		src.WriteString("// filler\n")
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src.String(), 0)
	if err != nil {
		t.Fatal(err)
	}
	over := map[string]int{}
	sizes(goFile{rel: "a/x.go", fset: fset, file: f}, over)
	want := map[string]int{"a/x.go": 2*maxFuncLines + maxFileLines + 13, "a/x.go:T.long": maxFuncLines + 2, "a/x.go:init#2": maxFuncLines + 2}
	if fmt.Sprint(over) != fmt.Sprint(want) {
		t.Errorf("sizes = %v, want %v", over, want)
	}
	for _, c := range []struct {
		over, listed map[string]int
		want         string // a word of the one problem, "" for none
	}{
		{map[string]int{"a.go:f": 90}, map[string]int{"a.go:f": 90}, ""},
		{map[string]int{"a.go:f": 85}, map[string]int{"a.go:f": 90}, ""},
		{map[string]int{"a.go:f": 91}, map[string]int{"a.go:f": 90}, "grew"},
		{map[string]int{"a.go:f": 91}, map[string]int{}, "split it"},
		{map[string]int{"a.go": 700}, map[string]int{}, "file of 700"},
		{map[string]int{}, map[string]int{"a.go:f": 90}, "remove its line"},
	} {
		got := ratchet(c.over, c.listed)
		switch {
		case c.want == "" && len(got) != 0, c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)):
			t.Errorf("ratchet(%v, %v) = %q, want one problem with %q", c.over, c.listed, got, c.want)
		}
	}
}
