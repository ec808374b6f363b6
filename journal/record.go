package journal

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"wolftable/engine"
)

// FormatVersion is the newest version of the file format this package
// writes and reads (doc.go). Format 2 added the end record's signature;
// format 3 adds the bottom cards to the header; format 4 the seat draw
// (who sits at each seat). Create writes the lowest format that holds the
// header: 4 only for a game with a draw, 3 for one with bottom cards, 2 for
// any other, so a journal without them stays readable by builds that know
// format 2; format 1 journals (unsigned) are still read.
const FormatVersion = 4

// formatBottom is the first format whose header holds the bottom cards.
const formatBottom = 3

// formatDraw is the first format whose header holds the seat draw.
const formatDraw = 4

// formatFor is the format Create writes for h: the lowest that holds it.
func formatFor(h *Header) int {
	switch {
	case len(h.Draw) > 0:
		return formatDraw
	case len(h.Bottom) > 0:
		return formatBottom
	}
	return 2
}

// Extension is the file name extension of a journal.
const Extension = ".wtj"

// Kind is the type of a record: the first byte of its body.
type Kind byte

// The record kinds. The header is always record 0 and only record 0.
const (
	KindHeader  Kind = 1 // the game's setup (Header)
	KindStart   Kind = 2 // engine.Game.Start was called
	KindInput   Kind = 3 // one engine.Input, journaled before the engine saw it
	KindRefused Kind = 4 // the engine refused the input of the record before
	KindEnd     Kind = 5 // the journal is closed: the game's result
)

func (k Kind) String() string {
	switch k {
	case KindHeader:
		return "header"
	case KindStart:
		return "start"
	case KindInput:
		return "input"
	case KindRefused:
		return "refused"
	case KindEnd:
		return "end"
	}
	return fmt.Sprintf("kind(%d)", byte(k))
}

// Header is record 0: everything a replay needs besides the inputs.
type Header struct {
	Format   int    // file format version; Create sets FormatVersion
	Software string // the software version that wrote the journal
	GameID   string // [A-Za-z0-9-], 1..32 bytes; Create makes one when empty
	Board    string // the board id (boards.Get)
	// Options are every rule option of the board as played (engine.OptionNames
	// keys, engine.Options.Get values), so a replay uses the same rules even
	// if the defaults or the board file change.
	Options map[string]string
	// Nights is the board's night order as played, one plan per entry in the
	// board-file syntax ("1 wolves/90/hurry=60 witch/30/hurry=15", "2- …").
	// Replay refuses a board whose night order differs.
	Nights []string
	Seed   uint64        // engine.Config.Seed
	Deal   []engine.Role // Deal[i] is the role of seat i+1
	Seats  int           // the table's seat count (at least len(Deal))
	Start  time.Time     // wall time the journal was created; its zone is kept
	// Bottom are the bottom cards: the cards dealt beyond the seats
	// (engine.Config.Bottom; a thief picks from them). Format 3 and up.
	Bottom []engine.Role
	// Draw is the seat draw: who sits at each seat, by seat (Draw[i] is
	// seat i+1, every seat of the deal once), or none (a casual game, an
	// older journal). It is in the header, so the end record's signature
	// covers it. Format 4 and up.
	Draw []Drawn
	// DrawManual: the draw was taken as the players drew it (paper
	// numbers), not drawn at random by the table.
	DrawManual bool
}

// Drawn is one seat of a seat draw: the player who sits there.
type Drawn struct {
	Seat     int    // 1..len(Deal)
	PlayerID string // the desk's player id; may be empty (a name typed at the table)
	Name     string // the player's name as the table showed it
}

// WithDraw is h with the seat draw d (and how it was taken) and the format
// that holds it; nil d removes the draw.
func (h Header) WithDraw(d []Drawn, manual bool) Header {
	h.Draw = append([]Drawn(nil), d...)
	if len(d) == 0 {
		h.Draw = nil
		manual = false
	}
	h.DrawManual = manual
	if h.Format == 0 || h.Format < formatFor(&h) {
		h.Format = formatFor(&h)
	}
	return h
}

// maxPlayerID bounds a drawn player's id, in bytes.
const maxPlayerID = 64

// checkDraw validates a header's seat draw.
func (h *Header) checkDraw() error {
	if (len(h.Draw) > 0 || h.DrawManual) && h.Format < formatDraw {
		return fmt.Errorf("a seat draw in a format %d header (a draw needs format %d)", h.Format, formatDraw)
	}
	if h.DrawManual && len(h.Draw) == 0 {
		return fmt.Errorf("a manual seat draw without seats")
	}
	if len(h.Draw) == 0 {
		return nil
	}
	if len(h.Draw) != len(h.Deal) {
		return fmt.Errorf("a seat draw of %d seats for %d players", len(h.Draw), len(h.Deal))
	}
	ids := map[string]int{}
	for i, d := range h.Draw {
		if d.Seat != i+1 {
			return fmt.Errorf("seat draw entry %d is seat %d (want the seats in order, each once)", i+1, d.Seat)
		}
		if err := checkText(fmt.Sprintf("name of seat %d", d.Seat), d.Name, false); err != nil {
			return err
		}
		if err := checkText(fmt.Sprintf("player id of seat %d", d.Seat), d.PlayerID, true); err != nil {
			return err
		}
		if len(d.PlayerID) > maxPlayerID {
			return fmt.Errorf("player id of seat %d is longer than %d bytes", d.Seat, maxPlayerID)
		}
		if d.PlayerID == "" {
			continue
		}
		if at, ok := ids[d.PlayerID]; ok {
			return fmt.Errorf("player %q drawn at seats %d and %d", d.PlayerID, at, d.Seat)
		}
		ids[d.PlayerID] = d.Seat
	}
	return nil
}

// Record is one record after the header.
type Record struct {
	Kind   Kind
	Wall   time.Time // wall time the record was written (the input applied)
	Source string    // who or what gave it: "seat-7", "pedal", "timer", "clock", "console:judge@192.0.2.1", "engine"

	Input  engine.Input     // KindInput: the input, every field
	Code   engine.ErrorCode // KindRefused: the engine's error code
	Reason string           // KindRefused: the engine's message
	Result string           // KindEnd: the winner (好人 狼人 流局), or "" for none
	// KindEnd of a format 2 journal: Signed, then the table's ed25519
	// public key and its signature of the game (Writer.End, doc.go).
	Signed    bool
	PublicKey [32]byte
	Signature [64]byte

	// Set by Read and Load; ignored by Append.
	Index  int      // position in the file: the header is 0
	Offset int64    // byte offset of the record's frame
	Hash   [32]byte // the chain hash stored with the record
}

// StartRecord is the record of engine.Game.Start.
func StartRecord(wall time.Time, source string) Record {
	return Record{Kind: KindStart, Wall: wall, Source: source}
}

// InputRecord is the record of one engine input.
func InputRecord(wall time.Time, source string, in engine.Input) Record {
	return Record{Kind: KindInput, Wall: wall, Source: source, Input: in}
}

// RefusedRecord is the record that the engine refused the input before it.
func RefusedRecord(wall time.Time, err *engine.Error) Record {
	return Record{Kind: KindRefused, Wall: wall, Source: "engine", Code: err.Code, Reason: err.Msg}
}

// EndRecord closes the journal with the game's result ("" for none).
func EndRecord(wall time.Time, source, result string) Record {
	return Record{Kind: KindEnd, Wall: wall, Source: source, Result: result}
}

// SourceOf is the conventional source of an input that came from the
// table itself: "seat-N", "pedal", "timer", "clock", or "console" for a
// judge command (the runtime should say which console: "console:judge@ADDR").
func SourceOf(in engine.Input) string {
	switch in.Kind {
	case engine.InSeat:
		return "seat-" + strconv.Itoa(in.Seat)
	case engine.InPedal:
		return "pedal"
	case engine.InTimer:
		return "timer"
	case engine.InClock:
		return "clock"
	case engine.InJudge:
		return "console"
	}
	return "unknown"
}

// HeaderFor fills a header from the board as it will be played, for a game
// without bottom cards (format 2); see HeaderForCards.
func HeaderFor(b *engine.Board, deal []engine.Role, seed uint64, seats int, start time.Time, software string) Header {
	return HeaderForCards(b, deal, nil, seed, seats, start, software)
}

// HeaderForCards fills a header from the board as it will be played, with
// its bottom cards (engine.DealCards); the format is the lowest that holds
// them (formatFor).
func HeaderForCards(b *engine.Board, deal, bottom []engine.Role, seed uint64, seats int, start time.Time, software string) Header {
	h := Header{
		Software: software,
		Board:    b.ID,
		Options:  map[string]string{},
		Nights:   nightSpecs(b),
		Seed:     seed,
		Deal:     append([]engine.Role(nil), deal...),
		Seats:    seats,
		Start:    start,
	}
	if len(bottom) > 0 {
		h.Bottom = append([]engine.Role(nil), bottom...)
	}
	h.Format = formatFor(&h)
	for _, k := range engine.OptionNames() {
		v, _ := b.Options.Get(k)
		h.Options[k] = v
	}
	return h
}

// nightSpecs writes a board's night order in the board-file syntax.
func nightSpecs(b *engine.Board) []string {
	out := make([]string, 0, len(b.Nights))
	for _, p := range b.Nights {
		var s strings.Builder
		switch {
		case p.To == 0:
			fmt.Fprintf(&s, "%d-", p.From)
		case p.To == p.From:
			fmt.Fprintf(&s, "%d", p.From)
		default:
			fmt.Fprintf(&s, "%d-%d", p.From, p.To)
		}
		for _, st := range p.Steps {
			fmt.Fprintf(&s, " %s/%d", st.Kind, st.Seconds)
			if st.Hurry != 0 {
				fmt.Fprintf(&s, "/hurry=%d", st.Hurry)
			}
			if st.Mark != "" {
				fmt.Fprintf(&s, "/mark=%s", st.Mark)
			}
		}
		out = append(out, s.String())
	}
	return out
}

// Limits on what a journal holds; the reader refuses anything beyond them.
const (
	maxString = 1024 // bytes of any text field
	maxSeats  = 64
	maxList   = 256 // options, nights
	maxBottom = 2   // bottom cards (a thief picks from two)
)

var gameIDPattern = regexp.MustCompile(`^[A-Za-z0-9-]{1,32}$`)

func checkText(field, s string, empty bool) error {
	switch {
	case !empty && s == "":
		return fmt.Errorf("%s is empty", field)
	case len(s) > maxString:
		return fmt.Errorf("%s is longer than %d bytes", field, maxString)
	case !utf8.ValidString(s):
		return fmt.Errorf("%s is not UTF-8", field)
	}
	return nil
}

// checkTime accepts the times a journal stores: Unix nanoseconds, years
// 1678..2262, never the zero time.
func checkTime(field string, t time.Time) error {
	if t.IsZero() {
		return fmt.Errorf("no %s", field)
	}
	if !time.Unix(0, t.UnixNano()).Equal(t) {
		return fmt.Errorf("%s %v out of range", field, t)
	}
	return nil
}

// check validates a header as the writer requires it and the reader accepts it.
func (h *Header) check() error {
	if h.Format < 1 || h.Format > FormatVersion {
		return fmt.Errorf("format version %d (this build reads 1..%d)", h.Format, FormatVersion)
	}
	if err := checkText("software version", h.Software, false); err != nil {
		return err
	}
	if !gameIDPattern.MatchString(h.GameID) {
		return fmt.Errorf("game id %q: want 1..32 of A-Z a-z 0-9 -", h.GameID)
	}
	if err := checkText("board id", h.Board, false); err != nil {
		return err
	}
	if len(h.Options) == 0 || len(h.Options) > maxList {
		return fmt.Errorf("%d board options (want 1..%d; see HeaderFor)", len(h.Options), maxList)
	}
	for k, v := range h.Options {
		if err := checkText("option key", k, false); err != nil {
			return err
		}
		if err := checkText("option "+k, v, true); err != nil {
			return err
		}
	}
	if len(h.Nights) == 0 || len(h.Nights) > maxList {
		return fmt.Errorf("%d night plans (want 1..%d; see HeaderFor)", len(h.Nights), maxList)
	}
	for _, n := range h.Nights {
		if err := checkText("night plan", n, false); err != nil {
			return err
		}
	}
	if len(h.Deal) == 0 || len(h.Deal) > maxSeats {
		return fmt.Errorf("deal of %d roles (want 1..%d)", len(h.Deal), maxSeats)
	}
	for i, r := range h.Deal {
		if err := checkText(fmt.Sprintf("role of seat %d", i+1), string(r), false); err != nil {
			return err
		}
	}
	if h.Seats < len(h.Deal) || h.Seats > maxSeats {
		return fmt.Errorf("table of %d seats for %d players", h.Seats, len(h.Deal))
	}
	if len(h.Bottom) > 0 && h.Format < formatBottom {
		return fmt.Errorf("%d bottom cards in a format %d header (bottom cards need format %d)", len(h.Bottom), h.Format, formatBottom)
	}
	if len(h.Bottom) > maxBottom {
		return fmt.Errorf("%d bottom cards (want 0..%d)", len(h.Bottom), maxBottom)
	}
	for i, r := range h.Bottom {
		if err := checkText(fmt.Sprintf("bottom card %d", i+1), string(r), false); err != nil {
			return err
		}
	}
	if err := h.checkDraw(); err != nil {
		return err
	}
	return checkTime("start time", h.Start)
}

// check validates a record after the header.
func (r *Record) check() error {
	switch r.Kind {
	case KindStart, KindInput, KindRefused, KindEnd:
	case KindHeader:
		return fmt.Errorf("a header record after record 0")
	default:
		return fmt.Errorf("unknown record kind %d", byte(r.Kind))
	}
	if err := checkTime("wall time", r.Wall); err != nil {
		return err
	}
	if err := checkText("source", r.Source, false); err != nil {
		return err
	}
	// Fields of another kind would not be written: refuse them rather than
	// drop them silently.
	switch {
	case r.Kind != KindInput && r.Input != (engine.Input{}):
		return fmt.Errorf("%s record with an input (use an input record)", r.Kind)
	case r.Kind != KindRefused && (r.Code != 0 || r.Reason != ""):
		return fmt.Errorf("%s record with an engine error", r.Kind)
	case r.Kind != KindEnd && r.Result != "":
		return fmt.Errorf("%s record with a result", r.Kind)
	case !r.Signed && (r.PublicKey != [32]byte{} || r.Signature != [64]byte{}):
		return fmt.Errorf("%s record with a key or signature but not signed", r.Kind)
	case r.Kind != KindEnd && r.Signed:
		return fmt.Errorf("%s record with a signature", r.Kind)
	}
	if err := checkText("reason", r.Reason, true); err != nil {
		return err
	}
	return checkText("result", r.Result, true)
}

// order enforces the sequence rules of doc.go: prev is the kind of the
// record before (KindHeader for the first), started whether a start record
// came already.
func order(prev Kind, started bool, k Kind) error {
	switch {
	case prev == KindEnd:
		return fmt.Errorf("%s record after the end record", k)
	case k == KindStart && started:
		return fmt.Errorf("second start record")
	case k == KindRefused && prev != KindInput:
		return fmt.Errorf("refused record that does not follow an input record")
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
