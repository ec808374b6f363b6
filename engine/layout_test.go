package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// engineFiles parses the engine's non-test files.
func engineFiles(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = f
	}
	if len(files) == 0 {
		t.Fatal("no engine files")
	}
	return fset, files
}

// roleFamily names the file that holds a role whose file is its family's
// (doc.go, "how to add a role").
var roleFamily = map[Role]string{WolfWitch: "role_purewhite.go"}

// TestRoleNamedOnlyInItsFile: each role constant other than 狼人 and 村民
// is named only in its own file (role_<id>.go, or its family's) and in the
// role table (roles.go) — no shared phase file branches on a role.
func TestRoleNamedOnlyInItsFile(t *testing.T) {
	fset, files := engineFiles(t)
	// the role constants, from roles.go's declarations
	consts := map[string]Role{}
	for _, d := range files["roles.go"].Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Role" {
				continue
			}
			for i, n := range vs.Names {
				v, _ := strconv.Unquote(vs.Values[i].(*ast.BasicLit).Value)
				consts[n.Name] = Role(v)
			}
		}
	}
	if len(consts) != len(Roles()) {
		t.Fatalf("found %d role constants in roles.go, the table has %d roles", len(consts), len(Roles()))
	}
	seen := 0
	for name, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			r, ok := consts[id.Name]
			if !ok || r == Werewolf || r == Villager {
				return true
			}
			seen++
			own := "role_" + string(r) + ".go"
			if fam, ok := roleFamily[r]; ok {
				own = fam
			}
			if name != "roles.go" && name != own {
				t.Errorf("%s: role %s named outside %s and roles.go", fset.Position(id.Pos()), id.Name, own)
			}
			return true
		})
	}
	if seen == 0 {
		t.Fatal("no role constant found in the engine's files")
	}
}

// TestFileSizes: no engine file is over 400 lines.
func TestFileSizes(t *testing.T) {
	names, _ := filepath.Glob("*.go")
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Count(string(b), "\n"); lines > 400 {
			t.Errorf("%s has %d lines (at most 400)", n, lines)
		}
	}
}

// pureImports is the standard library the engine may import: no clock, I/O,
// network, randomness, logging or synchronisation (design.md).
var pureImports = map[string]bool{"errors": true, "fmt": true, "sort": true, "strconv": true, "strings": true}

// dataVars are the engine's package-level variables: immutable tables of
// data, never written (doc.go).
var dataVars = map[string]bool{"roleTab": true, "optionTab": true}

// TestEnginePure (was scripts/engine-purity): the engine imports only
// pureImports, starts no goroutine, and its only package-level variables
// are dataVars, which no code writes.
func TestEnginePure(t *testing.T) {
	fset, files := engineFiles(t)
	for _, f := range files {
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !pureImports[p] {
				t.Errorf("%s: imports %q", fset.Position(im.Pos()), p)
			}
		}
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, sp := range gd.Specs {
					for _, n := range sp.(*ast.ValueSpec).Names {
						if !dataVars[n.Name] {
							t.Errorf("%s: package-level variable %s", fset.Position(n.Pos()), n.Name)
						}
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GoStmt:
				t.Errorf("%s: go statement", fset.Position(x.Pos()))
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if root := rootIdent(l); root != nil && dataVars[root.Name] {
						t.Errorf("%s: writes %s", fset.Position(l.Pos()), root.Name)
					}
				}
			case *ast.IncDecStmt:
				if root := rootIdent(x.X); root != nil && dataVars[root.Name] {
					t.Errorf("%s: writes %s", fset.Position(x.Pos()), root.Name)
				}
			}
			return true
		})
	}
	var imported []string
	for p := range pureImports {
		imported = append(imported, p)
	}
	sort.Strings(imported)
	t.Logf("engine imports at most: %s", strings.Join(imported, " "))
}

// rootIdent is the variable an assignment target starts from (x in x[i].f).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// namedOutside are the places outside the engine that still name a role or
// a night step kind (issue 30 item 2): a list that may only shrink. Each
// entry is "dir/file engine.Name"; a new one fails the test, and so does
// an entry no longer found (remove it).
var namedOutside = map[string]bool{
	"boards/order.go engine.StepWolves":      true, // the wolves' step: every role that wakes with the wolves
	"boards/wolves.go engine.StepWolves":     true,
	"boards/parse.go engine.StepWolves":      true,
	"boards/parse.go engine.Idiot":           true, // idiot.name on a derived board (I7)
	"boards/parse.go engine.Thief":           true, // the bottom cards
	"bots/bots.go engine.StepCupid":          true,
	"bots/bots.go engine.StepHalfBlood":      true,
	"bots/bots.go engine.StepLovers":         true,
	"bots/bots.go engine.StepMerchant":       true,
	"bots/bots.go engine.StepStalker":        true,
	"bots/bots.go engine.StepSuccubusLovers": true,
	"bots/bots.go engine.StepThief":          true,
	"bots/bots.go engine.StepWildChild":      true,
	"bots/bots.go engine.StepWitch":          true,
	"bots/bots.go engine.StepWolves":         true,
}

// TestRoleNamedOnlyInEngine: the scenario runner, the bots, the console,
// the board loader, the daemon and the voice studio name no role constant (but 狼人 and 村民) and no night step kind: they
// read the engine's declarations (Choices, StepKeys, the role table).
func TestRoleNamedOnlyInEngine(t *testing.T) {
	_, files := engineFiles(t)
	names := map[string]bool{}
	for _, fn := range []string{"roles.go", "steps.go"} {
		for _, d := range files[fn].Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || (id.Name != "Role" && id.Name != "StepKind") {
					continue
				}
				for _, n := range vs.Names {
					names[n.Name] = n.Name != "Werewolf" && n.Name != "Villager"
				}
			}
		}
	}
	if len(names) < len(Roles())+len(StepKinds()) {
		t.Fatalf("found %d role and step-kind constants, want %d", len(names), len(Roles())+len(StepKinds()))
	}
	found := map[string]bool{}
	for _, dir := range []string{"../scenario", "../bots", "../console", "../boards", "../daemon", "../audio/studio"} {
		paths, _ := filepath.Glob(dir + "/*.go")
		fset := token.NewFileSet()
		for _, p := range paths {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "engine" || !names[sel.Sel.Name] {
					return true
				}
				key := strings.TrimPrefix(p, "../") + " engine." + sel.Sel.Name
				found[key] = true
				if !namedOutside[key] {
					t.Errorf("%s: names engine.%s: read the engine's declarations instead", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		}
	}
	for key := range namedOutside {
		if !found[key] {
			t.Errorf("%s: no longer found: remove it from namedOutside", key)
		}
	}
}
