package engine

import (
	"go/ast"
	"go/token"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// sharedStates are the roleStates fields named for what they hold, not
// after a role: a state several roles share, with the roles that use it.
var sharedStates = map[string][]Role{"lovers": {Cupid, Succubus}}

// TestRoleStatesNamedAfterRoles: every field of roleStates is a role's id in
// the role table, or a documented shared state whose roles are in the table.
func TestRoleStatesNamedAfterRoles(t *testing.T) {
	ids := map[string]bool{}
	for _, ri := range Roles() {
		ids[string(ri.ID)] = true
	}
	rt := reflect.TypeFor[roleStates]()
	for i := range rt.NumField() {
		f := rt.Field(i)
		if ids[f.Name] {
			continue
		}
		roles, ok := sharedStates[f.Name]
		if !ok {
			t.Errorf("roleStates.%s (%s) is no role id of the role table, nor a shared state", f.Name, f.Type)
			continue
		}
		for _, r := range roles {
			if !ids[string(r)] {
				t.Errorf("shared state roleStates.%s: %s is not in the role table", f.Name, r)
			}
		}
	}
}

// TestHooksColumn: the hooks column (roleHooksTab) is the role table's,
// row for row; a role has a constructor exactly when it has its own file
// (role_<id>.go, or its family's), the constructor is declared in that
// file and sets some hook; and every <role>Hooks constructor of the role
// files is reachable from the column.
func TestHooksColumn(t *testing.T) {
	_, files := engineFiles(t)
	declared := map[string]string{} // constructor → its file
	for name, f := range files {
		if !strings.HasPrefix(name, "role_") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 {
				continue
			}
			if id, ok := fd.Type.Results.List[0].Type.(*ast.Ident); ok && id.Name == "roleHooks" {
				declared[fd.Name.Name] = name
			}
		}
	}
	if len(declared) == 0 {
		t.Fatal("no hooks constructor found in the role files")
	}
	reached := map[string]bool{}
	tab := roleHooksTab()
	for i, row := range tab {
		ri := &roleTab[i]
		if row.id != ri.ID {
			t.Errorf("hooks column row %d is %s, the role table's is %s", i, row.id, ri.ID)
			continue
		}
		own := "role_" + string(ri.ID) + ".go"
		if fam, ok := roleFamily[ri.ID]; ok {
			own = fam
		}
		_, hasFile := files[own]
		if row.hooks == nil {
			if hasFile {
				t.Errorf("%s: its row of the hooks column has no constructor, but %s exists", ri.ID, own)
			}
			continue
		}
		fn := runtime.FuncForPC(reflect.ValueOf(row.hooks).Pointer()).Name()
		fn = fn[strings.LastIndex(fn, ".")+1:]
		reached[fn] = true
		if file, ok := declared[fn]; !ok || file != own {
			t.Errorf("%s: its constructor %s is declared in %q, not in its own file %s", ri.ID, fn, file, own)
		}
		if !setsSomeHook(reflect.ValueOf(row.hooks())) {
			t.Errorf("%s: %s sets no hook", ri.ID, fn)
		}
	}
	for fn, file := range declared {
		if !reached[fn] {
			t.Errorf("%s: %s is reachable from no row of the hooks column", file, fn)
		}
	}
}

// setsSomeHook reports whether a hooks value (or one of its contracts) has
// a func set.
func setsSomeHook(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Func:
		return !v.IsNil()
	case reflect.Struct:
		for i := range v.NumField() {
			if setsSomeHook(v.Field(i)) {
				return true
			}
		}
	}
	return false
}

// phaseFiles are the shared phases: they call the roles' hooks and name no
// role's step kind (bar the wolves' step, every wolf's) nor a role's state.
var phaseFiles = []string{"day.go", "night.go", "exile.go", "explode.go", "election.go", "vote.go",
	"speech.go", "grief.go", "judge.go", "win.go", "game.go", "input.go", "step.go", "hooks.go"}

// TestPhasesNameNoRole: no phase file names a role's night step kind (a
// StepKind constant of steps.go other than StepWolves) or reads a role's
// state (g.rs) — such a rule is a hook, in the role's file.
func TestPhasesNameNoRole(t *testing.T) {
	fset, files := engineFiles(t)
	kinds := map[string]bool{}
	for _, d := range files["steps.go"].Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "StepKind" {
				for _, n := range vs.Names {
					kinds[n.Name] = n.Name != "StepWolves"
				}
			}
		}
	}
	if len(kinds) < len(Roles())/2 {
		t.Fatalf("found %d step kinds in steps.go", len(kinds))
	}
	for _, name := range phaseFiles {
		f, ok := files[name]
		if !ok {
			t.Errorf("phase file %s is gone: update phaseFiles", name)
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Ident:
				if kinds[x.Name] {
					t.Errorf("%s: the phase names the step kind %s", fset.Position(x.Pos()), x.Name)
				}
			case *ast.SelectorExpr:
				if x.Sel.Name == "rs" {
					t.Errorf("%s: the phase reads a role's state (rs)", fset.Position(x.Pos()))
				}
			}
			return true
		})
	}
}
