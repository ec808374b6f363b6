package journal

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"wolftable/engine"
	"wolftable/recordtext"
	"wolftable/script"
)

// Formats are Show's output formats.
var Formats = []string{"text", "md", "json"}

// Show replays a journal with the embedded boards and writes its game
// record (復盤) in format "text" (the default for ""), "md" (Markdown) or
// "json" (the Review, indented). A journal that does not replay is an
// error, and nothing is written. For a venue's own boards, use
// NewReview(j, source) and Review.Write.
func Show(w io.Writer, j *Journal, format string) error {
	return show(w, j, embedded, format)
}

func show(w io.Writer, j *Journal, get BoardSource, format string) error {
	switch format {
	case "", "text", "md", "json":
	default:
		return fmt.Errorf("journal: unknown format %q (want %s)", format, strings.Join(Formats, " | "))
	}
	rv, err := NewReview(j, get)
	if err != nil {
		return err
	}
	return rv.Write(w, format)
}

// Write writes the review in format "text", "md" or "json".
func (rv *Review) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(rv)
	case "md":
		_, err := io.WriteString(w, rv.render(true))
		return err
	case "", "text":
		_, err := io.WriteString(w, rv.render(false))
		return err
	}
	return fmt.Errorf("journal: unknown format %q (want %s)", format, strings.Join(Formats, " | "))
}

// line is one rendered entry: a time, a text and detail lines under it.
type line struct {
	at   time.Time
	text string
	sub  []string
}

func (rv *Review) zone() *time.Location { return rv.Created.Location() }

func (rv *Review) clock(t time.Time) string { return t.In(rv.zone()).Format("15:04:05") }

func (rv *Review) stamp(t time.Time) string {
	return t.In(rv.zone()).Format("2006-01-02 15:04:05 -07:00")
}

func (rv *Review) render(md bool) string {
	var b strings.Builder
	kv := func(k, v string) {
		if md {
			fmt.Fprintf(&b, "| %s | %s |\n", k, mdEscape(v))
		} else {
			fmt.Fprintf(&b, "  %-6s %s\n", k, v)
		}
	}
	if md {
		fmt.Fprintf(&b, "# 復盤：%s（%s）\n\n| | |\n|---|---|\n", rv.BoardName, rv.Game)
	} else {
		fmt.Fprintf(&b, "復盤 %s\n", rv.Game)
	}
	kv("板子", fmt.Sprintf("%s（%s），%d 人，桌 %d 座", rv.BoardName, rv.Board, rv.Players, rv.Seats))
	rv.cardLines(kv)
	kv("種子", strconv.FormatUint(rv.Seed, 10))
	kv("軟體", fmt.Sprintf("%s（日誌格式 %d）", rv.Software, rv.Format))
	kv("建檔", rv.stamp(rv.Created))
	if rv.Started != nil {
		kv("開始", rv.stamp(*rv.Started))
	}
	if rv.Ended != nil {
		end := rv.stamp(*rv.Ended)
		if rv.Seconds != nil {
			end += "（全局 " + duration(*rv.Seconds) + "）"
		}
		kv("結束", end)
	}
	kv("結果", resultText(rv.Result))
	kv("日誌", rv.journalNote())
	kv("指紋", rv.fingerprintNote())
	kv("簽章", rv.signatureNote())
	if opts := rv.changedOptions(); len(opts) > 0 {
		kv("規則", strings.Join(opts, "；"))
	}

	if md {
		b.WriteString("\n## 座位\n\n| 座位 | 身份 | 結局 | 扣分 |\n|---|---|---|---|\n")
	} else {
		b.WriteString("\n座位\n")
	}
	for _, s := range rv.Deal {
		fate := "存活"
		if s.Out {
			var parts []string
			for _, d := range s.Deaths {
				parts = append(parts, phaseName(d.When)+" "+causeText(d.Cause))
			}
			fate = "出局：" + strings.Join(parts, "、")
		}
		pen := ""
		if s.Penalty != 0 {
			pen = fmt.Sprintf("%v 分", s.Penalty)
		}
		if md {
			fmt.Fprintf(&b, "| %d號 | %s | %s | %s |\n", s.Seat, s.Name, fate, pen)
		} else {
			if pen != "" {
				fate += "；扣 " + pen
			}
			fmt.Fprintf(&b, "  %2d號  %s  %s\n", s.Seat, padRole(s.Name), fate)
		}
	}

	for _, p := range rv.Phases {
		title := fmt.Sprintf("%s　%s – %s（%s）", phaseName(p.Phase), rv.clock(p.Start), rv.clock(p.End), duration(p.Seconds))
		if md {
			fmt.Fprintf(&b, "\n## %s\n\n", title)
		} else {
			fmt.Fprintf(&b, "\n== %s ==\n", title)
		}
		for _, l := range rv.lines(p.Entries) {
			if md {
				fmt.Fprintf(&b, "- `%s` %s\n", rv.clock(l.at), mdEscape(l.text))
				for _, s := range l.sub {
					fmt.Fprintf(&b, "  - %s\n", mdEscape(s))
				}
			} else {
				fmt.Fprintf(&b, "  %s  %s\n", rv.clock(l.at), l.text)
				for _, s := range l.sub {
					fmt.Fprintf(&b, "            %s\n", s)
				}
			}
		}
	}
	if len(rv.Phases) == 0 {
		b.WriteString("\n（遊戲尚未開始）\n")
	}
	return b.String()
}

func (rv *Review) journalNote() string {
	s := fmt.Sprintf("%d 筆紀錄，%d 個輸入", rv.Records, rv.Inputs)
	if rv.Refused > 0 {
		s += fmt.Sprintf("（%d 個被引擎拒絕）", rv.Refused)
	}
	s += "，雜湊鏈完整，重播一致"
	if rv.TornTail {
		s += fmt.Sprintf("；末筆寫入中斷（斷電），已捨棄 %d 位元組", rv.TornBytes)
	}
	if !rv.Closed {
		s += "；日誌未結束"
	}
	return s
}

// fingerprintNote is the final hash's fingerprint, the one the judge
// copies onto the paper score sheet.
func (rv *Review) fingerprintNote() string {
	if rv.Fingerprint == "" {
		return "（日誌未結束，沒有最終指紋）"
	}
	return rv.Fingerprint + "（最終雜湊 " + rv.Hash + " 的前 8 位；應與計分表上法官抄的相同）"
}

// signatureNote says who signed the end record; whether that key is the
// table's is for `record verify` with the registered key.
func (rv *Review) signatureNote() string {
	switch {
	case rv.SignedBy != "":
		pub, err := ParsePublicKey(rv.SignedBy)
		if err != nil {
			return rv.SignedBy
		}
		return fmt.Sprintf("結束紀錄由金鑰 %s 簽署（是否為本桌登記的金鑰，以 `wolftable record verify --pubkey` 核對）", KeyFingerprint([32]byte(pub)))
	case rv.Closed:
		return fmt.Sprintf("未簽章（日誌格式 %d）：不能證明結果是本桌寫的", rv.Format)
	}
	return "（日誌未結束，尚未簽章）"
}

// table is the review's words for its records: the deal (an action's
// actor is "預言家 3號") and the board's card names (白痴 under idiot.name
// baichi; rules-more.md I10).
func (rv *Review) table() *recordtext.Table {
	o := engine.DefaultOptions()
	if v, ok := rv.Options["idiot.name"]; ok {
		_ = o.Set("idiot.name", v) // an unknown value keeps the default name
	}
	deal := make([]engine.Role, len(rv.Deal))
	for i, s := range rv.Deal {
		deal[i] = engine.Role(s.Role)
	}
	return &recordtext.Table{Deal: deal, Options: &o}
}

// changedOptions are the game's options that differ from today's defaults,
// in the judge's words (script.OptionText: 「女巫自救：僅首夜」).
func (rv *Review) changedOptions() []string {
	def := engine.DefaultOptions()
	var out []string
	for _, k := range sortedKeys(rv.Options) {
		if d, ok := def.Get(k); !ok || d != rv.Options[k] {
			out = append(out, script.OptionText(k, rv.Options[k]))
		}
	}
	return out
}

// lines renders a phase's entries (recordtext: the one renderer of the
// game record); runs of sign-ups, withdrawals and speeches of one kind
// become one line.
func (rv *Review) lines(es []Entry) []line {
	t := rv.table()
	var out []line
	for i := 0; i < len(es); i++ {
		r := es[i].record()
		if run := recordtext.RunKey(&r); run != "" {
			rs := []engine.Record{r}
			for i+1 < len(es) {
				next := es[i+1].record()
				if recordtext.RunKey(&next) != run {
					break
				}
				rs = append(rs, next)
				i++
			}
			out = append(out, line{at: es[i-len(rs)+1].Wall, text: recordtext.Run(rs)})
			continue
		}
		out = append(out, rv.entryLineIn(t, es[i]))
	}
	return out
}

func (rv *Review) entryLine(e Entry) line { return rv.entryLineIn(rv.table(), e) }

func (rv *Review) entryLineIn(t *recordtext.Table, e Entry) line {
	r := e.record()
	l := t.Render(&r, recordtext.At{Sheriff: e.Sheriff, Source: e.Source})
	return line{at: e.Wall, text: l.Text, sub: l.Sub}
}

// voteText is a vote's 票型 (recordtext).
func voteText(e Entry) (string, []string) {
	r := e.record()
	l := (&recordtext.Table{}).Render(&r, recordtext.At{Sheriff: e.Sheriff})
	return l.Text, l.Sub
}

// record is the engine record an entry was made from.
func (e Entry) record() engine.Record {
	r := engine.Record{Type: engine.RecordType(e.Type), Kind: e.Kind, Seat: e.Seat, By: e.By, Target: e.Target,
		Day: e.Day, Cause: engine.Cause(e.Cause), When: e.When, Result: e.Result, Role: engine.Role(e.Role), Points: e.Points}
	if e.Votes != nil || e.Tally != nil {
		r.Ballots = &engine.Ballots{}
		for _, v := range e.Votes {
			r.Ballots.Votes = append(r.Ballots.Votes, engine.Vote{Voter: v.Voter, Target: v.Target})
		}
		for _, t := range e.Tally {
			r.Ballots.Tally = append(r.Ballots.Tally, engine.Tally{Seat: t.Seat, Halves: t.Halves})
		}
	}
	return r
}

func phaseName(p string) string { return recordtext.Phase(p) }

func causeText(c string) string { return recordtext.Cause(engine.Cause(c)) }

func resultText(r string) string { return recordtext.Result(r) }

// duration: 47分08秒, 1小時02分03秒.
func duration(s int64) string {
	neg := ""
	if s < 0 {
		neg, s = "-", -s
	}
	if s >= 3600 {
		return fmt.Sprintf("%s%d小時%02d分%02d秒", neg, s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%s%d分%02d秒", neg, s/60, s%60)
}

// padRole pads a role name to four CJK cells.
func padRole(name string) string {
	n := len([]rune(name))
	if n >= 4 {
		return name
	}
	return name + strings.Repeat("　", 4-n)
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// drawLine is the seat draw as one line ("1號 王小明、2號 …"), "" when
// the header has none.
func drawLine(seats []SeatReview) string {
	var parts []string
	for _, s := range seats {
		if s.Player != "" {
			parts = append(parts, fmt.Sprintf("%d號 %s", s.Seat, s.Player))
		}
	}
	return strings.Join(parts, "、")
}

// cardLines are the 底牌 and 座位 (the seat draw) lines, when the game
// has them.
func (rv *Review) cardLines(kv func(k, v string)) {
	if len(rv.Bottom) > 0 {
		names := make([]string, len(rv.Bottom))
		for i, c := range rv.Bottom {
			names[i] = c.Name
		}
		kv("底牌", strings.Join(names, "、"))
	}
	if line := drawLine(rv.Deal); line != "" {
		kv("座位", line)
	}
}
