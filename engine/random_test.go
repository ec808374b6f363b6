package engine_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"testing"

	"wolftable/boards"
	"wolftable/bots"
	"wolftable/engine"
)

// seed000Boards are seed 000's twelve boards: the golden record's boards
// (golden_test.go), fixed for good.
var seed000Boards = []string{"seer-witch-hunter-idiot", "wolfking-guard", "whitewolfking-guard", "whitewolfking-knight", "wolfbeauty-knight",
	"wolfking-dreamweaver", "evilknight", "bloodmoon-demonhunter", "nightmare", "eternal-wheel", "pure-white", "gargoyle-gravekeeper"}

// playable are the boards the random-game tests and fuzzers play: seed 000's
// and every board added since (each new board appends its id here).
var playable = append(append([]string(nil), seed000Boards...),
	// rules-more.md E1/E2: boards of known roles
	"swhi-003", "guard-whitewolfking-003", "whitewolf-003", "wolfbeauty-003", "knight-003",
	"swh-9-001", "swhg-12-001", "swhi-12-001",
	"silence-elder-003", "butterfly-003", // 禁言長老, 潛行者, 花蝴蝶
	"cupid-7-001", "cupid-8-001", "cupid-9-001", "cupid-10-001", "cupid-11-001", // 丘比特 (屠城)
)

// the boards of 惡魔, 狐狸 and 賭徒, 黑市商人 and 長老 (rules-more.md E1, E2)
func init() {
	playable = append(playable, "demon-003", "fox-003", "gambler-003",
		"black-market-003", "swhe-12-001")
	// 盜賊 with 丘比特 and 魅魔: the 14-card boards (rules-more.md E1, E2)
	playable = append(playable, "thief-cupid-a-003", "thief-cupid-b-003", "thief-succubus-003", "thief-cupid-001")
}

func newGame(t testing.TB, board string, seed uint64) *engine.Game {
	t.Helper()
	return newGamePaced(t, board, seed, engine.PaceFixed)
}

// newGamePaced deals a game whose night steps run at the given pace.
func newGamePaced(t testing.TB, board string, seed uint64, pace engine.NightPace) *engine.Game {
	t.Helper()
	b, err := boards.Get(board)
	if err != nil {
		t.Fatal(err)
	}
	b.Options.NightPace = pace
	deal, bottom := engine.DealCards(b, seed) // bottom: a thief board's two cards (none elsewhere)
	g, err := engine.New(engine.Config{Board: b, Deal: deal, Bottom: bottom, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playJSON plays a random legal game and returns its effects as JSON lines.
func playJSON(t testing.TB, board string, seed uint64) []byte {
	g := newGame(t, board, seed)
	d := bots.New(g, seed)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	d.OnApply = func(in engine.Input, effs []engine.Effect) {
		enc.Encode(in)
		for _, e := range effs {
			enc.Encode(e)
		}
	}
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	if err := d.Play(); err != nil {
		t.Fatalf("%s seed %d: %v", board, seed, err)
	}
	return buf.Bytes()
}

// TestDeterminism: the same board, seed and inputs give the same effects,
// byte for byte (design.md).
func TestDeterminism(t *testing.T) {
	n := 25
	if testing.Short() {
		n = 10
	}
	for _, board := range playable {
		for seed := uint64(1); seed <= uint64(n); seed++ {
			a := playJSON(t, board, seed)
			b := playJSON(t, board, seed)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s seed %d: two runs differ", board, seed)
			}
		}
	}
}

// TestRandomGamesEnd: random legal games end with exactly one result.
func TestRandomGamesEnd(t *testing.T) {
	results := map[string]int{}
	for _, board := range playable {
		perBoard := map[string]int{}
		defer func() {
			if perBoard["好人"] == 0 || perBoard["狼人"] == 0 {
				t.Errorf("%s: random games should reach both results: %v", board, perBoard)
			}
		}()
		for seed := uint64(100); seed < 250; seed++ {
			pace := engine.PaceFixed
			if seed%2 == 1 {
				pace = engine.PacePlausible // half the games at the faster pace
			}
			g := newGamePaced(t, board, seed, pace)
			d := bots.New(g, seed)
			inv := newInvariants(t, g)
			d.BeforeApply = func(engine.Input) { inv.snapshot() }
			d.OnApply = inv.check
			if err := d.Start(); err != nil {
				t.Fatal(err)
			}
			if err := d.Play(); err != nil {
				t.Fatalf("%s seed %d: %v", board, seed, err)
			}
			over, w := g.Over()
			if !over || inv.results != 1 {
				t.Fatalf("%s seed %d: over=%v results=%d", board, seed, over, inv.results)
			}
			results[string(w)]++
			perBoard[string(w)]++
			deal, _ := engine.DealCards(g.Board(), seed)
			checkThiefPick(t, g, deal, fmt.Sprintf("%s seed %d", board, seed))
		}
	}
	if results["好人"] == 0 || results["狼人"] == 0 {
		t.Fatalf("random games should reach both results: %v", results)
	}
	t.Logf("results: %v", results)
}

// invariants checks every accepted input and its effects.
type invariants struct {
	t       testing.TB
	g       *engine.Game
	results int
	before  map[int]bool // seats out before the input
	prompt  engine.Prompt
	sheriff int
	lovers  [][2]int // the linked pairs (丘比特, 魅魔)
}

func newInvariants(t testing.TB, g *engine.Game) *invariants {
	return &invariants{t: t, g: g}
}

// snapshot is taken before each input.
func (v *invariants) snapshot() {
	v.before = map[int]bool{}
	for s := 1; s <= v.g.Players(); s++ {
		v.before[s] = v.g.Seat(s).Out
	}
	v.prompt = v.g.Awaiting()
	v.sheriff = v.g.Sheriff()
}

func (v *invariants) check(in engine.Input, effs []engine.Effect) {
	t := v.t
	if v.before != nil && in.Kind == engine.InSeat && v.before[in.Seat] {
		// a seat that is out acts only in its own death step, or as an
		// exploded wolf pointing the next kill
		p := v.prompt
		own := (p.Step == "skill" || p.Step == "badge" || p.Step == "take") && p.Seat == in.Seat
		pointing := p.Step == "night" && p.StepKind == "wolves"
		if !own && !pointing {
			t.Fatalf("seat %d is out but acted (%v) in step %s", in.Seat, in.Action, p.Step)
		}
	}
	for _, e := range effs {
		if e.Kind != engine.EffRecord {
			continue
		}
		r := e.Record
		switch r.Type {
		case engine.RecLovers:
			v.lovers = append(v.lovers, [2]int{r.Seat, r.Target})
		case engine.RecResult:
			v.results++
			if v.results > 1 {
				t.Fatalf("second result %q", r.Result)
			}
			if r.Result == string(engine.WinThird) {
				v.thirdWins()
			}
		case engine.RecVote:
			seen := map[int]bool{}
			want := map[int]int{}
			for _, b := range r.Ballots.Votes {
				if seen[b.Voter] {
					t.Fatalf("seat %d counted twice in %s vote", b.Voter, r.Kind)
				}
				seen[b.Voter] = true
				if b.Target > 0 {
					w := 2
					if b.Voter == v.sheriff {
						w = sheriffHalves(v.g.Board().Options, r.Kind)
					}
					want[b.Target] += w
				}
			}
			got := map[int]int{}
			for _, x := range r.Ballots.Tally {
				got[x.Seat] = x.Halves
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s vote tally %v, want %v (votes %v, sheriff %d)", r.Kind, got, want, r.Ballots.Votes, v.sheriff)
			}
		}
	}
	v.loversTogether()
}

// loversTogether: a lover out means the partner out (殉情, day or night).
func (v *invariants) loversTogether() {
	gone := func(s int) bool { x := v.g.Seat(s); return x.Out || x.Dying }
	for _, p := range v.lovers {
		if gone(p[0]) != gone(p[1]) {
			v.t.Fatalf("lovers %d and %d: one is out, the other is not", p[0], p[1])
		}
	}
}

// thirdWins: a third-camp win only when every living player is in one camp.
func (v *invariants) thirdWins() {
	for _, camp := range v.g.ThirdCamps() {
		all := true
		for s := 1; s <= v.g.Players(); s++ {
			x := v.g.Seat(s)
			if !x.Out && !x.Dying && !contains(camp, s) {
				all = false
			}
		}
		if all {
			return
		}
	}
	v.t.Fatalf("第三方 won with living players outside every third camp %v", v.g.ThirdCamps())
}

func contains(a []int, x int) bool {
	for _, y := range a {
		if x == y {
			return true
		}
	}
	return false
}

// FuzzEngineInputs feeds random input streams — legal choices, raw seat
// input, judge commands, pedal presses, stray timers — and checks: no panic;
// a refused input changes nothing; dead seats never act; every vote counted
// once with the right weight; exactly one result per finished game.
func FuzzEngineInputs(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 4, 4, 4, 1, 2, 3})
	f.Add([]byte{3, 9, 9, 9, 9, 9, 9, 9, 9, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 7, 7})
	f.Add(bytes.Repeat([]byte{4, 0, 1}, 200))
	f.Add(bytes.Repeat([]byte{5, 77, 3, 9, 4, 6, 3}, 100))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 9 {
			return
		}
		board := playable[int(data[0])%len(playable)]
		seed := binary.LittleEndian.Uint64(data[1:9])
		g := newGame(t, board, seed)
		d := bots.New(g, seed)
		inv := newInvariants(t, g)
		d.BeforeApply = func(engine.Input) { inv.snapshot() }
		d.OnApply = inv.check
		if err := d.Start(); err != nil {
			t.Fatal(err)
		}
		data = data[9:]
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b)
		}
		for len(data) > 0 {
			if over, _ := g.Over(); over {
				break
			}
			var in engine.Input
			switch op := next() % 8; op {
			case 0, 1, 2:
				ch := d.Choices(g.Awaiting())
				if len(ch) == 0 {
					continue
				}
				in = ch[next()%len(ch)]
			case 3, 4:
				if err := d.Advance(); err != nil && !engine.IsCode(err, engine.ErrPaused) && err != bots.ErrStuck {
					t.Fatalf("advance: %v", err)
				}
				continue
			case 5:
				in = engine.Input{Kind: engine.InSeat, Seat: next() % 15, Action: engine.Action(next() % 7), Target: next()%15 - 1}
			case 6:
				in = engine.Judge(engine.JudgeCommand(next()%8), next()%14, float64(next()%8)/2)
				if in.Judge == engine.JudgeVoid && next()%4 != 0 {
					continue // keep most games going
				}
			case 7:
				in = engine.Pedal(engine.PedalPress(next() % 4))
			}
			before := g.Awaiting()
			if err := d.Apply(in); err != nil {
				if after := g.Awaiting(); fmt.Sprint(after) != fmt.Sprint(before) {
					t.Fatalf("refused input %+v changed the state: %v", in, err)
				}
			}
		}
		if g.Paused() {
			if err := d.Apply(engine.Judge(engine.JudgeResume, 0, 0)); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Play(); err != nil {
			t.Fatalf("finishing: %v", err)
		}
		if over, _ := g.Over(); !over || inv.results != 1 {
			t.Fatalf("over=%v results=%d", over, inv.results)
		}
	})
}

// BenchmarkRandomGame plays a full random legal 12-player game of 預女獵愚
// per iteration.
func BenchmarkRandomGame(b *testing.B) {
	bd, err := boards.Get("seer-witch-hunter-idiot")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		seed := uint64(i)
		g, err := engine.New(engine.Config{Board: bd, Deal: engine.Deal(bd, seed), Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		d := bots.New(g, seed)
		if err := d.Start(); err != nil {
			b.Fatal(err)
		}
		if err := d.Play(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
