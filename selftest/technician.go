package selftest

import (
	"context"
	"time"

	"wolftable/hw"
)

// Technician is the person at the table during the self-test: the one who
// presses the keys and the pedal and judges the lights and the speaker. The
// runner tells the technician what to do (prompts on the terminal, the
// seat's light, the voice) and then calls the matching method; it learns
// what happened from the table's events alone, never from the technician.
// The technician answers the runner's questions on the pedal (short: yes,
// right; long: no, wrong) or on the seat's own OK and CLR keys.
//
// A human technician (Human) does nothing in these methods: the human acts
// on the real table. The emulated run's robot does what the human would:
// it presses the emulator's keys and pedal, reads the LEDs back and steps
// on the pedal with its verdict.
type Technician interface {
	// Name says who the technician is, for the report.
	Name() string
	// Pace says how long the runner waits for the technician.
	Pace() Pace
	// LookAt is called each time the lights change during a seat's
	// lights walk, with the frame that should now show; it returns once
	// the technician has looked.
	LookAt(ctx context.Context, seat int, want []hw.SeatLight) error
	// JudgeLights is called after the seat's walk has shown every step
	// once: the technician now answers on the pedal, short if every
	// colour was right, long if not.
	JudgeLights(ctx context.Context, seat int) error
	// PressPedal asks for a press of the pedal.
	PressPedal(ctx context.Context, p hw.PedalPress) error
	// PressKeys asks for every key of the seat to be pressed once, in
	// order; it returns when the technician has done so (a human: at once).
	PressKeys(ctx context.Context, seat int, keys []hw.Key) error
	// Listen is called after the speaker's test line has played: the
	// technician answers on the pedal, short if it was heard, long if not.
	Listen(ctx context.Context) error
}

// Noter is implemented by a technician that can say what it saw wrong with
// a seat's lights (the robot); the runner adds it to the report.
type Noter interface {
	LightsNote(seat int) string
}

// Pace is how long the runner waits for a technician.
type Pace struct {
	// Dwell is how long each step of a lights walk shows at least.
	Dwell time.Duration
	// Answer is how long the runner waits for an answer or a press once
	// the technician has been asked (and the method has returned).
	Answer time.Duration
	// Settle is how long the runner waits, after PressKeys returns, for
	// presses still on their way before it counts keys missing.
	Settle time.Duration
	// Quiet is how long the runner listens after a seat's last key came
	// (and PressKeys returned) for a late bounce; at most BounceWindow.
	Quiet time.Duration
}

// Human is a person at the table. Every prompt goes to the terminal (and
// the voice, and the seat's light); the methods do nothing.
type Human struct {
	// Wait is how long a prompt waits for the technician (default 2 min).
	Wait time.Duration
}

var _ Technician = Human{}

// Name implements Technician.
func (Human) Name() string { return "真人（用桌子自己的按鍵與踏板）" }

// Pace implements Technician: each colour shows for 700 ms; prompts wait
// Wait.
func (h Human) Pace() Pace {
	w := h.Wait
	if w <= 0 {
		w = DefaultWait
	}
	return Pace{Dwell: 700 * time.Millisecond, Answer: w, Settle: w, Quiet: BounceWindow}
}

// DefaultWait is how long a prompt waits for a human technician.
const DefaultWait = 2 * time.Minute

// LookAt implements Technician: the human looks at the real table.
func (Human) LookAt(context.Context, int, []hw.SeatLight) error { return nil }

// JudgeLights implements Technician: the human answers on the pedal.
func (Human) JudgeLights(context.Context, int) error { return nil }

// PressPedal implements Technician: the human steps on the real pedal.
func (Human) PressPedal(context.Context, hw.PedalPress) error { return nil }

// PressKeys implements Technician: the human presses the real keys.
func (Human) PressKeys(context.Context, int, []hw.Key) error { return nil }

// Listen implements Technician: the human answers on the pedal.
func (Human) Listen(context.Context) error { return nil }
