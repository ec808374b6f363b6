package desk

import "time"

// Status is a table's public state, as it publishes it on
// wolftable.table.<name>.status: what anyone at the table can see, never a
// role, a night choice or a judge's cue (nothing hidden while a game runs).
type Status struct {
	Table     string    `json:"table"`
	Game      string    `json:"game,omitempty"` // the journal's game id
	Board     string    `json:"board,omitempty"`
	BoardName string    `json:"board_name,omitempty"`
	Phase     string    `json:"phase,omitempty"` // night-1, day-1; "" before the start
	Seats     int       `json:"seats,omitempty"`
	Alive     []int     `json:"alive,omitempty"`   // seats whose light is not off
	Sheriff   int       `json:"sheriff,omitempty"` // 0 = none
	Result    string    `json:"result,omitempty"`  // 好人 狼人 流局 第三方 once over
	LinkUp    bool      `json:"link_up"`           // the seat panels' link
	Link      string    `json:"link,omitempty"`
	Outbox    int       `json:"outbox"` // finished journals the desk has not acknowledged
	At        time.Time `json:"at"`     // when the table sent it (the heartbeat)
}

// Event is a start, end or penalty message (wolftable.table.<name>.start
// etc.): live information for the desk's page. What counts is the record.
type Event struct {
	Table  string    `json:"table"`
	Game   string    `json:"game,omitempty"`
	Board  string    `json:"board,omitempty"`
	Seat   int       `json:"seat,omitempty"`   // penalty
	Points float64   `json:"points,omitempty"` // penalty
	Result string    `json:"result,omitempty"` // end
	Hash   string    `json:"hash,omitempty"`   // end: the journal's final hash
	At     time.Time `json:"at"`
}
