// Package recordtext renders the engine's game record in the judge's
// words: the one place that turns each record type (engine.RecordType)
// into its Traditional Chinese line, for the game record (復盤,
// journal.Review) and the judge's console (its record list and export).
// The words it uses for causes, actions, votes, speeches, gifts and phases
// are the script's (script/words.go), beside the sentences here.
//
// Every record type has a line and no line falls back to the record's
// fields (recordtext_test.go builds a record of every type, action kind,
// cause, vote and speech kind the engine defines and fails on any line
// that is not Chinese).
package recordtext

import (
	"strconv"
	"strings"

	"wolftable/engine"
	"wolftable/script"
)

// Table is what the lines of one game may name beyond the records
// themselves: the judge's god view.
type Table struct {
	// Deal is the card dealt to each seat (seat 1 first): an action's
	// actor is "預言家 3號". Nil: seats by number only.
	Deal []engine.Role
	// Options names the cards as the game's board does (白痴 under
	// idiot.name baichi, rules-more.md I10); nil: the defaults.
	Options *engine.Options
}

// At is what a line may say about the moment of one record.
type At struct {
	// Sheriff is the sheriff when a vote was counted (0: none): his ballot
	// is marked (警).
	Sheriff int
	// Source is the source of the input that caused the record ("seat-7",
	// "timer"): a shot or a seat taken names the seat that fired.
	Source string
}

// Line is one rendered record: its text and, for a vote, the 票型 under it.
type Line struct {
	Text string
	Sub  []string
}

// String is the line on one line: the text, then the detail lines after
// "；" (the console's record list).
func (l Line) String() string {
	if len(l.Sub) == 0 {
		return l.Text
	}
	return l.Text + "；" + strings.Join(l.Sub, "；")
}

// Seat names a seat: "3號"; 0 is "無".
func Seat(s int) string {
	if s == 0 {
		return "無"
	}
	return script.Seat(s)
}

// Phase names a phase: night-2 → 第2夜, day-3 → 第3天.
func Phase(p string) string { return script.PhaseLabel(p) }

// Cause names a cause of death: wolf → 狼刀.
func Cause(c engine.Cause) string { return script.CauseLabel(c) }

// Result names a game's result: 好人 → 好人勝利, "" → （尚無結果）.
func Result(r string) string {
	switch r {
	case string(engine.WinGood):
		return "好人勝利"
	case string(engine.WinWolves):
		return "狼人勝利"
	case string(engine.WinVoid):
		return "流局"
	case string(engine.WinThird):
		return "第三方勝利"
	case "":
		return "（尚無結果）"
	}
	return r
}

// RunKey groups records that read as one line when they follow each
// other (sign-ups, withdrawals, the speeches of one round); "" for any
// other record.
func RunKey(r *engine.Record) string {
	switch {
	case r.Type == engine.RecAction && (engine.ActionKind(r.Kind) == engine.ActionSignup || engine.ActionKind(r.Kind) == engine.ActionWithdraw):
		return "action/" + r.Kind
	case r.Type == engine.RecSpeech:
		return "speech/" + r.Kind
	}
	return ""
}

// Run is the line of a run of records with one RunKey: "上警：3號、5號",
// "警上發言：3號 → 5號".
func Run(rs []engine.Record) string {
	if len(rs) == 0 {
		return ""
	}
	seats := make([]string, len(rs))
	for i := range rs {
		seats[i] = Seat(runSeat(&rs[i]))
	}
	sep := "、"
	if rs[0].Type == engine.RecSpeech {
		sep = " → "
	}
	return runTitle(&rs[0]) + "：" + strings.Join(seats, sep)
}

func runSeat(r *engine.Record) int {
	if r.Type == engine.RecAction {
		return r.By
	}
	return r.Seat
}

func runTitle(r *engine.Record) string {
	if r.Type == engine.RecAction {
		return script.ActionLabel(engine.ActionKind(r.Kind))
	}
	return script.SpeechLabel(engine.SpeechKind(r.Kind))
}

func (t *Table) cards() *engine.Options {
	if t.Options != nil {
		return t.Options
	}
	o := engine.DefaultOptions()
	return &o
}

// actor is "預言家 3號": the card dealt to the seat, and the seat.
func (t *Table) actor(seat int) string {
	if seat >= 1 && seat <= len(t.Deal) {
		return t.Deal[seat-1].Name() + " " + Seat(seat)
	}
	return Seat(seat)
}

// Render is a record's line.
func (t *Table) Render(r *engine.Record, at At) Line {
	switch r.Type {
	case engine.RecPhase:
		return Line{Text: "— " + Phase(r.When) + " —"}
	case engine.RecAction:
		return Line{Text: t.action(r)}
	case engine.RecCheck:
		return Line{Text: t.actor(r.By) + " 查驗 " + Seat(r.Target) + "：" + r.Result}
	case engine.RecVote:
		return vote(r, at.Sheriff)
	case engine.RecSheriff:
		if r.Seat == 0 {
			return Line{Text: "警長：無（警徽流失或撕毀）"}
		}
		return Line{Text: "警長：" + Seat(r.Seat)}
	case engine.RecDeath:
		when := Phase(r.When)
		if by, ok := sourceSeat(at.Source); ok && by != r.Seat && (r.Cause == engine.CauseShot || r.Cause == engine.CauseTaken) {
			when += "，" + t.actor(by) // the seat whose input fired the shot
		}
		return Line{Text: Seat(r.Seat) + " 出局：" + Cause(r.Cause) + "（" + when + "）"}
	case engine.RecExile:
		if r.Seat == 0 {
			return Line{Text: "放逐：無人"}
		}
		return Line{Text: "放逐：" + Seat(r.Seat)}
	case engine.RecReveal:
		return Line{Text: Seat(r.Seat) + " 翻牌：" + t.cards().CardName(r.Role)}
	case engine.RecPenalty:
		return Line{Text: "扣分：" + Seat(r.Seat) + " " + points(r.Points) + " 分"}
	case engine.RecResult:
		return Line{Text: "結果：" + Result(r.Result)}
	case engine.RecSpeech:
		return Line{Text: script.SpeechLabel(engine.SpeechKind(r.Kind)) + "：" + Seat(r.Seat)}
	case engine.RecRole:
		return Line{Text: Seat(r.Seat) + " 身份改為：" + t.cards().CardName(r.Role)}
	case engine.RecSilence:
		return Line{Text: "禁言：" + Seat(r.Seat) + "（第" + strconv.Itoa(r.Day) + "天）"}
	case engine.RecRoar:
		if r.Result == "是" {
			return Line{Text: "熊：昨晚熊咆哮了"}
		}
		return Line{Text: "熊：昨晚熊沒有咆哮"}
	case engine.RecFollow:
		return Line{Text: t.actor(r.Seat) + " 跟隨 " + Seat(r.Target) + "（" + r.Kind + "）：" + r.Result}
	case engine.RecLovers:
		s := "情侶：" + Seat(r.Seat) + "、" + Seat(r.Target)
		if r.By > 0 {
			s += "（" + t.actor(r.By) + " 連）"
		}
		return Line{Text: s}
	}
	// a record type this package does not know yet: its name, never its
	// fields (recordtext_test.go fails until it has its own line)
	return Line{Text: "（紀錄：" + script.RecordLabel(r.Type) + "）"}
}

func (t *Table) action(r *engine.Record) string {
	verb := script.ActionLabel(engine.ActionKind(r.Kind))
	switch engine.ActionKind(r.Kind) {
	case engine.ActionSignup, engine.ActionWithdraw:
		return verb + "：" + Seat(r.By)
	case engine.ActionKill:
		if r.By == 0 { // the wolves together
			if r.Target == 0 {
				return "狼人 空刀"
			}
			return "狼人 " + verb + " " + Seat(r.Target)
		}
	case engine.ActionGuard:
		if r.Target == 0 {
			return t.actor(r.By) + " 空守"
		}
	case engine.ActionSilence:
		if r.Target == 0 {
			return t.actor(r.By) + " 空禁"
		}
	case engine.ActionThief:
		return t.actor(r.By) + " " + verb + "：" + t.cards().CardName(r.Role) + "（埋牌：" + t.cards().CardNameOf(r.Result) + "）"
	case engine.ActionTrade:
		return t.actor(r.By) + " " + verb + " " + Seat(r.Target) + "（" + script.GiftLabel(r.Result) + "）"
	case engine.ActionLife: // "狼刀命中，失去一條命：長老 8號"
		return verb + t.actor(r.Target)
	case engine.ActionPenalty: // "村長 9號 出局懲罰：所有好人失去技能"
		return t.actor(r.By) + " " + verb
	}
	return t.actor(r.By) + " " + verb + " " + Seat(r.Target)
}

// vote is a vote's 票型: for each seat voted for, who voted for it and its
// total (half-votes shown as .5: the sheriff's 1.5), then abstentions.
func vote(r *engine.Record, sheriff int) Line {
	voter := func(v int) string {
		if v == sheriff && v != 0 {
			return strconv.Itoa(v) + "(警)"
		}
		return strconv.Itoa(v)
	}
	var ballots []engine.Vote
	var tally []engine.Tally
	if r.Ballots != nil {
		ballots, tally = r.Ballots.Votes, r.Ballots.Tally
	}
	counted := map[int]bool{}
	var sub, totals []string
	for _, t := range tally {
		counted[t.Seat] = true
		var vs []string
		for _, v := range ballots {
			if v.Target == t.Seat {
				vs = append(vs, voter(v.Voter))
			}
		}
		sub = append(sub, Seat(t.Seat)+" ← "+strings.Join(vs, "、")+"　"+halves(t.Halves)+"票")
		totals = append(totals, Seat(t.Seat)+" "+halves(t.Halves)+"票")
	}
	var abst []string
	for _, v := range ballots {
		switch {
		case v.Target == 0:
			abst = append(abst, voter(v.Voter))
		case !counted[v.Target]:
			abst = append(abst, voter(v.Voter)+"（投"+Seat(v.Target)+"，不計）")
		}
	}
	if len(abst) > 0 {
		sub = append(sub, "棄票："+strings.Join(abst, "、"))
	}
	if len(totals) == 0 {
		totals = []string{"無人得票"}
	}
	title := script.VoteLabel(engine.VoteKind(r.Kind)) + "（第" + strconv.Itoa(r.Day) + "天）票型 ｜ 計票：" + strings.Join(totals, "，")
	return Line{Text: title, Sub: sub}
}

func halves(h int) string {
	if h%2 == 0 {
		return strconv.Itoa(h / 2)
	}
	return strconv.Itoa(h/2) + ".5"
}

func points(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

// sourceSeat reads the seat of a "seat-N" source, or "seat-N key=ID" (a
// key event with its identity, daemon.KeySource).
func sourceSeat(source string) (int, bool) {
	source, _, _ = strings.Cut(source, " ")
	n, err := strconv.Atoi(strings.TrimPrefix(source, "seat-"))
	return n, err == nil && strings.HasPrefix(source, "seat-") && n > 0
}
