package daemon

import (
	"time"

	"wolftable/bots"
	"wolftable/engine"
)

// botPlayers make every seat a random player and press the judge's pedal
// (sim --bots). Their inputs take the same path as the table's.
type botPlayers struct {
	d    *Daemon
	drv  *bots.Driver
	cfg  BotConfig
	seq  int
	stop []Stopper
}

func newBots(d *Daemon, cfg BotConfig) *botPlayers {
	if cfg.Think <= 0 {
		cfg.Think = 1500 * time.Millisecond
	}
	if cfg.Pedal <= 0 {
		cfg.Pedal = 4 * time.Second
	}
	return &botPlayers{d: d, drv: bots.New(d.g, cfg.Seed), cfg: cfg}
}

// schedule plans the players' choices and the judge's pedal for a new step.
// It runs on the daemon's goroutine.
func (b *botPlayers) schedule() {
	seq := b.d.g.StepSeq()
	if seq == b.seq || seq == 0 {
		return
	}
	b.seq = seq
	for _, s := range b.stop {
		s.Stop()
	}
	b.stop = b.stop[:0]
	p := b.d.g.Awaiting()
	b.drv.Reseed(b.cfg.Seed, uint64(seq)) // the same choices for the same step after a resume
	choices := append([]engine.Input(nil), b.drv.Choices(p)...)
	d := b.d
	send := func(in engine.Input, source string) {
		r := request{in: in, source: source, reply: make(chan error, 1), step: seq}
		select {
		case d.reqs <- r:
			<-r.reply
		case <-d.done:
		}
	}
	if len(choices) > 0 {
		b.stop = append(b.stop, d.clock.AfterFunc(d.scaled(b.cfg.Think), func() {
			for _, in := range choices {
				send(in, "bot")
			}
		}))
	}
	if p.Pedal {
		b.stop = append(b.stop, d.clock.AfterFunc(d.scaled(b.cfg.Think+b.cfg.Pedal), func() {
			send(engine.Pedal(engine.PedalShort), "bot-judge")
		}))
	}
}
