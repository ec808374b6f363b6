package studio

import (
	"testing"

	"wolftable/audio/voice"
)

// Every clip of the default binding keeps the part it had when the
// skills' part listed each role's segment by hand (issue 30: a role's day
// lines under its id need no row in groups).
func TestGroupsFromRoleSegments(t *testing.T) {
	old := map[string][]string{ // the groups' segments before issue 30
		"game": {"game", "selftest", "judge"}, "night": {"night"},
		"election": {"signup", "election", "badge", "withdraw"}, "day": {"day", "speech", "lastwords"},
		"vote":  {"vote", "tally", "exile", "guide"},
		"skill": {"skill", "explode", "duel", "idiot", "prince", "bear", "cupid", "charm", "bloodmoon", "rogue"},
	}
	partOf := map[string]string{}
	for g, segs := range old {
		for _, s := range segs {
			partOf[s] = g
		}
	}
	b, err := voice.Default()
	if err != nil {
		t.Fatal(err)
	}
	skills := 0
	for _, c := range b.Clips() {
		seg, ok := firstSegment(c.ID)
		if !ok || c.Kind.String() == "seat" || c.Kind.String() == "count" {
			continue
		}
		want, listed := partOf[seg]
		if !listed {
			want = "other"
		}
		if got, _ := groupOf(c.ID, c.Kind.String()); got != want {
			t.Errorf("%s: part %s, was %s", c.ID, got, want)
		}
		if want == "skill" {
			skills++
		}
	}
	if skills == 0 {
		t.Error("no clip of the skills' part")
	}
}

// firstSegment is the segment after "line." of a line clip's id.
func firstSegment(id string) (string, bool) {
	const p = "line."
	if len(id) <= len(p) || id[:len(p)] != p {
		return "", false
	}
	rest := id[len(p):]
	for i := range rest {
		if rest[i] == '.' {
			return rest[:i], true
		}
	}
	return rest, true
}
