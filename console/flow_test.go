package console

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"wolftable/engine"
	"wolftable/hw"
)

// scriptDeal is the hand-entered deal of the scripted 預女獵愚 game:
// wolves 1-4, seer 5, witch 6, hunter 7, idiot 8, villagers 9-12.
var scriptDeal = []string{"werewolf", "狼人", "werewolf", "werewolf", "預言家", "witch", "hunter", "白痴",
	"villager", "villager", "村民", "villager"}

// press types a number and OK on a seat's keys, as a player does.
func press(t testing.TB, r *rig, seat, target int) {
	t.Helper()
	keys := []hw.Key{}
	if target >= 10 {
		keys = append(keys, hw.Key(target/10))
	}
	keys = append(keys, hw.Key(target%10), hw.KeyOK)
	if err := r.table().Press(seat, keys...); err != nil {
		t.Fatal(err)
	}
}

func hasInput(st JudgeState, seat, target int) bool {
	for _, in := range st.Inputs {
		if in.Seat == seat && in.Action == "target" && in.Target == target {
			return true
		}
	}
	return false
}

func cueOf(st JudgeState, line string) *CueView {
	for i := range st.Cues {
		if st.Cues[i].Line == line {
			return &st.Cues[i]
		}
	}
	return nil
}

func tallyOf(v *VoteView, seat int) float64 {
	if v == nil {
		return 0
	}
	for _, t := range v.Tally {
		if t.Seat == seat {
			return t.Votes
		}
	}
	return 0
}

// TestJudgeFlow is the scripted game of the acceptance, over HTTP.
func TestJudgeFlow(t *testing.T) {
	r := newRig(t, Options{})
	ts := r.serve()
	judge := newClient(t, ts.URL)
	judge.login(rigPIN)

	// boards and the start form's data
	code, b := judge.do("GET", "/api/judge/boards", nil, nil)
	if code != 200 || !strings.Contains(string(b), `"預女獵愚"`) {
		t.Fatalf("boards: %d %.200s", code, b)
	}
	// a bad deal is refused before any game starts
	if code, b := judge.do("POST", "/api/judge/start", map[string]any{"board": "預女獵愚", "deal": scriptDeal[:11]}, nil); code != 400 {
		t.Fatalf("short deal: %d %s", code, b)
	}
	judge.power("start", map[string]any{"board": "預女獵愚", "deal": scriptDeal, "seed": "7",
		"options": map[string]string{"witch.self_save": "first_night"}})
	st := r.wait("the game to start", func(st JudgeState) bool { return st.Game != nil && st.Step != nil })
	if st.Game.Seed != "7" || !st.Game.Manual || st.Seats[4].RoleName != "預言家" || st.Game.Options["witch.self_save"] != "first_night" {
		t.Fatalf("game %+v seat 5 %+v", st.Game, st.Seats[4])
	}
	// a second start while the game runs needs "replace"
	if code, _ := judge.do("POST", "/api/judge/start", map[string]any{"board": "預女獵愚"}, nil); code != http.StatusConflict {
		t.Fatalf("start over a running game: %d, want 409", code)
	}

	// night 1, the wolves: every wolf points at 9 on its keys; 4 changes its
	// mind to 10 and the judge undoes it
	st = r.until("the wolves' step", atNight("wolves"))
	if st.Wake == nil || st.Wake.RoleName != "狼人" || len(st.Wake.Seats) != 4 {
		t.Fatalf("wake %+v", st.Wake)
	}
	for s := 1; s <= 4; s++ {
		press(t, r, s, 9)
	}
	r.wait("four wolves' inputs", func(st JudgeState) bool { return len(st.Inputs) == 4 })
	press(t, r, 4, 10)
	r.wait("wolf 4 changes", func(st JudgeState) bool { return hasInput(st, 4, 10) })
	judge.power("undo", nil)
	st = r.srv.judgeState()
	if len(st.Inputs) != 4 || hasInput(st, 4, 10) {
		t.Fatalf("after undo: %+v", st.Inputs)
	}

	// the witch waves (the judge enters it for her: a broken key)
	st = r.until("the witch's step", atNight("witch"))
	if len(st.Cues) == 0 || st.Cues[len(st.Cues)-1].Gesture != "9" {
		t.Fatalf("witch's cue: %+v", st.Cues)
	}
	judge.power("seat", map[string]any{"seat": 6, "action": "wave"})

	// the seer checks 1 on the keys: the judge sees 狼爪 in large type
	r.until("the seer's step", atNight("seer"))
	press(t, r, 5, 1)
	r.wait("the seer's check", func(st JudgeState) bool { return hasInput(st, 5, 1) })
	st = r.until("the seer's cue", func(st JudgeState) bool { return cueOf(st, "cue.seer.wolf") != nil })
	cue := *cueOf(st, "cue.seer.wolf")
	if cue.Text != "預言家5號查驗1號：狼人（比狼爪）" || cue.Gesture != "狼爪" || cue.Seat != 5 {
		t.Fatalf("seer's cue %+v", cue)
	}
	_, pub := judge.do("GET", "/api/public/state", nil, nil)
	if strings.Contains(string(pub), "查驗1號") || strings.Contains(string(pub), "狼爪") {
		t.Fatalf("the public view shows the cue: %s", pub)
	}
	// the hunter's step shows whether he can shoot
	r.until("the hunter's cue", func(st JudgeState) bool { return cueOf(st, "cue.hunter.can") != nil })

	// DQ seat 12 at night: out at once, publicly too
	judge.power("dq", map[string]int{"seat": 12})
	st = r.srv.judgeState()
	if !st.Seats[11].Out || st.Seats[11].Light != "off" {
		t.Fatalf("seat 12 after DQ: %+v", st.Seats[11])
	}
	// a refused power says why, in the judge's words
	code, b = judge.do("POST", "/api/judge/dq", map[string]int{"seat": 12}, nil)
	if code != http.StatusUnprocessableEntity || !strings.Contains(string(b), "12號已出局") {
		t.Fatalf("DQ twice: %d %s", code, b)
	}
	var ps PublicState
	_, pub = judge.do("GET", "/api/public/state", nil, nil)
	if err := json.Unmarshal(pub, &ps); err != nil {
		t.Fatal(err)
	}
	if len(ps.Deaths) != 1 || ps.Deaths[0].Seat != 12 || ps.Deaths[0].Cause != "dq" || !ps.Seats[11].Out {
		t.Fatalf("public deaths after DQ: %+v", ps.Deaths)
	}

	// pause and resume; repeat the line
	judge.power("pause", nil)
	if !r.srv.judgeState().Paused {
		t.Fatal("not paused")
	}
	if code, _ := judge.do("POST", "/api/judge/pedal", map[string]string{"press": "short"}, nil); code != http.StatusConflict {
		t.Fatalf("pedal while paused: %d, want 409", code)
	}
	judge.power("resume", nil)
	judge.power("repeat", nil)
	judge.power("penalty", map[string]any{"seat": 3, "points": 0.5})

	// a second judge device follows the live stream
	second := newClient(t, ts.URL)
	second.hc.Jar = judge.hc.Jar
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames, err := second.sse(ctx, "/api/judge/events")
	if err != nil {
		t.Fatal(err)
	}
	pubFrames, err := newClient(t, ts.URL).sse(ctx, "/api/public/events")
	if err != nil {
		t.Fatal(err)
	}

	// day 1: to the exile vote
	st = r.until("the exile vote", func(st JudgeState) bool {
		return st.Step != nil && st.Step.Step == "vote" && st.Step.Kind == "exile"
	})
	if st.LiveVote == nil || len(st.LiveVote.Ballots) != len(st.Step.Actors) {
		t.Fatalf("live vote %+v", st.LiveVote)
	}
	for _, s := range []int{1, 2, 3} {
		press(t, r, s, 5)
	}
	r.wait("three votes", func(st JudgeState) bool { return tallyOf(st.LiveVote, 5) == 3 })
	seen := waitFrame(t, frames, func(st JudgeState) bool { return tallyOf(st.LiveVote, 5) == 3 })
	if seen.Version == 0 {
		t.Fatal("no version")
	}
	press(t, r, 4, 5)
	waitFrame(t, frames, func(st JudgeState) bool { return tallyOf(st.LiveVote, 5) == 4 })
	judge.power("undo", nil)
	waitFrame(t, frames, func(st JudgeState) bool { return tallyOf(st.LiveVote, 5) == 3 })
	// the public never sees ballots while the vote runs
	_, pub = judge.do("GET", "/api/public/state", nil, nil)
	if strings.Contains(string(pub), `"live_vote"`) || strings.Contains(string(pub), `"exile"`) {
		t.Fatalf("the public sees the vote running: %s", pub)
	}
	// the vote is counted: the public sees the 票型
	judge.power("pedal", map[string]string{"press": "short"})
	r.settle()
	waitPublic(t, pubFrames, func(ps PublicState) bool {
		return len(ps.Votes) > 0 && ps.Votes[len(ps.Votes)-1].Kind == "exile" && len(ps.Votes[len(ps.Votes)-1].Tally) > 0
	})

	// export: the record has the check, the JSON and text forms agree
	code, b = judge.do("GET", "/api/judge/record", nil, nil)
	var x RecordExport
	if code != 200 || json.Unmarshal(b, &x) != nil || x.Game == nil || len(x.Records) == 0 {
		t.Fatalf("record: %d %.300s", code, b)
	}
	found := false
	for _, rec := range x.Records {
		if rec.Record.Type == engine.RecCheck && rec.Record.By == 5 && rec.Record.Target == 1 {
			found = true
		}
	}
	if !found {
		t.Fatal("the record has no check")
	}
	code, b = judge.do("GET", "/api/judge/record?format=text", nil, nil)
	if code != 200 || !strings.Contains(string(b), "〔手勢〕預言家5號查驗1號") || !strings.Contains(string(b), "5:預言家") {
		t.Fatalf("text record: %d %.500s", code, b)
	}

	// void ends the game; a new game replaces it
	judge.power("void", nil)
	st = r.wait("the void", func(st JudgeState) bool { return st.Over })
	if st.Result != "流局" {
		t.Fatalf("result %q", st.Result)
	}
	judge.power("start", map[string]any{"board": "seer-witch-hunter-idiot", "deal": "random"})
	st = r.wait("a new game", func(st JudgeState) bool { return st.Game != nil && !st.Over && st.Step != nil })
	if st.Game.Manual || len(st.Deaths) != 0 || len(st.Records) == 0 {
		t.Fatalf("new game %+v deaths %+v", st.Game, st.Deaths)
	}
}

func waitFrame(t *testing.T, frames <-chan []byte, ok func(JudgeState) bool) JudgeState {
	t.Helper()
	return waitStream(t, frames, "the judge's stream", ok)
}

func waitPublic(t *testing.T, frames <-chan []byte, ok func(PublicState) bool) PublicState {
	t.Helper()
	return waitStream(t, frames, "the public stream", ok)
}

// waitStream reads a stream's JSON frames until one satisfies ok (5 s).
func waitStream[T any](t *testing.T, frames <-chan []byte, name string, ok func(T) bool) T {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case f, open := <-frames:
			if !open {
				t.Fatal(name + " ended")
			}
			var st T
			if err := json.Unmarshal(f, &st); err != nil {
				t.Fatal(err)
			}
			if ok(st) {
				return st
			}
		case <-timeout:
			t.Fatal(name + " never showed it")
		}
	}
}

// TestStreamEndsWithSession: the judge's live stream says "logout" when
// the session ends.
func TestStreamEndsWithSession(t *testing.T) {
	r := newRig(t, Options{Heartbeat: 20 * time.Millisecond})
	ts := r.serve()
	c := newClient(t, ts.URL)
	c.login(rigPIN)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames, err := c.sse(ctx, "/api/judge/events")
	if err != nil {
		t.Fatal(err)
	}
	<-frames // the state
	c.power("logout", nil)
	timeout := time.After(5 * time.Second)
	for {
		select {
		case _, open := <-frames:
			if !open {
				return // the stream closed after "logout"
			}
		case <-timeout:
			t.Fatal("the stream outlived the session")
		}
	}
}

// TestStreamsDrop: dropping the live streams ends them (the pages then
// reconnect: TestBrowserJudgeConsole); a new stream starts with the state.
func TestStreamsDrop(t *testing.T) {
	r := newRig(t, Options{})
	ts := r.serve()
	c := newClient(t, ts.URL)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames, err := c.sse(ctx, "/api/public/events")
	if err != nil {
		t.Fatal(err)
	}
	<-frames
	r.srv.dropStreams()
	timeout := time.After(5 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-frames:
		case <-timeout:
			t.Fatal("the stream was not dropped")
		}
	}
	again, err := c.sse(ctx, "/api/public/events")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-again:
	case <-time.After(5 * time.Second):
		t.Fatal("no state on the new stream")
	}
}
