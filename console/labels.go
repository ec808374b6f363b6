package console

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"wolftable/daemon"
	"wolftable/engine"
	"wolftable/recordtext"
	"wolftable/script"
)

// The console's words: Traditional Chinese, as the judge's script.

// phaseLabel: "night-2" → "第2夜", "day-1" → "第1天" (script.PhaseLabel).
func phaseLabel(phase string) string { return script.PhaseLabel(phase) }

func isNight(phase string) bool { return strings.HasPrefix(phase, "night-") }

// The words for causes, actions, votes and speeches are the script's
// (script/words.go), shared with the 復盤 and the transcript.

func causeLabel(c engine.Cause) string { return script.CauseLabel(c) }

func voteLabel(kind string) string { return script.VoteLabel(engine.VoteKind(kind)) }

// stepLabel says what the game waits for, for the judge.
func stepLabel(p engine.Prompt) string {
	seat := ""
	if p.Seat > 0 {
		seat = script.Seat(p.Seat)
	}
	switch p.Step {
	case "":
		return ""
	case engine.WaitNight:
		return "夜間：" + p.StepKind.Name()
	case engine.WaitSignup:
		return "上警舉手"
	case engine.WaitSpeech:
		return script.SpeechLabel(p.SpeechKind) + " " + seat
	case engine.WaitWithdraw:
		return "退水"
	case engine.WaitVote:
		return voteLabel(string(p.VoteKind))
	case engine.WaitSkill:
		return seat + " 是否發動技能"
	case engine.WaitBadge:
		return seat + " 移交警徽"
	case engine.WaitOrder:
		return "警長決定發言順序"
	case engine.WaitGuide:
		return "警長歸票"
	case "last-words":
		return "遺言 " + seat
	case engine.WaitExplode:
		return seat + " 自爆確認"
	case engine.WaitTake:
		return seat + " 白狼王帶人"
	case engine.WaitDuel:
		return seat + " 騎士決鬥"
	case engine.WaitPrince:
		return "王子是否發動技能"
	}
	return strings.TrimSpace(string(p.Step) + " " + p.Kind() + " " + seat)
}

// cueGesture is what the judge shows with a hand: ▲ (thumb up), 狼爪, a
// number, 〜 (a wave). The marks are ones every CJK font has: a judge's
// machine without an emoji font showed the emoji as empty boxes. A cue's
// own mark is its catalogue line's Hand or HandArg; else its text's
// （擺手）, its id's end or the role of an exact check says it.
func cueGesture(line string, args []int) string {
	l := cueLines[line]
	switch {
	case l.Hand != "":
		return l.Hand
	case l.HandArg > 0:
		if l.HandArg <= len(args) {
			return strconv.Itoa(args[l.HandArg-1])
		}
		return "?"
	case l.Cue && strings.HasSuffix(l.Text, "（擺手）"): // 女巫's, 守墓人's, 惡魔's
		return "〜 擺手"
	case strings.HasPrefix(line, "cue.exact."):
		return engine.Role(strings.TrimPrefix(line, "cue.exact.")).Name()
	case strings.HasSuffix(line, ".wolf"):
		return "狼爪"
	case strings.HasSuffix(line, ".cannot"):
		return "▼ 拇指向下"
	case strings.HasSuffix(line, ".good"), strings.HasSuffix(line, ".can"):
		return "▲ 拇指向上"
	}
	return ""
}

// cueLines are the catalogue's lines by id: a new role's cue needs no
// line here.
var cueLines = func() map[string]script.Line {
	out := map[string]script.Line{}
	for _, l := range script.All() {
		out[l.ID] = l
	}
	return out
}()

var actionNames = map[engine.Action]string{
	engine.ActTarget: "target", engine.ActUp: "up", engine.ActDown: "down",
	engine.ActWave: "wave", engine.ActHand: "hand", engine.ActBoom: "boom",
}

var actionMarks = map[engine.Action]string{
	engine.ActUp: "▲ 拇指向上", engine.ActDown: "▼ 拇指向下", engine.ActWave: "〜 擺手", engine.ActHand: "☝ 舉手", engine.ActBoom: "★ 自爆",
}

// inputLabel describes a seat's input: "5號→9", "6號 ▲ 拇指向上".
func inputLabel(in engine.Input) string {
	s := script.Seat(in.Seat)
	if in.Action == engine.ActTarget {
		if in.Target == 0 {
			return s + "→0（空/棄）"
		}
		return s + "→" + strconv.Itoa(in.Target)
	}
	return s + " " + actionMarks[in.Action]
}

var judgeWords = map[engine.JudgeCommand]string{
	engine.JudgeDQ: "點殺", engine.JudgeVoid: "流局", engine.JudgePenalty: "扣分", engine.JudgeUndo: "撤銷",
	engine.JudgeRepeat: "重播", engine.JudgePause: "暫停", engine.JudgeResume: "繼續",
}

// RefusalText is an input's refusal in the judge's words, for the other
// screens that show refusals (the simulation's transcript and its virtual
// table): see refusalText.
func RefusalText(err error) string { return refusalText(err) }

// refusalText is an error in the judge's words: an engine refusal from
// script.Refusals with its seats, role and step; a request the console
// refused, its own Chinese message; anything else a short sentence (its Go
// text goes to the log, never to a page).
func refusalText(err error) string {
	var ee *engine.Error
	var re *requestError
	switch {
	case errors.As(err, &ee):
		a := script.RefusalArgs{Seat: ee.Seat, Target: ee.Target}
		if ee.Role != "" {
			a.Role = ee.Role.Name()
		}
		if ee.Step != "" {
			a.Step = strings.TrimSpace(stepLabel(engine.Prompt{Step: ee.Step, StepKind: ee.StepKind, SpeechKind: ee.SpeechKind, VoteKind: ee.VoteKind}))
		}
		return script.Refusal(ee.Reason, a)
	case errors.As(err, &re):
		return re.msg
	case errors.Is(err, daemon.ErrStopped):
		return "遊戲已結束"
	case errors.Is(err, context.DeadlineExceeded):
		return "桌子沒有回應"
	}
	return "桌子出錯，詳情見系統日誌"
}

// describeInput names any input, for refusals and the record.
func describeInput(in engine.Input) string {
	switch in.Kind {
	case engine.InSeat:
		return inputLabel(in)
	case engine.InPedal:
		return [...]string{"踏板短按", "踏板長按", "踏板雙擊"}[min(max(int(in.Pedal), 0), 2)]
	case engine.InTimer:
		return fmt.Sprintf("計時器%d", in.Timer)
	case engine.InClock:
		return fmt.Sprintf("時鐘 %02d:%02d", in.Hour, in.Minute)
	case engine.InJudge:
		w := judgeWords[in.Judge]
		if in.Seat > 0 {
			w += " " + script.Seat(in.Seat)
		}
		if in.Judge == engine.JudgePenalty {
			w += " " + strconv.FormatFloat(in.Points, 'f', -1, 64) + "分"
		}
		return w
	}
	return "?"
}

// recordTexts are the game's records in the judge's words, in order:
// recordtext's lines (the 復盤's), with the deal (an action's actor is
// "預言家 3號"), the board's card names, the sheriff at each vote and the
// seat whose input fired a shot.
func (m *judgeModel) recordTexts() []string {
	t := &recordtext.Table{Options: m.options()}
	if m.spec != nil {
		t.Deal = m.spec.Deal
	}
	out := make([]string, len(m.records))
	sheriff := 0
	for i := range m.records {
		r := &m.records[i]
		out[i] = t.Render(&r.rec, recordtext.At{Sheriff: sheriff, Source: r.source}).String()
		if r.rec.Type == engine.RecSheriff {
			sheriff = r.rec.Seat
		}
	}
	return out
}
