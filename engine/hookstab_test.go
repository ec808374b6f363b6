package engine

import (
	"reflect"
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
