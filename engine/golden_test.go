package engine_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"wolftable/bots"
	"wolftable/engine"
)

// The golden record: the whole input and effect stream of random legal
// games on every board, as one hash a game. An engine change that is meant
// to change no ruling (a restructure) must leave every hash as it is; the
// file is never regenerated in the same commit as an engine change.
//
//	go test ./engine -run TestGoldenGames -update-golden   # rewrite it

var updateGolden = flag.Bool("update-golden", false, "rewrite engine/testdata/golden-games.txt")

const goldenFile = "testdata/golden-games.txt"

// goldenGames: per board, seeds 1..200 at the tournament pace and 201..240
// at night.pace = plausible.
func goldenGames() []goldenGame {
	var out []goldenGame
	for _, board := range seed000Boards {
		for seed := uint64(1); seed <= 240; seed++ {
			pace := engine.PaceFixed
			if seed > 200 {
				pace = engine.PacePlausible
			}
			out = append(out, goldenGame{board, seed, pace})
		}
	}
	return out
}

type goldenGame struct {
	board string
	seed  uint64
	pace  engine.NightPace
}

func (g goldenGame) key() string { return fmt.Sprintf("%s %d %s", g.board, g.seed, g.pace) }

// hash plays the game with random players and hashes every input they
// tried (accepted or refused) and every effect, in order.
func (gg goldenGame) hash(t testing.TB) (string, int) {
	g := newGamePaced(t, gg.board, gg.seed, gg.pace)
	d := bots.New(g, gg.seed)
	h := sha256.New()
	enc := json.NewEncoder(h)
	n := 0
	d.BeforeApply = func(in engine.Input) {
		fmt.Fprint(h, "in ")
		enc.Encode(in)
	}
	d.OnApply = func(in engine.Input, effs []engine.Effect) {
		fmt.Fprint(h, "ok ")
		enc.Encode(effs)
		n += len(effs)
	}
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	if err := d.Play(); err != nil {
		t.Fatalf("%s: %v", gg.key(), err)
	}
	over, w := g.Over()
	fmt.Fprintf(h, "over %v %s\n", over, w)
	return hex.EncodeToString(h.Sum(nil))[:32], n
}

func TestGoldenGames(t *testing.T) {
	games := goldenGames()
	got := map[string]string{}
	effects := 0
	for _, gg := range games {
		sum, n := gg.hash(t)
		got[gg.key()] = sum
		effects += n
	}
	if *updateGolden {
		var sb strings.Builder
		sb.WriteString("# board seed pace hash — see engine/golden_test.go; never regenerated with an engine change\n")
		for _, gg := range games {
			fmt.Fprintf(&sb, "%s %s\n", gg.key(), got[gg.key()])
		}
		if err := os.WriteFile(goldenFile, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d games (%d effects)", len(games), effects)
		return
	}
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		want[line[:i]] = line[i+1:]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(games) {
		t.Fatalf("the golden record has %d games, the test plays %d", len(want), len(games))
	}
	bad := 0
	for _, gg := range games {
		if w, ok := want[gg.key()]; !ok || w != got[gg.key()] {
			bad++
			if bad <= 10 {
				t.Errorf("%s: the game's inputs and effects changed (hash %s, golden %s)", gg.key(), got[gg.key()], w)
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d golden games changed", bad, len(games))
	}
	if effects < 100000 {
		t.Fatalf("only %d effects in %d games: the record would prove little", effects, len(games))
	}
}
