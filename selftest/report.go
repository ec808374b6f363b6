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
		msg := c.Name
		if c.Detail != "" {
			msg += ": " + c.Detail
		}
		if c.Status == NotRun {
			msg += " (not tested)"
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
		return "pass"
	case Fail:
		return "FAIL"
	case NotRun:
		return "NOT RUN"
	case Skip:
		return "-"
	}
	return string(s)
}

// WriteText writes the report for people: the verdict, a table per
// component and per seat, every check, and the problems to fix.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	verdict := "PASS"
	if !r.Passed {
		verdict = fmt.Sprintf("FAIL (%d problem%s)", len(r.Problems), plural(len(r.Problems)))
		if r.Interrupted {
			verdict = fmt.Sprintf("INTERRUPTED, FAIL (%d problem%s)", len(r.Problems), plural(len(r.Problems)))
		}
	}
	fmt.Fprintf(&b, "wolftable selftest: %s\n\n", verdict)
	fmt.Fprintf(&b, "  table       %s\n", r.Table)
	fmt.Fprintf(&b, "  mode        %s, %d seats\n", r.Mode, r.Seats)
	if r.Emulated {
		faults := "none"
		if len(r.Faults) > 0 {
			faults = strings.Join(r.Faults, " ")
		}
		fmt.Fprintf(&b, "  emulated    yes; faults injected: %s\n", faults)
	}
	fmt.Fprintf(&b, "  technician  %s\n", r.Technician)
	fmt.Fprintf(&b, "  software    %s\n", r.Software)
	fmt.Fprintf(&b, "  started     %s, took %v\n", r.Started.Format("2006-01-02 15:04:05"), r.Finished.Sub(r.Started).Round(100*time.Millisecond))
	if r.Soak != "" && r.Soak != "0s" {
		fmt.Fprintf(&b, "  link soak   %s\n", r.Soak)
	}

	b.WriteString("\ncomponent  result\n")
	for _, c := range r.Components {
		fmt.Fprintf(&b, "%-10s %s\n", c.Name, mark(c.Status))
	}

	if len(r.SeatResults) > 0 {
		b.WriteString("\nseat  lights   keys\n")
		for _, s := range r.SeatResults {
			keys := mark(s.Keys.Status)
			if s.Keys.Detail != "" {
				keys += "  " + s.Keys.Detail
			}
			fmt.Fprintf(&b, "%4d  %-8s %s\n", s.Seat, mark(s.Lights.Status), keys)
		}
	}

	for _, c := range r.Components {
		if len(c.Checks) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s\n", c.Name)
		for _, ch := range c.Checks {
			line := fmt.Sprintf("  %-8s %-17s %s", mark(ch.Status), ch.Name, ch.Detail)
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
	}

	if len(r.Problems) > 0 {
		b.WriteString("\nproblems\n")
		for i, p := range r.Problems {
			fmt.Fprintf(&b, "%3d. %s\n", i+1, p)
		}
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\nwarnings (注意：主機忙碌，不是故障)\n")
		for _, p := range r.Warnings {
			fmt.Fprintf(&b, "  - %s\n", p)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
