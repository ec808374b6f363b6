package scenario

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"wolftable/engine"
	"wolftable/script"
)

// WriteJSON writes one JSON object per event, then an error line if the run
// stopped on one.
func WriteJSON(w io.Writer, res *Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, e := range res.Events {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	if res.Err != nil {
		return enc.Encode(map[string]any{"type": "error", "line": res.Err.Line, "message": res.Err.Msg})
	}
	for _, f := range res.Failures {
		if err := enc.Encode(map[string]any{"type": "expect-failed", "line": f.Line, "message": f.Msg}); err != nil {
			return err
		}
	}
	return nil
}

var lightWords = map[string]string{"green": "綠", "red": "紅", "blue": "藍", "off": "滅"}

func clock(sec int) string { return fmt.Sprintf("%02d:%02d", sec/60, sec%60) }

// WriteTranscript writes the judge's transcript: every line, light, tally,
// death and the result.
func WriteTranscript(w io.Writer, res *Result) error {
	var b strings.Builder
	for _, e := range res.Events {
		t := clock(e.At)
		switch e.Type {
		case "phase":
			fmt.Fprintf(&b, "\n== %s ==\n", script.PhaseLabel(e.Phase))
		case "say":
			fmt.Fprintf(&b, "%s  法官：%s\n", t, e.Text)
		case "cue":
			fmt.Fprintf(&b, "%s    〔手勢〕%s\n", t, e.Text)
		case "light":
			p := ""
			if e.Pulse {
				p = "（閃）"
			}
			fmt.Fprintf(&b, "%s    〔燈〕%d號 %s%s\n", t, *e.Seat, lightWords[e.State], p)
		case "vote":
			var parts []string
			for _, v := range e.votes {
				if v.Target == 0 {
					parts = append(parts, fmt.Sprintf("%d棄", v.Voter))
				} else {
					parts = append(parts, fmt.Sprintf("%d→%d", v.Voter, v.Target))
				}
			}
			var tally []string
			for _, x := range e.tally {
				tally = append(tally, fmt.Sprintf("%d號 %v票", x.Seat, halves(x.Halves)))
			}
			fmt.Fprintf(&b, "%s    〔票型〕%s：%s ｜ 計票：%s\n", t, script.VoteLabel(engine.VoteKind(e.Kind)), strings.Join(parts, " "), strings.Join(tally, "，"))
		case "death":
			fmt.Fprintf(&b, "%s    〔出局〕%d號（%s，%s）\n", t, *e.Seat, script.CauseLabel(engine.Cause(e.Cause)), script.PhaseLabel(e.When))
		case "sheriff":
			if *e.Seat == 0 {
				fmt.Fprintf(&b, "%s    〔警長〕無\n", t)
			} else {
				fmt.Fprintf(&b, "%s    〔警長〕%d號\n", t, *e.Seat)
			}
		case "check":
			fmt.Fprintf(&b, "%s    〔查驗〕%d號查驗%d號：%s\n", t, e.By, *e.Target, e.Result)
		case "exile":
			fmt.Fprintf(&b, "%s    〔放逐〕第%d天：%s\n", t, e.Day, seatOrNobody(*e.Seat))
		case "reveal":
			fmt.Fprintf(&b, "%s    〔翻牌〕%d號 %s\n", t, *e.Seat, e.Role)
		case "penalty":
			fmt.Fprintf(&b, "%s    〔扣分〕%d號 %v分\n", t, *e.Seat, e.Points)
		case "silence":
			fmt.Fprintf(&b, "%s    〔禁言〕第%d天：%d號\n", t, e.Day, *e.Seat)
		case "pause", "resume":
			fmt.Fprintf(&b, "%s    〔%s〕\n", t, map[string]string{"pause": "暫停", "resume": "繼續"}[e.Type])
		case "roar":
			word := "沒有咆哮"
			if e.Roared != nil && *e.Roared {
				word = "咆哮了"
			}
			fmt.Fprintf(&b, "%s    〔熊〕第%d天：%s\n", t, e.Day, word)
		case "follow":
			fmt.Fprintf(&b, "%s    〔跟隨〕%d號跟隨%d號（%s）：%s\n", t, *e.Seat, *e.Target, e.Kind, e.Result)
		case "lovers":
			fmt.Fprintf(&b, "%s    〔情侶〕%d號、%d號\n", t, e.Seats[0], e.Seats[1])
		case "result":
			fmt.Fprintf(&b, "%s    〔結果〕%s\n", t, e.Winner)
		}
	}
	if res.Err != nil {
		fmt.Fprintf(&b, "error: line %d: %s\n", res.Err.Line, res.Err.Msg)
	}
	for _, f := range res.Failures {
		fmt.Fprintf(&b, "expect failed: line %d: %s\n", f.Line, f.Msg)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func seatOrNobody(s int) string {
	if s == 0 {
		return "無人"
	}
	return fmt.Sprintf("%d號", s)
}
