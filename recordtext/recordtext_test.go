package recordtext_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"wolftable/engine"
	"wolftable/recordtext"
	"wolftable/script"
)

// samples builds records of every record type: for each type the engine
// defines, records with the fields its comment in engine/io.go names; an
// action of every action kind, a death of every cause, a vote and a speech
// of every kind, a result of every winner.
func samples(t *testing.T) map[engine.RecordType][]engine.Record {
	ballots := &engine.Ballots{Votes: []engine.Vote{{Voter: 1, Target: 3}, {Voter: 2, Target: 0}, {Voter: 4, Target: 9}, {Voter: 5, Target: 3}},
		Tally: []engine.Tally{{Seat: 3, Halves: 5}}}
	var actions, deaths, votes, speeches, results []engine.Record
	for _, k := range engine.ActionKinds() {
		actions = append(actions,
			engine.Record{Type: engine.RecAction, Kind: string(k), By: 5, Target: 7, When: "night-2", Role: engine.Seer, Result: "村民"},
			engine.Record{Type: engine.RecAction, Kind: string(k), By: 0, Target: 0, When: "night-2", Role: engine.Idiot, Result: "愚者"},
			engine.Record{Type: engine.RecAction, Kind: string(k), By: 5, Target: 0, When: "night-1", Role: engine.Werewolf, Result: "村民"})
	}
	for gift := range script.Gifts {
		actions = append(actions, engine.Record{Type: engine.RecAction, Kind: string(engine.ActionTrade), By: 10, Target: 6, Result: gift, When: "night-1"})
	}
	for _, cause := range engine.Causes() {
		deaths = append(deaths,
			engine.Record{Type: engine.RecDeath, Seat: 4, Cause: cause, When: "night-3"},
			engine.Record{Type: engine.RecDeath, Seat: 4, Cause: cause, When: "day-3"})
	}
	for _, k := range engine.VoteKinds() {
		votes = append(votes, engine.Record{Type: engine.RecVote, Kind: string(k), Day: 2, Ballots: ballots},
			engine.Record{Type: engine.RecVote, Kind: string(k), Day: 2, Ballots: &engine.Ballots{}})
	}
	for _, k := range engine.SpeechKinds() {
		speeches = append(speeches, engine.Record{Type: engine.RecSpeech, Kind: string(k), Day: 1, Seat: 8})
	}
	for _, w := range engine.Winners() {
		results = append(results, engine.Record{Type: engine.RecResult, Result: string(w)})
	}
	known := map[engine.RecordType][]engine.Record{
		engine.RecPhase:   {{Type: engine.RecPhase, When: "night-1"}, {Type: engine.RecPhase, When: "day-12"}},
		engine.RecDeath:   deaths,
		engine.RecVote:    votes,
		engine.RecSheriff: {{Type: engine.RecSheriff, Seat: 6}, {Type: engine.RecSheriff, Seat: 0}},
		engine.RecCheck: {{Type: engine.RecCheck, By: 5, Target: 2, Result: "狼人"}, {Type: engine.RecCheck, By: 5, Target: 2, Result: "好人"},
			{Type: engine.RecCheck, By: 5, Target: 2, Result: engine.Seer.Name()}},
		engine.RecExile:   {{Type: engine.RecExile, Day: 1, Seat: 9}, {Type: engine.RecExile, Day: 1, Seat: 0}},
		engine.RecReveal:  {{Type: engine.RecReveal, Seat: 6, Role: engine.Idiot}},
		engine.RecSpeech:  speeches,
		engine.RecResult:  results,
		engine.RecPenalty: {{Type: engine.RecPenalty, Seat: 3, Points: 1}, {Type: engine.RecPenalty, Seat: 3, Points: 0.5}},
		engine.RecAction:  actions,
		engine.RecRole:    {{Type: engine.RecRole, Seat: 1, Role: engine.Werewolf}},
		engine.RecSilence: {{Type: engine.RecSilence, Day: 2, Seat: 6}},
		engine.RecRoar:    {{Type: engine.RecRoar, Day: 2, Result: "是"}, {Type: engine.RecRoar, Day: 2, Result: "否"}},
		engine.RecFollow:  {{Type: engine.RecFollow, Seat: 4, Target: 7, Kind: string(engine.WinWolves), Result: "勝"}},
		engine.RecLovers:  {{Type: engine.RecLovers, Seat: 2, Target: 9, By: 5}, {Type: engine.RecLovers, Seat: 2, Target: 9}},
	}
	out := map[engine.RecordType][]engine.Record{}
	for _, ty := range engine.RecordTypes() {
		rs, ok := known[ty]
		if !ok {
			t.Errorf("engine.RecordType %q: the test has no record of it (add one, and its line in recordtext.go)", ty)
			continue
		}
		out[ty] = rs
	}
	return out
}

// debug is a line that is not the judge's words: English or a field's
// name, key=value, a fmt error, the renderer's fallback. "PK" is the
// judge's own word (警長PK投票), and only it is allowed.
var debug = regexp.MustCompile(`[A-Za-z]|=|%!|（紀錄：`)

func notWords(s string) bool { return debug.MatchString(strings.ReplaceAll(s, "PK", "")) }

// TestEveryRecordHasALine: every record the engine can make renders as a
// Chinese line in the 復盤 and the console's words, with and without the
// deal, never as its fields.
func TestEveryRecordHasALine(t *testing.T) {
	deal := []engine.Role{engine.Werewolf, engine.Villager, engine.Witch, engine.Werewolf, engine.Seer, engine.Villager,
		engine.Guard, engine.Werewolf, engine.SilenceElder, engine.Merchant, engine.Werewolf, engine.Villager}
	tables := map[string]*recordtext.Table{"no deal": {}, "the deal": {Deal: deal}}
	s := samples(t)
	types := make([]string, 0, len(s))
	for ty := range s {
		types = append(types, string(ty))
	}
	sort.Strings(types)
	n := 0
	for _, ty := range types {
		for _, r := range s[engine.RecordType(ty)] {
			for name, tb := range tables {
				for _, at := range []recordtext.At{{}, {Sheriff: 5, Source: "seat-5"}, {Source: "timer"}} {
					l := tb.Render(&r, at)
					n++
					text := l.String()
					if l.Text == "" || notWords(text) {
						t.Errorf("%s, %+v (%+v): %q is not the judge's words", name, r, at, text)
					}
				}
			}
		}
	}
	t.Logf("%d lines of %d record types", n, len(types))
}

// TestLines pins a few lines word for word.
func TestLines(t *testing.T) {
	deal := []engine.Role{engine.Werewolf, engine.Villager, engine.Witch, engine.Hunter, engine.Seer}
	tb := &recordtext.Table{Deal: deal}
	for _, tt := range []struct {
		r    engine.Record
		at   recordtext.At
		want string
	}{
		{engine.Record{Type: engine.RecSilence, Day: 2, Seat: 2}, recordtext.At{}, "禁言：2號（第2天）"},
		{engine.Record{Type: engine.RecAction, Kind: string(engine.ActionKill), Target: 0}, recordtext.At{}, "狼人 空刀"},
		{engine.Record{Type: engine.RecAction, Kind: string(engine.ActionLife), Target: 2}, recordtext.At{}, "狼刀命中，失去一條命：村民 2號"},
		{engine.Record{Type: engine.RecAction, Kind: string(engine.ActionTrade), By: 1, Target: 2, Result: "glasses"}, recordtext.At{}, "狼人 1號 交易技能給 2號（預言家的眼鏡）"},
		{engine.Record{Type: engine.RecCheck, By: 5, Target: 1, Result: "狼人"}, recordtext.At{}, "預言家 5號 查驗 1號：狼人"},
		{engine.Record{Type: engine.RecDeath, Seat: 1, Cause: engine.CauseShot, When: "day-2"}, recordtext.At{Source: "seat-4"}, "1號 出局：槍殺（第2天，獵人 4號）"},
		// the source of a bridge's key event carries its identity (daemon.KeySource)
		{engine.Record{Type: engine.RecDeath, Seat: 1, Cause: engine.CauseShot, When: "day-2"}, recordtext.At{Source: "seat-4 key=4.OK.down.3.81234567"}, "1號 出局：槍殺（第2天，獵人 4號）"},
		{engine.Record{Type: engine.RecVote, Kind: string(engine.VoteExile), Day: 2, Ballots: &engine.Ballots{
			Votes: []engine.Vote{{Voter: 1, Target: 3}, {Voter: 5, Target: 3}, {Voter: 2, Target: 0}}, Tally: []engine.Tally{{Seat: 3, Halves: 5}}}},
			recordtext.At{Sheriff: 5}, "放逐投票（第2天）票型 ｜ 計票：3號 2.5票；3號 ← 1、5(警)　2.5票；棄票：2"},
	} {
		if got := tb.Render(&tt.r, tt.at).String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.r, got, tt.want)
		}
	}
}
