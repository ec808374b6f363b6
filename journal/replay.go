package journal

import (
	"fmt"
	"strings"
	"time"

	"wolftable/boards"
	"wolftable/engine"
)

// BoardSource finds a board by id; boards.Get is one.
type BoardSource func(id string) (*engine.Board, error)

// Event is one thing the replay of a record gave: an effect of the engine
// (a deep copy: it outlives the next Apply), or, when Refused is set, the
// engine's refusal of the record's input (Effect is then zero).
type Event struct {
	Record  int // index of the journal record (its start or input) that caused it
	Wall    time.Time
	Source  string
	Effect  engine.Effect
	Refused *engine.Error
}

// Replay rebuilds the game of a verified journal: the board from get with
// the header's options (a board whose night order changed since the game is
// refused), the deal and seed from the header, then every start and input
// record through the engine, in order. It returns the game as it stands
// after the last record and every effect, in order.
//
// The engine must do what it did when the game was played: an input it
// refuses is an error unless the journal recorded that refusal (a
// KindRefused record right after it), or unless it is the journal's last
// record (the power went before its refusal could be journaled: the
// refusal is returned as an Event, and Resume journals it). An input it accepts
// that the journal says was refused, and an end record whose result is not
// the engine's, are errors too. Errors are *ReplayError.
func Replay(j *Journal, get BoardSource) (*engine.Game, []Event, error) {
	h := &j.Header
	fail := func(r *Record, err error, format string, a ...any) error {
		e := &ReplayError{Path: j.Path, Msg: fmt.Sprintf(format, a...), Err: err}
		if r != nil {
			e.Index, e.Offset = r.Index, r.Offset
		} else {
			e.Offset = int64(len(Magic))
		}
		return e
	}
	b, err := get(h.Board)
	if err != nil {
		return nil, nil, fail(nil, err, "board %q", h.Board)
	}
	board := *b // the options change below: never the caller's board
	for _, k := range sortedKeys(h.Options) {
		if v, ok := board.Options.Get(k); ok && v == h.Options[k] {
			continue // some values read back ("" = unset) that Set refuses
		}
		if err := board.Options.Set(k, h.Options[k]); err != nil {
			return nil, nil, fail(nil, err, "the game's board options no longer apply")
		}
	}
	if now := nightSpecs(&board); strings.Join(now, "\n") != strings.Join(h.Nights, "\n") {
		return nil, nil, fail(nil, nil, "board %s's night order changed since the game: played with %q, now %q", h.Board, h.Nights, now)
	}
	g, err := engine.New(engine.Config{Board: &board, Deal: h.Deal, Bottom: h.Bottom, Seed: h.Seed})
	if err != nil {
		return nil, nil, fail(nil, err, "cannot deal the game")
	}
	var events []Event
	emit := func(r *Record, effs []engine.Effect) {
		for _, e := range effs {
			events = append(events, Event{Record: r.Index, Wall: r.Wall, Source: r.Source, Effect: copyEffect(e)})
		}
	}
	recs := j.Records
	for i := 0; i < len(recs); i++ {
		r := &recs[i]
		var refusal *Record
		if i+1 < len(recs) && recs[i+1].Kind == KindRefused {
			refusal = &recs[i+1]
		}
		switch r.Kind {
		case KindStart:
			effs, err := g.Start()
			if err != nil {
				return nil, nil, fail(r, err, "the engine refuses to start the game")
			}
			emit(r, effs)
		case KindInput:
			effs, err := g.Apply(r.Input)
			if err == nil {
				if refusal != nil {
					return nil, nil, fail(r, nil, "the engine accepts %s, which it refused when the game was played (%q)", DescribeInput(r.Input), refusal.Reason)
				}
				emit(r, effs)
				continue
			}
			ee := engineError(err)
			switch {
			case ee == nil:
				return nil, nil, fail(r, err, "%s", DescribeInput(r.Input))
			case refusal != nil && refusal.Code == ee.Code:
				i++ // the refusal, as journaled
			case refusal != nil:
				return nil, nil, fail(r, err, "the engine refuses %s for another reason than when the game was played (%q)", DescribeInput(r.Input), refusal.Reason)
			case i == len(recs)-1:
				// The last record: the power went before its refusal was journaled.
			default:
				return nil, nil, fail(r, err, "the engine refuses %s, which it accepted when the game was played", DescribeInput(r.Input))
			}
			events = append(events, Event{Record: r.Index, Wall: r.Wall, Source: r.Source, Refused: ee})
		case KindRefused:
			// Only ever after an input (the reader checks): consumed above.
			return nil, nil, fail(r, nil, "a refused record that follows no input")
		case KindEnd:
			over, winner := g.Over()
			switch {
			case r.Result == "":
			case !over:
				return nil, nil, fail(r, nil, "the end record says %s, but the replayed game has no result", r.Result)
			case string(winner) != r.Result:
				return nil, nil, fail(r, nil, "the end record says %s, the replayed game %s", r.Result, winner)
			}
		}
	}
	return g, events, nil
}

// copyEffect copies an effect and everything it points to.
func copyEffect(e engine.Effect) engine.Effect {
	if e.Args != nil {
		e.Args = append(make([]int, 0, len(e.Args)), e.Args...)
	}
	if e.Record != nil {
		r := *e.Record
		if r.Ballots != nil {
			b := *r.Ballots
			if b.Votes != nil {
				b.Votes = append(make([]engine.Vote, 0, len(b.Votes)), b.Votes...)
			}
			if b.Tally != nil {
				b.Tally = append(make([]engine.Tally, 0, len(b.Tally)), b.Tally...)
			}
			r.Ballots = &b
		}
		e.Record = &r
	}
	return e
}

// Resume reopens an unfinished journal after a restart and rebuilds its
// game: OpenAppend, then Replay. If the journal's last input is one the
// engine refuses (the power went between the input and its refusal), the
// refusal is journaled now, with that input's wall time. The runtime then
// carries on with the returned Writer and game.
func Resume(path string, get BoardSource) (*Writer, *engine.Game, []Event, error) {
	w, j, err := OpenAppend(path)
	if err != nil {
		return nil, nil, nil, err
	}
	g, events, err := Replay(j, get)
	if err != nil {
		w.Close()
		return nil, nil, nil, err
	}
	if n := len(j.Records); n > 0 && j.Records[n-1].Kind == KindInput && len(events) > 0 {
		if e := events[len(events)-1]; e.Refused != nil && e.Record == j.Records[n-1].Index {
			if err := w.Append(RefusedRecord(j.Records[n-1].Wall, e.Refused)); err != nil {
				w.Close()
				return nil, nil, nil, err
			}
		}
	}
	return w, g, events, nil
}

// DescribeInput is an input in words, for messages and listings:
// "seat 3 target 5", "pedal short", "timer 12", "clock 20:15",
// "judge penalty seat 5 1.5".
func DescribeInput(in engine.Input) string {
	switch in.Kind {
	case engine.InSeat:
		if in.Action == engine.ActTarget {
			return fmt.Sprintf("seat %d target %d", in.Seat, in.Target)
		}
		return fmt.Sprintf("seat %d %s", in.Seat, in.Action)
	case engine.InPedal:
		switch in.Pedal {
		case engine.PedalShort:
			return "pedal short"
		case engine.PedalLong:
			return "pedal long"
		case engine.PedalDouble:
			return "pedal double"
		}
		return fmt.Sprintf("pedal %d", int(in.Pedal))
	case engine.InTimer:
		return fmt.Sprintf("timer %d", int(in.Timer))
	case engine.InClock:
		return fmt.Sprintf("clock %02d:%02d", in.Hour, in.Minute)
	case engine.InJudge:
		names := map[engine.JudgeCommand]string{engine.JudgeDQ: "dq", engine.JudgeVoid: "void", engine.JudgePenalty: "penalty",
			engine.JudgeUndo: "undo", engine.JudgeRepeat: "repeat", engine.JudgePause: "pause", engine.JudgeResume: "resume"}
		name, ok := names[in.Judge]
		if !ok {
			name = fmt.Sprintf("command %d", int(in.Judge))
		}
		switch in.Judge {
		case engine.JudgePenalty:
			return fmt.Sprintf("judge %s seat %d %v", name, in.Seat, in.Points)
		case engine.JudgeDQ:
			return fmt.Sprintf("judge %s seat %d", name, in.Seat)
		}
		return "judge " + name
	}
	return fmt.Sprintf("input %+v", in)
}

// embedded is the board source of the CLI and of Show and Verify.
func embedded(id string) (*engine.Board, error) { return boards.Get(id) }
