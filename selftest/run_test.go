package selftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"wolftable/hw"
	"wolftable/hw/hwtest"
)

// scripted is a technician for the fake table: it does what a person
// would, with the defects it is told to have the table show.
type scripted struct {
	t *hwtest.Table

	badLights map[int]bool     // seats whose lights the technician sees wrong
	missing   map[SeatKey]bool // keys that never send
	bouncy    map[SeatKey]bool // keys that send twice per touch
	stuck     map[SeatKey]bool // keys held down: a touch sends nothing
	pedalAs   map[hw.PedalPress]hw.PedalPress
	deaf      bool // does not hear the speaker
	silent    bool // never answers anything
	pace      Pace // zero: scriptedPace
	// lateLights are seats whose lights the technician answers only after
	// a while, the host stalled meanwhile (lag, injected).
	lateLights map[int]time.Duration
	lag        *testLag
	// holdLast are seats whose last key the technician holds down for a
	// while after PressKeys returns.
	holdLast map[int]time.Duration
	onJudge  func(seat int) // called as JudgeLights starts
	onLook   func(seat int) // called as LookAt starts

	mu     sync.Mutex
	looked map[int]int
}

func newScripted(t *hwtest.Table) *scripted {
	return &scripted{t: t, badLights: map[int]bool{}, missing: map[SeatKey]bool{}, bouncy: map[SeatKey]bool{}, stuck: map[SeatKey]bool{},
		pedalAs: map[hw.PedalPress]hw.PedalPress{}, looked: map[int]int{}}
}

func (s *scripted) Name() string { return "scripted" }
func (s *scripted) Pace() Pace {
	if s.pace != (Pace{}) {
		return s.pace
	}
	return scriptedPace
}

var scriptedPace = Pace{Dwell: 0, Answer: 300 * time.Millisecond, Settle: 100 * time.Millisecond, Quiet: 20 * time.Millisecond}

func (s *scripted) LookAt(_ context.Context, seat int, want []hw.SeatLight) error {
	if s.onLook != nil {
		s.onLook(seat)
	}
	s.mu.Lock()
	s.looked[seat]++
	s.mu.Unlock()
	if got := s.t.Lights(); fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("the table shows %v, LookAt was told %v", got, want)
	}
	return nil
}

func (s *scripted) JudgeLights(_ context.Context, seat int) error {
	if s.onJudge != nil {
		s.onJudge(seat)
	}
	if s.silent {
		return nil
	}
	p := hw.PedalShort
	if s.badLights[seat] {
		p = hw.PedalLong
	}
	if d, ok := s.lateLights[seat]; ok {
		end := s.lag.stall()
		time.AfterFunc(d, func() { end(); s.t.Pedal(p) })
		return nil
	}
	return s.t.Pedal(p)
}

func (s *scripted) PressPedal(_ context.Context, p hw.PedalPress) error {
	if s.silent {
		return nil
	}
	if q, ok := s.pedalAs[p]; ok {
		p = q
	}
	return s.t.Pedal(p)
}

func (s *scripted) PressKeys(_ context.Context, seat int, keys []hw.Key) error {
	for i, k := range keys {
		sk := SeatKey{seat, k}
		hold, held := s.holdLast[seat]
		switch {
		case held && i == len(keys)-1:
			s.t.KeyDown(seat, k)
			time.AfterFunc(hold, func() { s.t.KeyUp(seat, k) })
		case s.missing[sk], s.stuck[sk]:
		case s.bouncy[sk]:
			s.t.Press(seat, k, k)
		default:
			s.t.Press(seat, k)
		}
	}
	return nil
}

func (s *scripted) Listen(context.Context) error {
	if s.silent {
		return nil
	}
	if s.deaf {
		return s.t.Pedal(hw.PedalLong)
	}
	return s.t.Pedal(hw.PedalShort)
}

// fakeSound is a speaker whose device works.
type fakeSound struct {
	fail string
	said [][]string
}

func (f *fakeSound) PlayTest(context.Context) []Check {
	if f.fail != "" {
		return []Check{{Name: "sound device", Status: Fail, Detail: f.fail}}
	}
	return []Check{{Name: "sound device", Status: Pass}, {Name: "test line", Status: Pass}}
}
func (f *fakeSound) Say(clips []string) bool { f.said = append(f.said, clips); return true }
func (f *fakeSound) Describe() string        { return "a beep" }

func runFake(t *testing.T, seats int, setup func(*hwtest.Table, *scripted, *fakeSound)) (*Report, *hwtest.Table, []string) {
	t.Helper()
	return runFakeCtx(context.Background(), t, seats, setup)
}

func runFakeCtx(ctx context.Context, t *testing.T, seats int, setup func(*hwtest.Table, *scripted, *fakeSound)) (*Report, *hwtest.Table, []string) {
	t.Helper()
	tb := hwtest.New(seats)
	tech := newScripted(tb)
	tech.lag = newTestLag(t)
	snd := &fakeSound{}
	if setup != nil {
		setup(tb, tech, snd)
	}
	var mu sync.Mutex
	var lines []string
	rep := Run(ctx, Options{
		Target:     &VirtualTarget{Table: tb, Detail: "fake table"},
		Technician: tech,
		Sound:      snd,
		Lag:        tech.lag,
		Progress: func(l string) {
			mu.Lock()
			lines = append(lines, l)
			mu.Unlock()
		},
	})
	return rep, tb, lines
}

func TestRunHealthy(t *testing.T) {
	t.Parallel()
	var snd *fakeSound
	rep, tb, lines := runFake(t, 6, func(_ *hwtest.Table, _ *scripted, s *fakeSound) { snd = s })
	// every seat is asked for its keys by voice: "3號，請依次按下所有按鍵"
	if len(snd.said) != 6 || !slices.Equal(snd.said[2], []string{"seat.3", "pause.comma", "line.selftest.keys.1"}) {
		t.Errorf("voice prompts %q", snd.said)
	}
	if i := slices.IndexFunc(rep.Component(CompSpeaker).Checks, func(c Check) bool { return c.Name == "voice prompts" }); i < 0 ||
		rep.Component(CompSpeaker).Checks[i].Status != Pass {
		t.Errorf("no passed voice prompts check: %+v", rep.Component(CompSpeaker).Checks)
	}
	if !rep.Passed {
		var b bytes.Buffer
		rep.WriteText(&b)
		t.Fatalf("healthy fake table failed:\n%s", b.String())
	}
	for _, c := range rep.Components {
		if c.Status != Pass {
			t.Errorf("component %s: %s", c.Name, c.Status)
		}
	}
	for _, s := range rep.SeatResults {
		if s.Lights.Status != Pass || s.Keys.Status != Pass || len(s.Keys.Presses) != 17 {
			t.Errorf("seat %d: lights %s keys %+v", s.Seat, s.Lights.Status, s.Keys)
		}
	}
	if !tb.Closed() {
		t.Error("the table was not closed")
	}
	// The lights walk showed each seat red, green, blue, off and the
	// private indicator, one seat at a time.
	var walk []string
	for _, f := range tb.History() {
		lit := []string{}
		for i, l := range f {
			if l.Color != hw.Off || l.Private {
				s := fmt.Sprintf("%d:%v", i+1, l.Color)
				if l.Private {
					s += "+private"
				}
				if l.Pulse {
					s += "+pulse"
				}
				lit = append(lit, s)
			}
		}
		walk = append(walk, strings.Join(lit, " "))
	}
	got := strings.Join(walk[:5], "|")
	if got != "1:red|1:green|1:blue||1:green+private" {
		t.Errorf("seat 1's walk: %q", got)
	}
	joined := strings.Join(lines, "\n")
	for _, want := range []string{"請踩踏板：短按", "3號：3號，請依次按下所有按鍵", "✓ BOOM 17/17", "聽到a beep了嗎"} {
		if !strings.Contains(joined, want) {
			t.Errorf("progress lacks %q:\n%s", want, joined)
		}
	}
}

func TestRunFaults(t *testing.T) {
	t.Parallel()
	rep, _, _ := runFake(t, 6, func(tb *hwtest.Table, s *scripted, _ *fakeSound) {
		s.badLights[2] = true
		s.missing[SeatKey{3, hw.Key7}] = true
		s.bouncy[SeatKey{4, hw.KeyOK}] = true
		tb.KeyDown(5, hw.KeyUp) // held down before the test, and for good
		s.stuck[SeatKey{5, hw.KeyUp}] = true
		s.deaf = true
	})
	if rep.Passed {
		t.Fatal("passed with faults")
	}
	want := []string{
		"seat 2 lights: 技術人員看到異常",
		"seat 3 key 7: 沒有收到（缺）",
		"seat 4 key OK: 彈跳：按一下收到 2 次",
		"seat 5 key UP: 卡住（一直按著）",
		"speaker: 聽到：技術人員沒聽到",
	}
	var got []string
	for _, p := range rep.Problems {
		got = append(got, p.String())
	}
	if len(got) != len(want) {
		t.Errorf("problems:\n%s", strings.Join(got, "\n"))
	}
	for i, w := range want {
		if i >= len(got) || !strings.HasPrefix(got[i], w) {
			t.Errorf("problem %d: want %q, got:\n%s", i+1, w, strings.Join(got, "\n"))
		}
	}
	if k := rep.Seat(3).Keys; k.Status != Fail || fmt.Sprint(k.Missing) != "[7]" || k.Presses["7"] != 0 || k.Presses["8"] != 1 {
		t.Errorf("seat 3 keys: %+v", k)
	}
	if k := rep.Seat(4).Keys; fmt.Sprint(k.Bouncy) != "[OK]" || k.Presses["OK"] != 2 {
		t.Errorf("seat 4 keys: %+v", k)
	}
	if k := rep.Seat(5).Keys; fmt.Sprint(k.Stuck) != "[UP]" || len(k.Missing) != 0 {
		t.Errorf("seat 5 keys: %+v", k)
	}
	if rep.Seat(1).Lights.Status != Pass || rep.Seat(2).Lights.Status != Fail {
		t.Errorf("lights: seat 1 %s, seat 2 %s", rep.Seat(1).Lights.Status, rep.Seat(2).Lights.Status)
	}
}

func TestRunPedal(t *testing.T) {
	t.Parallel()
	rep, _, lines := runFake(t, 6, func(_ *hwtest.Table, s *scripted, _ *fakeSound) {
		s.pedalAs[hw.PedalLong] = hw.PedalShort // the pedal never holds long enough
	})
	c := rep.Component(CompPedal)
	if c.Status != Fail || len(c.Checks) != 3 || c.Checks[1].Status != Fail ||
		c.Checks[1].Detail != "請踩長按三次，都踩成：短按、短按、短按" {
		t.Errorf("pedal: %+v", c)
	}
	if !strings.Contains(strings.Join(lines, "\n"), "剛才是短按；請再踩一次：長按") {
		t.Errorf("no retry prompt:\n%s", strings.Join(lines, "\n"))
	}
}

func TestRunNoAnswers(t *testing.T) {
	t.Parallel()
	start := time.Now()
	rep, _, _ := runFake(t, 6, func(_ *hwtest.Table, s *scripted, _ *fakeSound) { s.silent = true })
	if rep.Passed {
		t.Fatal("passed with a technician who never answers")
	}
	if c := rep.Component(CompPedal).Checks[0]; !strings.HasPrefix(c.Detail, "300 毫秒 內沒有踩踏板") {
		t.Errorf("pedal: %+v", c)
	}
	if c := rep.Seat(1).Lights; c.Status != Fail || !strings.HasPrefix(c.Detail, "300 毫秒 內沒有回答") {
		t.Errorf("lights: %+v", c)
	}
	// A silent technician presses the keys all the same.
	if rep.Seat(1).Keys.Status != Pass {
		t.Errorf("keys: %+v", rep.Seat(1).Keys)
	}
	// Every prompt waited its time at least: 3 presses, 6 seats' lights, the
	// speaker's answer.
	if d, least := time.Since(start), 10*scriptedPace.Answer; d < least {
		t.Errorf("took %v, less than the %v the prompts wait", d, least)
	}
}

func TestRunNoLink(t *testing.T) {
	t.Parallel()
	tech := newScripted(hwtest.New(6))
	snd := &fakeSound{fail: "oto: no device"}
	rep := Run(context.Background(), Options{Target: deadTarget{}, Technician: tech, Sound: snd})
	if rep.Passed || rep.Component(CompLink).Status != Fail {
		t.Fatalf("link: %+v", rep.Component(CompLink))
	}
	for _, c := range []string{CompPedal, CompLights, CompKeys} {
		if s := rep.Component(c).Status; s != NotRun {
			t.Errorf("%s: %s, want not-run", c, s)
		}
	}
	if s := rep.Component(CompSpeaker).Status; s != Fail {
		t.Errorf("speaker is tested without a link: %s", s)
	}
	if len(rep.SeatResults) != 0 {
		t.Errorf("seat results without a table: %+v", rep.SeatResults)
	}
}

type deadTarget struct{}

func (deadTarget) Mode() string { return "serial" }
func (deadTarget) CheckLink(context.Context) (Features, []Check, bool) {
	return Features{Table: "bridge", Seats: 6}, []Check{{Name: "bridge found", Status: Fail, Detail: "unplugged"}}, false
}
func (deadTarget) Open(context.Context) (hw.Table, error)      { return nil, errors.New("no") }
func (deadTarget) AfterOpen(context.Context, hw.Table) []Check { return nil }
func (deadTarget) Finish(hw.Table) []Check                     { return nil }

func TestRunOnly(t *testing.T) {
	t.Parallel()
	tb := hwtest.New(6)
	rep := Run(context.Background(), Options{
		Target: &VirtualTarget{Table: tb, Detail: "fake"}, Technician: newScripted(tb), Only: []string{CompPedal},
	})
	if !rep.Passed {
		t.Fatalf("--only pedal failed: %+v", rep.Problems)
	}
	for _, c := range rep.Components {
		want := Skip
		if c.Name == CompPedal || c.Name == CompLink {
			want = Pass
		}
		if c.Status != want {
			t.Errorf("%s: %s, want %s", c.Name, c.Status, want)
		}
	}
}

func TestRunInterrupted(t *testing.T) {
	t.Parallel()
	tb := hwtest.New(6)
	tech := newScripted(tb)
	tech.silent = true
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	rep := Run(ctx, Options{Target: &VirtualTarget{Table: tb, Detail: "fake"}, Technician: tech, Sound: &fakeSound{}})
	if !rep.Interrupted || rep.Passed {
		t.Fatalf("interrupted %v passed %v", rep.Interrupted, rep.Passed)
	}
	if rep.Seat(6).Keys.Status != NotRun || rep.Component(CompKeys).Status != NotRun {
		t.Errorf("keys after the interrupt: %+v", rep.Seat(6).Keys)
	}
	var b bytes.Buffer
	rep.WriteText(&b)
	if !strings.HasPrefix(b.String(), "wolftable 自我檢測：中斷，不通過") {
		t.Errorf("text:\n%s", b.String())
	}
}

func TestReportJSON(t *testing.T) {
	t.Parallel()
	rep, _, _ := runFake(t, 6, func(_ *hwtest.Table, s *scripted, _ *fakeSound) {
		s.missing[SeatKey{6, hw.KeyBoom}] = true
	})
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Passed || len(back.Problems) != 1 || back.Problems[0].Seat != 6 || back.Problems[0].Key != "BOOM" ||
		back.Seat(6).Keys.Missing[0] != "BOOM" || back.Seats != 6 {
		t.Errorf("round trip: %+v", back.Problems)
	}
	var tx bytes.Buffer
	rep.WriteText(&tx)
	for _, want := range []string{"wolftable 自我檢測：不通過（1 個問題）", "   6  通過      不通過  16/17 個鍵；缺 BOOM", "  1. 6號座位 按鍵 BOOM：沒有收到（缺）"} {
		if !strings.Contains(tx.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, tx.String())
		}
	}
}

func TestParseFault(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want Fault
		err  string
	}{
		{in: "dead-led:5", want: Fault{Kind: FaultDeadLED, Seat: 5}},
		{in: "missing-key:3:7", want: Fault{Kind: FaultMissingKey, Seat: 3, Key: hw.Key7}},
		{in: "bouncy-key:4:ok", want: Fault{Kind: FaultBouncyKey, Seat: 4, Key: hw.KeyOK}},
		{in: "stuck-key:12:BOOM", want: Fault{Kind: FaultStuckKey, Seat: 12, Key: hw.KeyBoom}},
		{in: "no-link", want: Fault{Kind: FaultNoLink}},
		{in: "no-speaker", want: Fault{Kind: FaultNoSpeaker}},
		{in: "dead-led", err: "要寫成 dead-led:SEAT"},
		{in: "missing-key:3", err: "要寫成 missing-key:SEAT:KEY"},
		{in: "no-link:3", err: "要寫成 no-link"},
		{in: "stuck-key:0:UP", err: `"0" 不是座位號碼`},
		{in: "stuck-key:2:PEDAL", err: `"PEDAL" 不是按鍵`},
		{in: "melted:1", err: `沒有 "melted" 這種故障`},
	} {
		f, err := ParseFault(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || f != c.want {
			t.Errorf("%s: %+v, %v", c.in, f, err)
		}
		if again, _ := ParseFault(f.String()); again != f {
			t.Errorf("%s: String %q does not read back", c.in, f.String())
		}
	}
}

// fakeBus answers at the addresses it has.
type fakeBus struct{ at map[uint16]bool }

func (b *fakeBus) String() string { return "fake-i2c" }
func (b *fakeBus) Tx(addr uint16, w, r []byte) error {
	if !b.at[addr] {
		return errors.New("i2c: no ACK")
	}
	clear(r)
	return nil
}
func (b *fakeBus) SetSpeed(physic.Frequency) error { return nil }

var _ i2c.Bus = (*fakeBus)(nil)

func TestProbeExpanders(t *testing.T) {
	t.Parallel()
	xs := []hw.Expander{
		{Address: 0x20, Keys: []hw.KeyPin{{Pin: 0, Seat: 1, Key: hw.KeyUp}}},
		{Address: 0x21, Keys: []hw.KeyPin{{Pin: 0, Seat: 2, Key: hw.KeyUp}, {Pin: 1, Seat: 2, Key: hw.KeyOK}}},
	}
	cs := ProbeExpanders(&fakeBus{at: map[uint16]bool{0x20: true}}, xs)
	if len(cs) != 2 || cs[0].Status != Pass || cs[1].Status != Fail || cs[1].Name != "expander 0x21" ||
		!strings.Contains(cs[1].Detail, "它的按鍵：2號 UP、2號 OK") {
		t.Errorf("%+v", cs)
	}
}

// A table whose link goes down (the virtual table's input closed) fails the
// prompts at once instead of waiting for answers that cannot come: the
// technician is given an hour for each, and the test two minutes in all.
func TestRunLinkDown(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, _, _ := runFakeCtx(ctx, t, 6, func(tb *hwtest.Table, s *scripted, _ *fakeSound) {
		s.silent = true
		s.pace = Pace{Answer: time.Hour, Settle: time.Hour, Quiet: BounceWindow}
		tb.SetLink(false, "virtual: input closed")
	})
	if rep.Interrupted {
		t.Fatal("the prompts waited for answers with the link down")
	}
	if rep.Passed {
		t.Fatal("passed with the link down")
	}
	if c := rep.Component(CompPedal).Checks[0]; c.Detail != "連線中斷：virtual: input closed" {
		t.Errorf("pedal: %+v", c)
	}
	var link []string
	for _, c := range rep.Component(CompLink).Checks {
		link = append(link, c.Name+": "+c.Detail)
	}
	if !strings.Contains(strings.Join(link, "\n"), "during the test: 連線中斷 1 次：virtual: input closed") {
		t.Errorf("link: %v", link)
	}
}

// The CLI on the virtual table with no terminal reads plain lines; input
// that ends fails the test at once: with --wait 1h, a prompt that waited
// would hold the test binary past its timeout.
func TestCommandVirtualPlainEOF(t *testing.T) {
	t.Parallel()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	var out, errb bytes.Buffer
	code := RunTable(TableOptions{Only: []string{"pedal", "lights", "keys"}, Soak: 10 * time.Second, Wait: time.Hour}, Env{Stdin: devnull, Stdout: &out, Stderr: &errb})
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "1. 踏板：短按：連線中斷：虛擬桌：輸入已結束") {
		t.Errorf("report:\n%s", out.String())
	}
}

// A key held down when the test starts but then pressed normally is not
// stuck (something rested on it); one never released is.
func TestRunHeldThenWorks(t *testing.T) {
	t.Parallel()
	rep, _, _ := runFake(t, 6, func(tb *hwtest.Table, s *scripted, _ *fakeSound) {
		tb.KeyDown(2, hw.KeyWave) // released and pressed by the scripted PressKeys
		tb.KeyUp(2, hw.KeyWave)
		tb.KeyDown(2, hw.KeyWave)
	})
	k := rep.Seat(2).Keys
	if k.Status != Pass || len(k.Stuck) != 0 || !strings.Contains(k.Detail, "WAVE 一開始就按著，之後正常") {
		t.Errorf("seat 2 keys: %+v", k)
	}
}

// TestPlayedCheck: a test line that ends long before its length was played
// at another rate than the table's: the speaker fails, saying so.
func TestPlayedCheck(t *testing.T) {
	for _, tc := range []struct {
		took time.Duration
		want Status
	}{
		{600 * time.Millisecond, Pass}, {540 * time.Millisecond, Pass},
		{391 * time.Millisecond, Pass}, // a device just opened swallows the start into its buffers
		{180 * time.Millisecond, Fail}, // 16 kHz samples on a 48 kHz device
		{2 * time.Second, Pass},        // late, not fast: the stall watch judges that
	} {
		c := playedCheck(540*time.Millisecond, tc.took)
		if c.Status != tc.want || (c.Status == Fail && !strings.Contains(c.Detail, "沒有以 16000 Hz 播放")) {
			t.Errorf("took %v: %+v", tc.took, c)
		}
	}
}
