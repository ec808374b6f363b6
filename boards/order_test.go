package boards

import (
	"strings"
	"testing"

	"wolftable/engine"
)

// A board with no night line gets seed 004's order (rules-more.md E0.2,
// E0.3): every step of its composition, in E0.2 order, night 1 and later
// nights per the step's flags, with the default durations and hurry points.
func TestSeed004DefaultOrder(t *testing.T) {
	src := "id venue-test\nname 場館測試\nplayers 12\n" +
		"roles rogue bear hiddenwolf halfblood wildchild werewolf*2 wolfbeauty witch seer guard hunter\n"
	b, err := Parse("t.board", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	spec := func(n int) string {
		var out []string
		for _, s := range b.StepsFor(n) {
			out = append(out, formatStep(s))
		}
		return strings.Join(out, " ")
	}
	want1 := "wildchild/30/hurry=20 halfblood/30/hurry=20 guard/30 wolves/90/hurry=60 wolfbeauty/30 hiddenwolf/5 witch/30/hurry=20 seer/30 bear/5 hunter/10 rogue/5"
	want2 := "guard/30 wolves/60/hurry=30 wolfbeauty/30 witch/30/hurry=20 seer/30 bear/5 hunter/10"
	if got := spec(1); got != want1 {
		t.Errorf("night 1:\n got %s\nwant %s", got, want1)
	}
	for _, n := range []int{2, 3, 9} {
		if got := spec(n); got != want2 {
			t.Errorf("night %d:\n got %s\nwant %s", n, got, want2)
		}
	}
	// the board written back has explicit night lines and reads the same
	b2, err := Parse("t2.board", []byte(Format(b)))
	if err != nil {
		t.Fatal(err)
	}
	if len(b2.Nights) != 2 || len(b2.StepsFor(1)) != len(b.StepsFor(1)) {
		t.Errorf("round trip: %+v", b2.Nights)
	}
	// a composition without these roles gets only its own steps
	b3, err := Parse("t3.board", []byte("id plain\nname 預女\nplayers 9\nroles werewolf*3 seer witch villager*4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(b3.StepsFor(1)); got != 3 {
		t.Errorf("plain board has %d steps on night 1", got)
	}
	if b3.StepsFor(2)[0].Kind != engine.StepWolves {
		t.Errorf("plain board night 2 starts with %s", b3.StepsFor(2)[0].Kind)
	}
}
