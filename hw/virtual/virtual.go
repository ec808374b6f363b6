package virtual

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"wolftable/hw"
)

// Style is how the table talks to its reader and writer.
type Style uint8

const (
	// Interactive redraws the table in place with ANSI escapes and reads
	// single keys (a terminal in raw mode).
	Interactive Style = iota
	// Plain writes one line per change and reads one command per line.
	Plain
)

func (s Style) String() string {
	if s == Plain {
		return "plain"
	}
	return "interactive"
}

// Option configures New.
type Option func(*options)

type options struct {
	seats   int
	style   Style
	now     func() time.Time
	onClose []func() error
	text    func(string) string
}

// WithSeats sets the number of seats (6..18; default 12).
func WithSeats(n int) Option { return func(o *options) { o.seats = n } }

// WithStyle sets the style (default Interactive).
func WithStyle(s Style) Option { return func(o *options) { o.style = s } }

// WithText writes everything the table draws or prints through f: the
// venue's script (hans.Script.Text turns the words, written in
// Traditional, into Simplified). nil writes the words as they are.
func WithText(f func(string) string) Option { return func(o *options) { o.text = f } }

// WithClock sets the clock that stamps events (default time.Now).
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// withOnClose runs f at the end of Close (OpenTerminal restores the
// terminal with it).
func withOnClose(f func() error) Option {
	return func(o *options) { o.onClose = append(o.onClose, f) }
}

// ErrClosed is returned by a Table used after Close.
var ErrClosed = errors.New("virtual: table closed")

// Table implements hw.Table in a terminal.
type Table struct {
	seats   int
	style   Style
	now     func() time.Time
	out     io.Writer
	text    func(string) string // the venue's script (WithText); nil: as written
	onClose []func() error

	events chan hw.Event
	done   chan struct{}
	emitMu sync.Mutex // serialises sends with closing events

	mu      sync.Mutex // guards what follows and writes to out
	closed  bool
	lights  []hw.SeatLight
	lastKey []string // per seat (index 0 = seat 1): the last key pressed
	sel     int      // the seat the keyboard types for, 1..seats
	picking bool     // after 's': reading a seat number
	picked  string   // the digits read so far
	pedal   string   // the last pedal press
	presses int      // pedal presses so far
	status  string   // a one-line message under the table
	link    string
	keys    keyReader
	said    []string // the last lines the judge's voice said (interactive)
	info    []string // lines drawn inside the frame under its title (SetInfo)
}

var _ hw.Table = (*Table)(nil)

// New returns a virtual table reading keys from in and drawing on out. It
// starts reading at once, in its own goroutine.
func New(in io.Reader, out io.Writer, opts ...Option) (*Table, error) {
	o := options{seats: 12, style: Interactive, now: time.Now}
	for _, f := range opts {
		f(&o)
	}
	if o.seats < hw.MinSeats || o.seats > hw.MaxSeats {
		return nil, fmt.Errorf("virtual: %d seats is out of range %d..%d", o.seats, hw.MinSeats, hw.MaxSeats)
	}
	if in == nil || out == nil {
		return nil, errors.New("virtual: New needs an input and an output")
	}
	t := &Table{
		seats:   o.seats,
		style:   o.style,
		now:     o.now,
		out:     out,
		text:    o.text,
		onClose: o.onClose,
		events:  make(chan hw.Event, 64),
		done:    make(chan struct{}),
		lights:  make([]hw.SeatLight, o.seats),
		lastKey: make([]string, o.seats),
		sel:     1,
		link:    "連線正常",
	}
	t.emit(hw.Event{Kind: hw.EventLink, At: t.now(), Link: hw.Link{Up: true, Detail: "virtual table (" + o.style.String() + ")"}})
	t.mu.Lock()
	if t.style == Interactive {
		// Alternate screen, cursor hidden, screen cleared.
		t.write("\x1b[?1049h\x1b[?25l\x1b[2J")
		t.drawLocked()
	}
	t.mu.Unlock()
	if t.style == Interactive {
		go t.readKeys(in)
	} else {
		go t.readLines(in)
	}
	return t, nil
}

// Seats implements hw.Table.
func (t *Table) Seats() int { return t.seats }

// Events implements hw.Table.
func (t *Table) Events() <-chan hw.Event { return t.events }

// SetLights implements hw.Table.
func (t *Table) SetLights(lights []hw.SeatLight) error {
	if len(lights) != t.seats {
		return fmt.Errorf("virtual: SetLights: %d lights for %d seats", len(lights), t.seats)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return ErrClosed
	}
	copy(t.lights, lights)
	if t.style == Interactive {
		t.drawLocked()
	} else {
		t.write(plainLights(t.lights) + "\n")
	}
	return nil
}

// Close implements hw.Table: the lights go off, the events channel closes,
// the terminal is given back. Closing twice is harmless.
func (t *Table) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	clear(t.lights)
	if t.style == Interactive {
		t.drawLocked()
		t.write("\x1b[?25h\x1b[?1049l")
	} else {
		t.write("虛擬桌已關閉：燈全熄\n")
	}
	t.closed = true
	t.mu.Unlock()

	close(t.done)
	t.emitMu.Lock()
	close(t.events)
	t.emitMu.Unlock()

	var errs []error
	for _, f := range t.onClose {
		errs = append(errs, f())
	}
	return errors.Join(errs...)
}

// emit delivers an event unless the table is closed. It blocks while the
// channel is full.
func (t *Table) emit(ev hw.Event) {
	t.emitMu.Lock()
	defer t.emitMu.Unlock()
	select {
	case <-t.done:
		return
	default:
	}
	select {
	case t.events <- ev:
	case <-t.done:
	}
}

// press reports a seat key going down and up, and notes it for the drawing.
func (t *Table) press(seat int, keys ...hw.Key) {
	at := t.now()
	for _, k := range keys {
		for _, e := range []hw.Edge{hw.Down, hw.Up} {
			t.emit(hw.Event{Kind: hw.EventKey, At: at, Key: hw.KeyEvent{Seat: seat, Key: k, Edge: e, At: at}})
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(keys) > 0 {
		t.lastKey[seat-1] = keys[len(keys)-1].String()
	}
}

func (t *Table) pedalPress(p hw.PedalPress) {
	t.emit(hw.Event{Kind: hw.EventPedal, At: t.now(), Pedal: p})
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pedal = p.String()
	t.presses++
}

// inputEnded reports the end of the input as a link going down.
func (t *Table) inputEnded(err error) {
	detail := "虛擬桌：輸入已結束"
	if err != nil && !errors.Is(err, io.EOF) {
		detail = "虛擬桌：輸入讀取失敗：" + err.Error()
	}
	t.mu.Lock()
	closed := t.closed
	if !closed {
		t.link = "連線中斷：輸入已結束"
		if t.style == Interactive {
			t.drawLocked()
		} else {
			t.write(detail + "\n")
		}
	}
	t.mu.Unlock()
	if !closed {
		t.emit(hw.Event{Kind: hw.EventLink, At: t.now(), Link: hw.Link{Up: false, Detail: detail}})
	}
}

// write writes to out; t.mu must be held. Output errors are ignored: a
// broken terminal must not stop the game.
func (t *Table) write(s string) {
	if t.text != nil {
		s = t.text(s)
	}
	_, _ = io.WriteString(t.out, s)
}

// readKeys is the interactive input loop.
func (t *Table) readKeys(in io.Reader) {
	buf := make([]byte, 256)
	for {
		n, err := in.Read(buf)
		for _, b := range buf[:n] {
			a := t.keys.feed(b)
			t.act(a)
		}
		if err != nil {
			t.inputEnded(err)
			return
		}
	}
}

// act applies one keyboard action.
func (t *Table) act(a action) {
	if a.kind == actNone {
		return
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	var seat int
	var key hw.Key
	var pedal hw.PedalPress
	emitKey, emitPedal := false, false
	t.status = ""

	if t.picking {
		switch a.kind {
		case actKey:
			if a.key <= hw.Key9 {
				t.picked += a.key.String()
				t.pickCheck(false)
				t.drawLocked()
				t.mu.Unlock()
				return
			}
			if a.key == hw.KeyOK {
				t.pickCheck(true)
				t.drawLocked()
				t.mu.Unlock()
				return
			}
			if a.key == hw.KeyCLR && t.picked != "" {
				t.picked = t.picked[:len(t.picked)-1]
				t.drawLocked()
				t.mu.Unlock()
				return
			}
		case actPick:
			t.picked = ""
			t.drawLocked()
			t.mu.Unlock()
			return
		}
		t.picking, t.picked = false, ""
		if a.kind == actCancel || a.kind == actKey && a.key == hw.KeyCLR {
			t.status = "已取消選座位"
			t.drawLocked()
			t.mu.Unlock()
			return
		}
	}

	switch a.kind {
	case actPick:
		t.picking, t.picked = true, ""
	case actNext:
		t.sel = t.sel%t.seats + 1
	case actPrev:
		t.sel = (t.sel+t.seats-2)%t.seats + 1
	case actKey:
		seat, key, emitKey = t.sel, a.key, true
	case actPedal:
		pedal, emitPedal = a.pedal, true
	case actUnbound:
		t.status = fmt.Sprintf("「%s」沒有作用（按鍵說明見下方）", printable(a.b))
	}
	t.drawLocked()
	t.mu.Unlock()

	if emitKey {
		t.press(seat, key)
	}
	if emitPedal {
		t.pedalPress(pedal)
	}
	if emitKey || emitPedal {
		t.mu.Lock()
		if !t.closed {
			t.drawLocked()
		}
		t.mu.Unlock()
	}
}

// pickCheck ends a seat choice once the digits name one seat; t.mu held.
func (t *Table) pickCheck(enter bool) {
	n := 0
	for _, c := range t.picked {
		n = n*10 + int(c-'0')
		if n > 99 {
			break
		}
	}
	switch {
	case t.picked == "" && enter:
		t.picking = false
		t.status = "已取消選座位"
	case t.picked == "":
	case n < 1 || n > t.seats:
		t.picking, t.picked = false, ""
		t.status = fmt.Sprintf("沒有 %d 號座位（1 到 %d 號）", n, t.seats)
	case enter || n*10 > t.seats:
		t.picking, t.picked = false, ""
		t.sel = n
		t.status = fmt.Sprintf("正在替 %d 號輸入", n)
	}
}

// readLines is the plain input loop.
func (t *Table) readLines(in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 4096), 64<<10)
	line := 0
	for sc.Scan() {
		line++
		cmd, err := parseLine(sc.Text(), t.seats)
		t.mu.Lock()
		if t.closed {
			t.mu.Unlock()
			return
		}
		switch {
		case err != nil:
			t.write(fmt.Sprintf("error: line %d: %v\n", line, err))
		case cmd.pedal != nil:
			t.write(fmt.Sprintf("pedal: %v\n", *cmd.pedal))
		case cmd.seat > 0:
			t.write(fmt.Sprintf("seat %d: %s\n", cmd.seat, keyList(cmd.keys)))
		}
		t.mu.Unlock()
		switch {
		case err != nil:
		case cmd.pedal != nil:
			t.pedalPress(*cmd.pedal)
		case cmd.seat > 0:
			t.press(cmd.seat, cmd.keys...)
		}
	}
	t.inputEnded(sc.Err())
}

func keyList(keys []hw.Key) string {
	s := ""
	for i, k := range keys {
		if i > 0 {
			s += " "
		}
		s += k.String()
	}
	return s
}

// transcriptLines is how many said lines the interactive table shows.
const transcriptLines = 12

// Show adds a line of the judge's transcript: drawn under the table in the
// interactive style (the last few lines), printed as "say …" in the plain
// style.
func (t *Table) Show(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	if t.style != Interactive {
		t.write("say " + text + "\n")
		return
	}
	t.said = append(t.said, text)
	if len(t.said) > transcriptLines {
		t.said = t.said[len(t.said)-transcriptLines:]
	}
	t.drawLocked()
}

// SetInfo sets lines the interactive table draws inside its frame, under
// its title, for as long as it runs: what a program printed before the
// table covered the screen (the judge console's address and PIN). The
// plain style prints them once, as they are.
func (t *Table) SetInfo(lines ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	if t.style != Interactive {
		for _, l := range lines {
			t.write(l + "\n")
		}
		return
	}
	t.info = slices.Clone(lines)
	t.drawLocked()
}

// Lights returns the lights as last set (all off after Close).
func (t *Table) Lights() []hw.SeatLight {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.lights)
}

// Selected returns the seat the keyboard types for.
func (t *Table) Selected() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sel
}

// printable is a typed byte as the note shows it: itself, or its code.
func printable(b byte) string {
	if b >= 0x20 && b < 0x7f {
		return string([]byte{b})
	}
	return fmt.Sprintf("0x%02x", b)
}
