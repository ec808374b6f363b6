package scenario

import (
	"fmt"
	"strings"
)

// The judge's lines as expectations (scenario-format.md "Expectations"):
//
//	expect lines T1 T2 …   the judge's transcript — the lines said aloud and
//	                       the cues shown to the judge, in game order — has a
//	                       line containing T1, a later one containing T2, …
//	expect no-line T       no line said or cued contains T
//
// A text is one word of the file (no spaces): "7號玩家殉情", "技能被禁止".

// parseLinesExpect checks the arguments of lines and no-line.
func parseLinesExpect(e Expect) error {
	switch {
	case e.What == "lines" && len(e.Args) == 0:
		return fmt.Errorf("expect lines TEXT… (the texts, in order)")
	case e.What == "no-line" && len(e.Args) != 1:
		return fmt.Errorf("expect no-line TEXT")
	}
	return nil
}

// judgeLines is the judge's transcript: every line said or cued, in order.
func (r *runner) judgeLines() []Event {
	var out []Event
	for _, ev := range r.events {
		if ev.Type == "say" || ev.Type == "cue" {
			out = append(out, ev)
		}
	}
	return out
}

// expectLines checks an expect lines or no-line ("" = it holds).
func (r *runner) expectLines(e Expect) string {
	lines := r.judgeLines()
	if e.What == "no-line" {
		for _, ev := range lines {
			if strings.Contains(ev.Text, e.Args[0]) {
				return fmt.Sprintf("%q was %s at %s", ev.Text, verb(ev), clock(ev.At))
			}
		}
		return ""
	}
	i := 0
	for k, want := range e.Args {
		for i < len(lines) && !strings.Contains(lines[i].Text, want) {
			i++
		}
		if i == len(lines) {
			if k == 0 {
				return fmt.Sprintf("no line contains %q", want)
			}
			return fmt.Sprintf("no line contains %q after %q", want, e.Args[k-1])
		}
		i++
	}
	return ""
}

func verb(ev Event) string {
	if ev.Type == "cue" {
		return "cued"
	}
	return "said"
}
