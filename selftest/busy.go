package selftest

import (
	"fmt"
	"time"

	"wolftable/hw"
)

// A busy host is not a broken table: what came late because the host
// stalled is a warning (Report.Warnings, in Chinese as the technician reads
// it) with the measured delay, and a fault only stands on evidence about
// the seat or the link.

// lateAnswer records a warning if an answer came after its wait's nominal
// end (the host's stalls lengthened the wait, see patience) and returns a
// note for the check's detail; "" if it came in time.
func (r *runner) lateAnswer(w patience, where Problem, what string) string {
	now := time.Now()
	late, stalled := w.late(now)
	if late <= 0 {
		return ""
	}
	took := now.Sub(w.start)
	where.Message = fmt.Sprintf("主機忙碌：%s在 %s 後才到（上限 %s，其間主機停頓 %s），不算故障",
		what, zhDur(took), zhDur(w.d), zhDur(stalled))
	r.warn(where)
	return fmt.Sprintf("（%s 後才回答，晚了 %s：主機停頓 %s）", zhDur(round(took)), zhDur(round(late)), zhDur(round(stalled)))
}

// warn records a warning and shows it.
func (r *runner) warn(p Problem) {
	r.rep.warn(p)
	r.tell("[%s]%s注意 %s", componentWord(p.Component), pad(p.Component), p.Message)
}

// stalledNote says how long the host stalled during a wait that ran out,
// for the check's detail; "" if it did not.
func stalledNote(w patience) string {
	if s := w.stalled(time.Now()); s > 0 {
		return fmt.Sprintf("（其間主機停頓 %s）", zhDur(round(s)))
	}
	return ""
}

// hostBusy is a link or speaker check's warning: what was measured, and
// the host's stall that explains it.
func hostBusy(comp, what string, stalled time.Duration) Problem {
	return Problem{Component: comp, Message: fmt.Sprintf("主機忙碌：%s，其間主機停頓 %s，不算故障", what, zhDur(stalled))}
}

// pad aligns what follows a component's tag ([連線], two columns a character).
func pad(comp string) string {
	n := max(1, 8-2*len([]rune(componentWord(comp))))
	return fmt.Sprintf("%*s", n, "")
}

func round(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(10 * time.Millisecond)
}

// zhDur writes a duration for a Chinese reader: 850 毫秒, 2.3 秒.
func zhDur(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d 毫秒", d.Round(time.Millisecond).Milliseconds())
	}
	return fmt.Sprintf("%.1f 秒", d.Seconds())
}

// zhPedal names a pedal press in Chinese.
func zhPedal(p hw.PedalPress) string {
	switch p {
	case hw.PedalLong:
		return "長按"
	case hw.PedalDouble:
		return "連按兩下"
	}
	return "短按"
}
