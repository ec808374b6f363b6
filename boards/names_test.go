package boards

import (
	"strings"
	"testing"

	"wolftable/engine"
)

// TestNamesTraditional: every name a player or judge reads is Traditional
// (rules-more.md I10: seed 003's 禁言长老 board is 禁言長老). The Simplified
// characters are taken from the role table: those of its Simplified names
// that no Traditional name uses (长, 恶, 骑, 猎 …). No built-in board's name
// and no role's name may hold one.
func TestNamesTraditional(t *testing.T) {
	trad := ""
	for _, r := range engine.Roles() {
		trad += r.Name
	}
	var simp []string
	for _, r := range engine.Roles() {
		for _, c := range r.Simplified {
			if !strings.ContainsRune(trad, c) && !strings.ContainsRune(strings.Join(simp, ""), c) {
				simp = append(simp, string(c))
			}
		}
	}
	if len(simp) < 10 {
		t.Fatalf("only %d Simplified characters found in the role table: %v", len(simp), simp)
	}
	check := func(what, name string) {
		for _, c := range simp {
			if strings.Contains(name, c) {
				t.Errorf("%s %q holds the Simplified %s", what, name, c)
			}
		}
	}
	for _, r := range engine.Roles() {
		check("role "+string(r.ID), r.Name)
	}
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		check("board "+b.ID, b.Name)
	}
}
