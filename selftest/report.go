package selftest

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// Status is the outcome of one check.
type Status string

// The statuses. Pass and Skip count as passed; Fail and NotRun do not.
const (
	Pass   Status = "pass"
	Fail   Status = "fail"
	Skip   Status = "skip"    // not applicable to this table, or left out with --only
	NotRun Status = "not-run" // could not be tested (no link, interrupted): a failure
)

// OK reports whether s counts as passed.
func (s Status) OK() bool { return s == Pass || s == Skip }

// worse returns the worse of two statuses.
func worse(a, b Status) Status {
	rank := func(s Status) int {
		switch s {
		case Fail:
			return 3
		case NotRun:
			return 2
		case Pass:
			return 1
		}
		return 0 // Skip, ""
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// Component names.
const (
	CompLink    = "link"
	CompPedal   = "pedal"
	CompLights  = "lights"
	CompKeys    = "keys"
	CompSpeaker = "speaker"
)

// Components lists the components in the order they are tested.
func Components() []string {
	return []string{CompLink, CompPedal, CompLights, CompKeys, CompSpeaker}
}

// Check is one thing tested.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail,omitempty"`
	// Warning, if set, is what the check saw late because the host was
	// busy (see Report.Warnings).
	Warning string `json:"warning,omitempty"`
}

// Component is the result of one component of the table.
type Component struct {
	Name   string  `json:"name"`
	Status Status  `json:"status"`
	Checks []Check `json:"checks,omitempty"`
}

// SeatResult is what one seat's lights and keys did. Lights covers the
// whole walk: red, green, blue, off and, where the table has one, the
// private indicator.
type SeatResult struct {
	Seat   int       `json:"seat"`
	Lights Check     `json:"lights"`
	Keys   KeyResult `json:"keys"`
}

// KeyResult is one seat's keys.
type KeyResult struct {
	Status   Status         `json:"status"`
	Detail   string         `json:"detail,omitempty"`
	Expected []string       `json:"expected,omitempty"`
	Presses  map[string]int `json:"presses,omitempty"` // key name → presses seen
	Missing  []string       `json:"missing,omitempty"` // never arrived
	Bouncy   []string       `json:"bouncy,omitempty"`  // more than one press per touch
	Stuck    []string       `json:"stuck,omitempty"`   // down at the start, or never released
}

// Problem is one failure, naming what to fix.
type Problem struct {
	Component string `json:"component"`
	Seat      int    `json:"seat,omitempty"`
	Key       string `json:"key,omitempty"`
	Message   string `json:"message"`
}

func (p Problem) String() string {
	var where string
	switch {
	case p.Seat > 0 && p.Key != "":
		where = fmt.Sprintf("seat %d key %s", p.Seat, p.Key)
	case p.Seat > 0:
		where = fmt.Sprintf("seat %d %s", p.Seat, p.Component)
	default:
		where = p.Component
	}
	return where + ": " + p.Message
}

// Report is the outcome of a self-test.
type Report struct {
	Software    string        `json:"software"`
	Started     time.Time     `json:"started"`
	Finished    time.Time     `json:"finished"`
	Mode        string        `json:"mode"`  // serial, gpio, virtual
	Table       string        `json:"table"` // what was tested, e.g. "bridge fw 0.1.0, 12 seats, on /dev/ttyACM0"
	Seats       int           `json:"seat_count"`
	Technician  string        `json:"technician"`
	Emulated    bool          `json:"emulated"`
	Faults      []string      `json:"faults,omitempty"` // injected into the emulated table
	Soak        string        `json:"soak"`
	Passed      bool          `json:"passed"`
	Interrupted bool          `json:"interrupted,omitempty"`
	Components  []*Component  `json:"components"`
	SeatResults []*SeatResult `json:"seats"`
	Problems    []Problem     `json:"problems"`
	// Warnings are what came late because the host was busy (its measured
	// stalls), with the delay: not faults, the verdict stands without them.
	Warnings []Problem `json:"warnings,omitempty"`
}

func newReport() *Report {
	r := &Report{Problems: []Problem{}}
	for _, name := range Components() {
		r.Components = append(r.Components, &Component{Name: name, Status: Skip})
	}
	return r
}

// Component returns the named component.
func (r *Report) Component(name string) *Component {
	for _, c := range r.Components {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Seat returns seat n's result, or nil.
func (r *Report) Seat(n int) *SeatResult {
	if n < 1 || n > len(r.SeatResults) {
		return nil
	}
	return r.SeatResults[n-1]
}

// add records a check of a component; a failure is also a problem.
func (r *Report) add(comp string, c Check) {
	cm := r.Component(comp)
	cm.Checks = append(cm.Checks, c)
	cm.Status = worse(cm.Status, c.Status)
	if !c.Status.OK() {
		msg := checkWord(c.Name)
		if c.Detail != "" {
			msg += "：" + c.Detail
		}
		if c.Status == NotRun {
			msg += "（未測）"
		}
		r.problem(Problem{Component: comp, Message: msg})
	}
}

func (r *Report) problem(p Problem) { r.Problems = append(r.Problems, p) }

func (r *Report) warn(p Problem) { r.Warnings = append(r.Warnings, p) }

// finish settles the components' statuses from the seats and the verdict.
func (r *Report) finish(now time.Time) {
	r.Finished = now
	for _, s := range r.SeatResults {
		lc := r.Component(CompLights)
		lc.Status = worse(lc.Status, s.Lights.Status)
		kc := r.Component(CompKeys)
		kc.Status = worse(kc.Status, s.Keys.Status)
	}
	r.Passed = !r.Interrupted && len(r.Problems) == 0
	for _, c := range r.Components {
		r.Passed = r.Passed && c.Status.OK()
	}
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// ReadJSON reads a report WriteJSON wrote.
func ReadJSON(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("selftest: report: %w", err)
	}
	return &r, nil
}

func mark(s Status) string {
	switch s {
	case Pass:
		return "通過"
	case Fail:
		return "不通過"
	case NotRun:
		return "未測"
	case Skip:
		return "-"
	}
	return string(s)
}

// The words of the text report: the technician reads it. The JSON report
// keeps the English names (components, checks, statuses): programs read it.
var (
	componentWords = map[string]string{CompLink: "連線", CompPedal: "踏板", CompLights: "燈號", CompKeys: "按鍵", CompSpeaker: "喇叭"}
	checkWords     = map[string]string{
		"open": "開啟", "bridge found": "找到橋接板", "hello": "握手", "heartbeat": "心跳", "heartbeat, load": "心跳（負載下）",
		"soak": "連線壓測", "counters": "錯誤計數", "raw contacts": "按鍵接點", "driver": "驅動程式", "during the test": "測試期間",
		"host": "主機", "i2c bus": "I²C 匯流排", "expanders": "擴充晶片", "pedal pin": "踏板腳位", "table": "桌子",
		"short": "短按", "long": "長按", "double": "雙擊", "pedal": "踏板", "lights": "燈號",
		"sound device": "音效裝置", "test line": "測試語句", "underruns": "斷音", "heard": "聽到", "voice prompts": "語音提示", "speaker": "喇叭",
		CompKeys: "按鍵",
	}
)

func componentWord(c string) string {
	if w, ok := componentWords[c]; ok {
		return w
	}
	return c
}

func checkWord(c string) string {
	if w, ok := checkWords[c]; ok {
		return w
	}
	if strings.HasPrefix(c, "expander ") {
		return "擴充晶片 " + strings.TrimPrefix(c, "expander ")
	}
	return c
}

// padTo pads s with spaces to n terminal columns (CJK characters take two).
func padTo(s string, n int) string {
	w := 0
	for _, r := range s {
		w++
		if r >= 0x2e80 {
			w++
		}
	}
	if w >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-w)
}

// Text is the problem for the technician: where (in Chinese), then what.
func (p Problem) Text() string {
	var where string
	switch {
	case p.Seat > 0 && p.Key != "":
		where = fmt.Sprintf("%d號座位 按鍵 %s", p.Seat, p.Key)
	case p.Seat > 0:
		where = fmt.Sprintf("%d號座位 %s", p.Seat, componentWord(p.Component))
	default:
		where = componentWord(p.Component)
	}
	return where + "：" + p.Message
}

// WriteText writes the report for people: the verdict, a table per
// component and per seat, every check, and the problems to fix. Its
// frame is Chinese; a check's details are the checks' own words.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	verdict := "通過"
	if !r.Passed {
		verdict = fmt.Sprintf("不通過（%d 個問題）", len(r.Problems))
		if r.Interrupted {
			verdict = fmt.Sprintf("中斷，不通過（%d 個問題）", len(r.Problems))
		}
	}
	fmt.Fprintf(&b, "wolftable 自我檢測：%s\n\n", verdict)
	fmt.Fprintf(&b, "  桌子        %s\n", r.Table)
	fmt.Fprintf(&b, "  模式        %s，%d 個座位\n", modeWord(r.Mode), r.Seats)
	if r.Emulated {
		faults := "無"
		if len(r.Faults) > 0 {
			faults = strings.Join(r.Faults, " ")
		}
		fmt.Fprintf(&b, "  模擬桌子    是；注入的故障：%s\n", faults)
	}
	fmt.Fprintf(&b, "  技術人員    %s\n", r.Technician)
	fmt.Fprintf(&b, "  軟體        %s\n", r.Software)
	fmt.Fprintf(&b, "  開始        %s，用時 %s\n", r.Started.Format("2006-01-02 15:04:05"), zhDur(r.Finished.Sub(r.Started).Round(100*time.Millisecond)))
	if r.Soak != "" && r.Soak != "0s" {
		fmt.Fprintf(&b, "  連線壓測    %s\n", r.Soak)
	}

	b.WriteString("\n元件      結果\n")
	for _, c := range r.Components {
		fmt.Fprintf(&b, "%s%s\n", padTo(componentWord(c.Name), 10), mark(c.Status))
	}

	if len(r.SeatResults) > 0 {
		b.WriteString("\n座位  燈號      按鍵\n")
		for _, s := range r.SeatResults {
			keys := mark(s.Keys.Status)
			if s.Keys.Detail != "" {
				keys += "  " + s.Keys.Detail
			}
			fmt.Fprintf(&b, "%4d  %s%s\n", s.Seat, padTo(mark(s.Lights.Status), 10), keys)
		}
	}

	for _, c := range r.Components {
		if len(c.Checks) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s\n", componentWord(c.Name))
		for _, ch := range c.Checks {
			line := "  " + padTo(mark(ch.Status), 8) + padTo(checkWord(ch.Name), 18) + ch.Detail
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}

	if len(r.Problems) > 0 {
		b.WriteString("\n要修的問題\n")
		for i, p := range r.Problems {
			fmt.Fprintf(&b, "%3d. %s\n", i+1, p.Text())
		}
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\n注意：主機忙碌，不是故障\n")
		for _, p := range r.Warnings {
			fmt.Fprintf(&b, "  - %s\n", p.Text())
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
