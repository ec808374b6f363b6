package daemon

import (
	"time"

	"wolftable/engine"
)

// due is something scheduled: an engine timer or a player's move.
type due struct {
	at    time.Time
	rank  int // equal times: timers (0), then the moves by their rank
	timer engine.TimerID
	move  *move
}

func (a due) before(b due) bool {
	if !a.at.Equal(b.at) {
		return a.at.Before(b.at)
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.timer < b.timer
}
