package desk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrNoDesk is Publisher.Roster's error while the table has no desk link.
var ErrNoDesk = errors.New("desk: no link to the desk")

// Roster asks the desk for this table's players of the open round (the
// desk answers from its seating plan; Roster.Reason says why there are
// none). It waits at most 5 s.
func (p *Publisher) Roster(ctx context.Context) (Roster, error) {
	if p == nil || p.nc == nil {
		return Roster{}, ErrNoDesk
	}
	actx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	msg, err := p.nc.RequestWithContext(actx, Subject(p.cfg.Creds.Table, KindRoster), []byte("{}"))
	if err != nil {
		return Roster{}, err
	}
	var r Roster
	if len(msg.Data) > MaxRosterBytes {
		return Roster{}, fmt.Errorf("desk: a roster of %d bytes", len(msg.Data))
	}
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		return Roster{}, fmt.Errorf("desk: the desk's roster: %w", err)
	}
	return r, nil
}

// MaxRosterBytes bounds the desk's roster answer.
const MaxRosterBytes = 64 << 10
