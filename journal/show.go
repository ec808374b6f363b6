package journal

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"wolftable/engine"
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
	if len(rv.Bottom) > 0 {
		names := make([]string, len(rv.Bottom))
		for i, c := range rv.Bottom {
			names[i] = c.Name
		}
		kv("底牌", strings.Join(names, "、"))
	}
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
		kv("規則", strings.Join(opts, " "))
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

// cards names the cards as the game's board does (白痴 under idiot.name
// baichi; rules-more.md I10).
func (rv *Review) cards() *engine.Options {
	o := engine.DefaultOptions()
	if v, ok := rv.Options["idiot.name"]; ok {
		_ = o.Set("idiot.name", v) // an unknown value keeps the default name
	}
	return &o
}

// changedOptions are the game's options that differ from today's defaults.
func (rv *Review) changedOptions() []string {
	def := engine.DefaultOptions()
	var out []string
	for _, k := range sortedKeys(rv.Options) {
		if d, ok := def.Get(k); !ok || d != rv.Options[k] {
			out = append(out, k+"="+rv.Options[k])
		}
	}
	return out
}

// lines renders a phase's entries; runs of sign-ups, withdrawals and
// speeches of one kind become one line.
func (rv *Review) lines(es []Entry) []line {
	var out []line
	for i := 0; i < len(es); i++ {
		e := es[i]
		if run := runKey(e); run != "" {
			seats := []string{seatName(seatOf(e))}
			for i+1 < len(es) && runKey(es[i+1]) == run {
				i++
				seats = append(seats, seatName(seatOf(es[i])))
			}
			sep := "、"
			if e.Type == string(engine.RecSpeech) {
				sep = " → "
			}
			out = append(out, line{at: e.Wall, text: runTitle(e) + "：" + strings.Join(seats, sep)})
			continue
		}
		out = append(out, rv.entryLine(e))
	}
	return out
}

func runKey(e Entry) string {
	switch {
	case e.Type == string(engine.RecAction) && (e.Kind == engine.ActionSignup || e.Kind == engine.ActionWithdraw):
		return "action/" + e.Kind
	case e.Type == string(engine.RecSpeech):
		return "speech/" + e.Kind
	}
	return ""
}

func seatOf(e Entry) int {
	if e.Type == string(engine.RecAction) {
		return e.By
	}
	return e.Seat
}

func runTitle(e Entry) string {
	if e.Type == string(engine.RecAction) {
		return script.ActionLabel(e.Kind)
	}
	return script.SpeechLabel(e.Kind)
}

func (rv *Review) entryLine(e Entry) line {
	l := line{at: e.Wall}
	switch engine.RecordType(e.Type) {
	case engine.RecAction:
		l.text = rv.actionText(e)
	case engine.RecCheck:
		l.text = fmt.Sprintf("%s 查驗 %s：%s", rv.actor(e.By), seatName(e.Target), e.Result)
	case engine.RecVote:
		l.text, l.sub = voteText(e)
	case engine.RecSheriff:
		if e.Seat == 0 {
			l.text = "警長：無（警徽流失或撕毀）"
		} else {
			l.text = "警長：" + seatName(e.Seat)
		}
	case engine.RecDeath:
		when := phaseName(e.When)
		if by, ok := sourceSeat(e.Source); ok && by != e.Seat && (e.Cause == string(engine.CauseShot) || e.Cause == string(engine.CauseTaken)) {
			when += "，" + rv.actor(by) // the seat whose input fired the shot
		}
		l.text = fmt.Sprintf("%s 出局：%s（%s）", seatName(e.Seat), causeText(e.Cause), when)
	case engine.RecExile:
		if e.Seat == 0 {
			l.text = "放逐：無人"
		} else {
			l.text = "放逐：" + seatName(e.Seat)
		}
	case engine.RecReveal:
		l.text = fmt.Sprintf("%s 翻牌：%s", seatName(e.Seat), rv.cards().CardName(engine.Role(e.Role)))
	case engine.RecPenalty:
		l.text = fmt.Sprintf("扣分：%s %v 分", seatName(e.Seat), e.Points)
	case engine.RecResult:
		l.text = "結果：" + resultText(e.Result)
	case engine.RecSpeech:
		l.text = runTitle(e) + "：" + seatName(e.Seat)
	case engine.RecRole:
		l.text = fmt.Sprintf("%s 身份改為：%s", seatName(e.Seat), rv.cards().CardName(engine.Role(e.Role)))
	case engine.RecRoar:
		l.text = "熊：昨晚熊沒有咆哮"
		if e.Result == "是" {
			l.text = "熊：昨晚熊咆哮了"
		}
	case engine.RecFollow:
		l.text = fmt.Sprintf("%s 跟隨 %s（%s）：%s", rv.actor(e.Seat), seatName(e.Target), e.Kind, e.Result)
	case engine.RecLovers:
		l.text = fmt.Sprintf("情侶：%s、%s", seatName(e.Seat), seatName(e.Target))
		if e.By > 0 {
			l.text += "（" + rv.actor(e.By) + " 連）"
		}
	default:
		l.text = fmt.Sprintf("%s %s seat=%d by=%d target=%d %s", e.Type, e.Kind, e.Seat, e.By, e.Target, e.Result)
	}
	return l
}

// actor is "預言家 3號": the role dealt to the seat, and the seat.
func (rv *Review) actor(seat int) string {
	if seat >= 1 && seat <= len(rv.Deal) {
		return rv.Deal[seat-1].Name + " " + seatName(seat)
	}
	return seatName(seat)
}

func (rv *Review) actionText(e Entry) string {
	switch e.Kind {
	case "signup":
		return "上警：" + seatName(e.By)
	case "withdraw":
		return "退水：" + seatName(e.By)
	case "kill":
		if e.By == 0 { // the wolves together
			if e.Target == 0 {
				return "狼人 空刀"
			}
			return "狼人 擊殺 " + seatName(e.Target)
		}
	case "guard":
		if e.Target == 0 {
			return rv.actor(e.By) + " 空守"
		}
	case "thief":
		return rv.actor(e.By) + " 拿底牌：" + rv.cards().CardName(engine.Role(e.Role)) + "（埋牌：" + rv.cards().CardNameOf(e.Result) + "）"
	}
	return rv.actor(e.By) + " " + script.ActionLabel(e.Kind) + " " + seatName(e.Target)
}

// voteText is a vote's 票型: for each seat voted for, who voted for it and
// its total (half-votes shown as .5: the sheriff's 1.5), then abstentions.
func voteText(e Entry) (string, []string) {
	title := script.VoteLabel(e.Kind)
	voter := func(v int) string {
		if v == e.Sheriff && v != 0 {
			return strconv.Itoa(v) + "(警)"
		}
		return strconv.Itoa(v)
	}
	counted := map[int]bool{}
	var sub []string
	var totals []string
	for _, t := range e.Tally {
		counted[t.Seat] = true
		var vs []string
		for _, v := range e.Votes {
			if v.Target == t.Seat {
				vs = append(vs, voter(v.Voter))
			}
		}
		sub = append(sub, fmt.Sprintf("%s ← %s　%s票", seatName(t.Seat), strings.Join(vs, "、"), halves(t.Halves)))
		totals = append(totals, fmt.Sprintf("%s %s票", seatName(t.Seat), halves(t.Halves)))
	}
	var abst []string
	for _, v := range e.Votes {
		switch {
		case v.Target == 0:
			abst = append(abst, voter(v.Voter))
		case !counted[v.Target]:
			abst = append(abst, fmt.Sprintf("%s（投%s，不計）", voter(v.Voter), seatName(v.Target)))
		}
	}
	if len(abst) > 0 {
		sub = append(sub, "棄票："+strings.Join(abst, "、"))
	}
	if len(totals) == 0 {
		totals = []string{"無人得票"}
	}
	return fmt.Sprintf("%s（第%d天）票型 ｜ 計票：%s", title, e.Day, strings.Join(totals, "，")), sub
}

func halves(h int) string {
	if h%2 == 0 {
		return strconv.Itoa(h / 2)
	}
	return strconv.Itoa(h/2) + ".5"
}

// sourceSeat reads the seat of a "seat-N" source.
func sourceSeat(source string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(source, "seat-"))
	return n, err == nil && strings.HasPrefix(source, "seat-") && n > 0
}

func seatName(s int) string {
	if s == 0 {
		return "無"
	}
	return strconv.Itoa(s) + "號"
}

// phaseName: night-2 → 第2夜, day-3 → 第3天 (script.PhaseLabel).
func phaseName(p string) string { return script.PhaseLabel(p) }

func causeText(c string) string { return script.CauseLabel(c) }

func resultText(r string) string {
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
