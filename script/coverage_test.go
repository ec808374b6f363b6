package script_test

import (
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/engine"
	"wolftable/script"
)

// TestEngineLinesAreInTheCatalogue plays random games on every board and
// fails if the engine says or cues a line the catalogue cannot render.
func TestEngineLinesAreInTheCatalogue(t *testing.T) {
	cat := script.New()
	all, err := boards.All()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, b := range all {
		for seed := uint64(1); seed <= 40; seed++ {
			deal, bottom := engine.DealCards(b, seed)
			g, err := engine.New(engine.Config{Board: b, Deal: deal, Bottom: bottom, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			d := bots.New(g, seed)
			d.OnApply = func(in engine.Input, effs []engine.Effect) {
				for _, e := range effs {
					if e.Kind != engine.EffSay && e.Kind != engine.EffCue {
						continue
					}
					seen[e.Line] = true
					if _, err := cat.Render(e.Line, e.Args); err != nil {
						t.Fatalf("%s seed %d: %v", b.ID, seed, err)
					}
				}
			}
			if err := d.Start(); err != nil {
				t.Fatal(err)
			}
			if err := d.Play(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(seen) < 80 {
		t.Fatalf("only %d distinct lines were said; the games did not reach far", len(seen))
	}
	// every night step of every board has its open, close and hurry lines
	for _, b := range all {
		for _, p := range b.Nights {
			for _, st := range p.Steps {
				for _, suffix := range []string{".open", ".wake", ".close", ".hurry"} {
					id := "night." + string(st.Kind) + suffix
					if _, ok := cat.Lookup(id); !ok {
						t.Errorf("%s: no line %s", b.ID, id)
					}
				}
				// the board's own wording (line=FROM>TO) names lines of the catalogue
				for _, swap := range strings.Fields(st.Lines) {
					from, to, _ := strings.Cut(swap, ">")
					for _, id := range []string{from, to} {
						if _, ok := cat.Lookup(id); !ok && id != "-" {
							t.Errorf("%s: step %s: line=%s: no line %s", b.ID, st.Kind, swap, id)
						}
					}
				}
			}
		}
	}
}

func TestFill(t *testing.T) {
	got, err := script.Fill("昨夜{list}玩家死亡", []int{3, 9})
	if err != nil || got != "昨夜3號、9號玩家死亡" {
		t.Fatalf("%q %v", got, err)
	}
	got, err = script.Fill("上警玩家有：{players}", []int{3, 9})
	if err != nil || got != "上警玩家有：3號玩家、9號玩家" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := script.Fill("{s2}", []int{1}); err == nil {
		t.Fatal("a missing argument must be an error")
	}
	if _, err := script.Fill("{x}", nil); err == nil {
		t.Fatal("an unknown placeholder must be an error")
	}
}

// TestEveryRoleHasCardCues: any card may be checked exactly (狼巫, 純白之女,
// 石像鬼) or lie in a thief board's bottom (盜賊底牌): every role of the
// engine's table has both cues, with its name.
func TestEveryRoleHasCardCues(t *testing.T) {
	cat := script.New()
	for _, r := range engine.Roles() {
		for _, id := range []string{"cue.exact." + string(r.ID), "cue.thief.card." + string(r.ID)} {
			l, ok := cat.Lookup(id)
			if !ok {
				t.Errorf("%s (%s): no line %s", r.ID, r.Name, id)
				continue
			}
			if !l.Cue || !strings.HasSuffix(l.Text, "："+r.Name) {
				t.Errorf("%s: %q (cue %v), want a cue ending in %s", id, l.Text, l.Cue, r.Name)
			}
		}
	}
}
