package virtual

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/hw"
)

var t0 = time.Date(2026, 1, 2, 20, 0, 0, 0, time.UTC)

func fixedClock() time.Time { return t0 }

// screen is an io.Writer that keeps what the table drew.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// frame is the last full drawing, escapes removed, trailing blanks trimmed.
func (s *screen) frame() string {
	out := s.String()
	if i := strings.LastIndex(out, "\x1b[H"); i >= 0 {
		out = out[i:]
	}
	out = ansi.ReplaceAllString(out, "")
	lines := strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// next reads one event or fails after a while.
func next(t *testing.T, tb *Table) hw.Event {
	t.Helper()
	select {
	case ev, ok := <-tb.Events():
		if !ok {
			t.Fatal("events channel closed")
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
	return hw.Event{}
}

func keyEvents(seat int, keys ...hw.Key) []hw.Event {
	var evs []hw.Event
	for _, k := range keys {
		for _, e := range []hw.Edge{hw.Down, hw.Up} {
			evs = append(evs, hw.Event{Kind: hw.EventKey, At: t0, Key: hw.KeyEvent{Seat: seat, Key: k, Edge: e, At: t0}})
		}
	}
	return evs
}

func pedalEvent(p hw.PedalPress) hw.Event { return hw.Event{Kind: hw.EventPedal, At: t0, Pedal: p} }

func expectEvents(t *testing.T, tb *Table, want []hw.Event) {
	t.Helper()
	for i, w := range want {
		if got := next(t, tb); got != w {
			t.Fatalf("event %d: %+v\nwant %+v", i, got, w)
		}
	}
}

func linkUp(t *testing.T, tb *Table) {
	t.Helper()
	if ev := next(t, tb); ev.Kind != hw.EventLink || !ev.Link.Up {
		t.Fatalf("first event %+v, want link up", ev)
	}
}

func TestInteractiveKeys(t *testing.T) {
	in, keys := io.Pipe()
	var scr screen
	tb, err := New(in, &scr, WithSeats(12), WithClock(fixedClock))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	linkUp(t, tb)

	type step struct {
		keys string
		want []hw.Event
	}
	for _, s := range []step{
		{"7\r", keyEvents(1, hw.Key7, hw.KeyOK)}, // seat 1 is chosen at first
		{"s3", nil},
		{"9\x7f", keyEvents(3, hw.Key9, hw.KeyCLR)},
		{"udwhb", keyEvents(3, hw.KeyUp, hw.KeyDown, hw.KeyWave, hw.KeyHand, hw.KeyBoom)},
		{"\t0\r\n", keyEvents(4, hw.Key0, hw.KeyOK)}, // "\r\n" is one Enter
		{"\n", keyEvents(4, hw.KeyOK)},
		{"\x1b[Z1", keyEvents(3, hw.Key1)}, // Shift-Tab
		{"\x1b[C\x1b[C2", keyEvents(5, hw.Key2)},
		{"\x1b[D3", keyEvents(4, hw.Key3)},
		{"s1\r4", keyEvents(1, hw.Key4)}, // Enter ends an ambiguous seat number
		{"s12OK", nil},                   // "s12" is complete: O and K do nothing
		{"5", keyEvents(12, hw.Key5)},
		{"\t6", keyEvents(1, hw.Key6)}, // Tab wraps around
		{" lp", []hw.Event{pedalEvent(hw.PedalShort), pedalEvent(hw.PedalLong), pedalEvent(hw.PedalDouble)}},
	} {
		if _, err := io.WriteString(keys, s.keys); err != nil {
			t.Fatal(err)
		}
		expectEvents(t, tb, s.want)
	}
	// An unbound key is a note; the drawing catches up with every key.
	if _, err := io.WriteString(keys, "x"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &scr, ` 提示   「x」沒有作用`)
	keyRow := " 按鍵   "
	for _, k := range []string{"6", "-", "1", "3", "2", "-", "-", "-", "-", "-", "-", "5"} {
		keyRow += center(k, cellWidth)
	}
	f := scr.frame()
	for _, want := range []string{
		"wolftable · 虛擬桌子 · 12 個座位 · 連線正常",
		strings.TrimRight(keyRow, " ") + "\n",
		" 踏板   雙擊（第 3 次）",
		" 輸入   正在替 1 號輸入",
	} {
		if !strings.Contains(f, want) {
			t.Errorf("frame lacks %q:\n%s", want, f)
		}
	}
}

func waitFor(t *testing.T, scr *screen, text string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(scr.frame(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("the table never showed %q:\n%s", text, scr.frame())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestInteractiveSeatChoice(t *testing.T) {
	for _, tc := range []struct {
		name, keys string
		seat       int    // the seat chosen after the keys
		note       string // the note line
	}{
		{"one digit, unambiguous", "s5", 5, "正在替 5 號輸入"},
		{"two digits", "s11", 11, "正在替 11 號輸入"},
		{"ambiguous then Enter", "s1\r", 1, "正在替 1 號輸入"},
		{"ambiguous, waiting", "\ts1", 2, ""},
		{"no seat 0", "\ts0", 2, "沒有 0 號座位（1 到 12 號）"},
		{"no seat 19", "\ts19", 2, "沒有 19 號座位（1 到 12 號）"},
		{"Esc cancels", "\ts1\x1b", 2, "已取消選座位"},
		{"Backspace edits", "s1\x7f7", 7, "正在替 7 號輸入"},
		{"Backspace on nothing cancels", "\ts\x7f", 2, "已取消選座位"},
		{"Enter on nothing cancels", "\ts\r", 2, "已取消選座位"},
		{"s again restarts", "s1s4", 4, "正在替 4 號輸入"},
		{"Tab leaves the choice", "s1\t", 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var scr screen
			tb, err := New(strings.NewReader(tc.keys), &scr, WithSeats(12), WithClock(fixedClock))
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			for ev := range tb.Events() {
				if ev.Kind == hw.EventLink && !ev.Link.Up {
					break // the input ended: every key was handled
				}
				if ev.Kind == hw.EventKey {
					t.Errorf("seat choice reported a key: %+v", ev)
				}
			}
			if got := tb.Selected(); got != tc.seat {
				t.Errorf("seat %d, want %d", got, tc.seat)
			}
			f := scr.frame()
			if !strings.Contains(f, "\n 提示   "+tc.note+"\n") && !(tc.note == "" && strings.Contains(f, "\n 提示\n")) {
				t.Errorf("note: want %q:\n%s", tc.note, f)
			}
		})
	}
}

func TestInteractiveLights(t *testing.T) {
	var scr screen
	tb, err := New(blockingReader{}, &scr, WithSeats(6), WithClock(fixedClock))
	if err != nil {
		t.Fatal(err)
	}
	lights := []hw.SeatLight{
		{Color: hw.Green}, {Color: hw.Red, Pulse: true}, {Color: hw.Blue, Private: true},
		{}, {Color: hw.Green, Brightness: 10}, {Color: hw.Red},
	}
	if err := tb.SetLights(lights); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"wolftable · 虛擬桌子 · 6 個座位 · 連線正常",
		"",
		" 座位      1   [ 2]    3     4     5     6",
		" 燈號     綠    紅    藍*   暗    綠    紅",
		" 按鍵     -     -     -     -     -     -",
		"          ^^",
	}, "\n")
	if f := scr.frame(); !strings.HasPrefix(f, want) {
		t.Errorf("frame:\n%s\nwant it to start:\n%s", f, want)
	}
	// The colours are the ANSI ones: green, bold red (pulse), bright blue, dim.
	raw := scr.String()
	raw = raw[strings.LastIndex(raw, "\x1b[H"):]
	for _, code := range []string{"\x1b[32m  1 ", "\x1b[31;1m[ 2]", "\x1b[94m  3 ", "\x1b[2m  4 "} {
		if !strings.Contains(raw, code) {
			t.Errorf("drawing lacks %q", code)
		}
	}

	if err := tb.SetLights(lights[:5]); err == nil {
		t.Error("SetLights took 5 lights for 6 seats")
	}
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(scr.String(), "\x1b[?25h\x1b[?1049l") {
		t.Errorf("Close did not give the screen back: %q", tail(scr.String()))
	}
	if f := scr.frame(); !strings.Contains(f, " 燈號     暗    暗    暗    暗    暗    暗") {
		t.Errorf("lights not off at Close:\n%s", f)
	}
	if err := tb.SetLights(lights); !errors.Is(err, ErrClosed) {
		t.Errorf("SetLights after Close: %v", err)
	}
	for range tb.Events() {
	}
	if err := tb.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func tail(s string) string {
	if len(s) > 40 {
		return s[len(s)-40:]
	}
	return s
}

// blockingReader never returns, like a keyboard nobody touches.
type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

func TestPlain(t *testing.T) {
	script := strings.Join([]string{
		"# a vote",
		"3 OK",
		"7 9 ok",
		"",
		"  5   up  ",
		"2 12 OK",
		"pedal short",
		"PEDAL Double",
		"pedal long",
		"bogus",
		"13 OK",
		"4",
		"4 JUMP",
		"pedal",
		"pedal soft",
	}, "\n") + "\n"
	in, w := io.Pipe()
	var out screen
	tb, err := New(in, &out, WithSeats(12), WithStyle(Plain), WithClock(fixedClock))
	if err != nil {
		t.Fatal(err)
	}
	linkUp(t, tb)
	if err := tb.SetLights([]hw.SeatLight{{Color: hw.Green}, {Color: hw.Red, Pulse: true}, {Color: hw.Blue, Private: true}, {},
		{}, {}, {}, {}, {}, {}, {}, {Color: hw.Green}}); err != nil {
		t.Fatal(err)
	}
	go func() {
		io.WriteString(w, script)
		w.Close()
	}()
	var want []hw.Event
	want = append(want, keyEvents(3, hw.KeyOK)...)
	want = append(want, keyEvents(7, hw.Key9, hw.KeyOK)...)
	want = append(want, keyEvents(5, hw.KeyUp)...)
	want = append(want, keyEvents(2, hw.Key1, hw.Key2, hw.KeyOK)...)
	want = append(want, pedalEvent(hw.PedalShort), pedalEvent(hw.PedalDouble), pedalEvent(hw.PedalLong),
		hw.Event{Kind: hw.EventLink, At: t0, Link: hw.Link{Up: false, Detail: "虛擬桌：輸入已結束"}})
	expectEvents(t, tb, want)
	if err := tb.Close(); err != nil {
		t.Fatal(err)
	}
	wantOut := strings.Join([]string{
		"lights 1:green 2:red+pulse 3:blue+private 4:off 5:off 6:off 7:off 8:off 9:off 10:off 11:off 12:green",
		"seat 3: OK",
		"seat 7: 9 OK",
		"seat 5: UP",
		"seat 2: 1 2 OK",
		"pedal: short",
		"pedal: double",
		"pedal: long",
		`error: line 10: "bogus": expected a seat and its keys ("7 9 OK") or "pedal short|long|double"`,
		"error: line 11: there is no seat 13 (1..12)",
		"error: line 12: seat 4: no keys (0-9 OK CLR UP DOWN WAVE HAND BOOM)",
		`error: line 13: "JUMP" is not a key (0-9 OK CLR UP DOWN WAVE HAND BOOM)`,
		`error: line 14: "pedal": expected "pedal short", "pedal long" or "pedal double"`,
		`error: line 15: "soft" is not a pedal press (short, long, double)`,
		"虛擬桌：輸入已結束",
		"虛擬桌已關閉：燈全熄",
	}, "\n") + "\n"
	if got := out.String(); got != wantOut {
		t.Errorf("output:\n%s\nwant:\n%s", got, wantOut)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(strings.NewReader(""), io.Discard, WithSeats(5)); err == nil || err.Error() != "virtual: 5 seats is out of range 6..18" {
		t.Errorf("5 seats: %v", err)
	}
	if _, err := New(nil, io.Discard); err == nil {
		t.Error("nil input accepted")
	}
}

// Close runs the terminal's restore function and reports its error.
func TestCloseRestores(t *testing.T) {
	restored := 0
	tb, err := New(blockingReader{}, io.Discard, WithStyle(Plain), withOnClose(func() error {
		restored++
		return errors.New("virtual: restoring the terminal: gone")
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Close(); err == nil || restored != 1 {
		t.Errorf("Close: %v, restored %d times", err, restored)
	}
	if err := tb.Close(); err != nil || restored != 1 {
		t.Errorf("second Close: %v, restored %d times", err, restored)
	}
}

func TestKeyReaderSplitEscape(t *testing.T) {
	// An escape sequence split across reads is still one key.
	var r keyReader
	var got []action
	for _, b := range []byte("\x1b[1;2C\x1bOZ\x1bx") {
		if a := r.feed(b); a.kind != actNone {
			got = append(got, a)
		}
	}
	want := []actionKind{actCancel, actNext, actCancel, actPrev, actCancel, actUnbound}
	if len(got) != len(want) {
		t.Fatalf("actions %+v, want kinds %v", got, want)
	}
	for i := range want {
		if got[i].kind != want[i] {
			t.Errorf("action %d: %+v, want kind %v", i, got[i], want[i])
		}
	}
}
