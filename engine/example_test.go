package engine_test

import (
	"fmt"
	"strings"

	"wolftable/boards"
	"wolftable/engine"
)

// Example plays the first night of 預女獵愚 (seer-witch-hunter-idiot): the
// wolves knife seat 5, the witch saves, the seer checks seat 1. The runtime's
// part is to perform the effects and to feed back inputs: here the timers
// expire at once, in the order they were started, and nobody runs for
// sheriff.
func Example() {
	b, err := boards.Get("seer-witch-hunter-idiot")
	if err != nil {
		panic(err)
	}
	deal := []engine.Role{
		engine.Werewolf, engine.Werewolf, engine.Werewolf, engine.Werewolf,
		engine.Seer, engine.Witch, engine.Hunter, engine.Idiot,
		engine.Villager, engine.Villager, engine.Villager, engine.Villager,
	}
	g, err := engine.New(engine.Config{Board: b, Deal: deal, Seed: 1})
	if err != nil {
		panic(err)
	}
	var timers []engine.TimerID
	show := func(effects []engine.Effect) {
		for _, e := range effects {
			switch e.Kind {
			case engine.EffSay:
				fmt.Println("say", e.Line, e.Args)
			case engine.EffCue:
				fmt.Println("  cue", e.Seat, e.Line, e.Args)
			case engine.EffRecord:
				if r := e.Record; r.Type == engine.RecAction || r.Type == engine.RecCheck {
					fmt.Println(strings.TrimSpace(fmt.Sprintln("  record", r.Type, r.Kind, r.By, r.Target, r.Result)))
				}
			case engine.EffTimerStart:
				timers = append(timers, e.Timer)
			}
		}
	}
	apply := func(in engine.Input) {
		effects, err := g.Apply(in)
		if err != nil {
			panic(err)
		}
		show(effects)
	}
	effects, _ := g.Start()
	show(effects)
	acted := map[engine.StepKind]bool{}
	for {
		p := g.Awaiting()
		if p.Step == engine.WaitSpeech || len(timers) == 0 {
			break // day 1: the first speech
		}
		if k := p.StepKind; p.Step == engine.WaitNight && !acted[k] {
			acted[k] = true
			switch k {
			case engine.StepWolves:
				for _, w := range p.Actors {
					apply(engine.SeatTarget(w, 5))
				}
			case engine.StepWitch:
				apply(engine.SeatGesture(6, engine.ActUp))
			case engine.StepSeer:
				apply(engine.SeatTarget(5, 1))
			}
			continue
		}
		id := timers[0]
		timers = timers[1:]
		// a timer its step cancelled is refused (ErrUnknownTimer): skip it
		if effects, err := g.Apply(engine.TimerExpired(id)); err == nil {
			show(effects)
		}
	}
	// Output:
	// say game.start []
	// say night.wolves.open []
	// say night.wolves.ask []
	// say night.wolves.hurry []
	// say night.confirm []
	// record action kill 0 5
	// say night.wolves.close []
	// say night.witch.open []
	// say night.witch.victim []
	//   cue 6 cue.witch.victim [6 5]
	// say night.witch.ask []
	// say night.witch.hurry []
	// say night.witch.confirm.ask []
	// record action save 6 5
	// say night.witch.close []
	// say night.seer.open []
	// say night.confirm []
	// say night.seer.result []
	//   cue 5 cue.seer.wolf [5 1]
	// record check  5 1 狼人
	// say night.seer.close []
	// say night.hunter.open []
	// say night.hunter.status []
	//   cue 7 cue.hunter.can [7]
	// say night.hunter.close []
	// say night.idiot.open []
	// say night.idiot.close []
	// say signup.ask []
	// say count.321 []
	// say signup.none []
	// say day.dawn []
	// say day.peaceful []
	// say speech.start [12]
}
