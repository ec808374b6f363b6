package console

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"wolftable/engine"
)

// RecordExport is GET /api/judge/record: the game, its record and the
// judge's transcript (lines and cues) with their times on the daemon's
// clock. The journal (inputs, hash-chained) remains the game's proof; this
// is the 復盤 sheet.
type RecordExport struct {
	ExportedAt time.Time        `json:"exported_at"`
	Game       *GameInfo        `json:"game"`
	Over       bool             `json:"over"`
	Result     string           `json:"result"`
	Records    []RecordExported `json:"records"`
	Transcript []LineView       `json:"transcript"`
}

// RecordExported is a record entry with its fields as the engine gives them.
type RecordExported struct {
	At     time.Time     `json:"at"`
	Text   string        `json:"text"`
	Record engine.Record `json:"record"`
}

func (s *Server) recordExport() RecordExport {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := &s.judge
	x := RecordExport{ExportedAt: s.now(), Over: m.over, Result: m.result, Records: []RecordExported{},
		Transcript: append([]LineView{}, m.transcript...)}
	if m.spec != nil {
		x.Game = gameInfo(m.spec, m.started)
	}
	for i, text := range m.recordTexts() {
		r := &m.records[i]
		x.Records = append(x.Records, RecordExported{At: r.at, Text: text, Record: r.rec})
	}
	return x
}

func (s *Server) getRecord(w http.ResponseWriter, r *http.Request, _ []byte) {
	x := s.recordExport()
	name := "wolftable-record-" + x.ExportedAt.Format("20060102-150405")
	if x.Game != nil {
		name = "wolftable-" + x.Game.Board + "-" + x.Game.StartedAt.Format("20060102-150405")
	}
	if r.URL.Query().Get("format") == "text" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.txt"`)
		_, _ = w.Write([]byte(recordText2(x)))
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.json"`)
	writeJSON(w, http.StatusOK, x)
}

// recordText2 is the export as plain text: the deal, the transcript with
// cues, the record.
func recordText2(x RecordExport) string {
	var b strings.Builder
	if g := x.Game; g != nil {
		fmt.Fprintf(&b, "板子：%s（%s）%d人  種子：%s  發牌：%s\n", g.Name, g.Board, g.Players, g.Seed,
			map[bool]string{true: "手動", false: "隨機"}[g.Manual])
		fmt.Fprintf(&b, "開局：%s\n身分：", g.StartedAt.Format("2006-01-02 15:04:05"))
		for i, d := range g.Deal {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%d:%s", d.Seat, d.RoleName)
		}
		if len(g.Bottom) > 0 {
			b.WriteString("\n底牌：")
			for i, c := range g.Bottom {
				if i > 0 {
					b.WriteString("、")
				}
				b.WriteString(c.RoleName)
			}
		}
		b.WriteString("\n\n")
	}
	b.WriteString("== 法官紀錄 ==\n")
	for _, l := range x.Transcript {
		if l.Cue {
			fmt.Fprintf(&b, "%s    〔手勢〕%s\n", l.At.Format("15:04:05"), l.Text)
		} else {
			fmt.Fprintf(&b, "%s  法官：%s\n", l.At.Format("15:04:05"), l.Text)
		}
	}
	b.WriteString("\n== 對局紀錄 ==\n")
	for _, r := range x.Records {
		fmt.Fprintf(&b, "%s  %s\n", r.At.Format("15:04:05"), r.Text)
	}
	if x.Over {
		fmt.Fprintf(&b, "\n結果：%s\n", x.Result)
	}
	return b.String()
}

// options are the running game's options (nil before a game).
func (m *judgeModel) options() *engine.Options {
	if m.spec == nil || m.spec.Board == nil {
		return nil
	}
	return &m.spec.Board.Options
}
