package desk

import "time"

// A table learns what became of its record by asking the desk (issue 28
// D1, issue 27 item 3): JetStream's acknowledgement only says the stream
// has the message, and a "duplicate" from JetStream could be another
// table's message with the same id. The table publishes on its own
// subject wolftable.table.<name>.ask (the broker lets no table publish on
// another's) and the desk answers from its store for that table only.

// KindAsk is the subject kind of a table's question to its desk.
const KindAsk = "ask"

// Ask is a table's question: does the desk hold the record with this
// final hash for me, and what did it do with my attempt (the
// Wolftable-Attempt header of one publication; "" asks about the hash only)?
type Ask struct {
	Hash    string `json:"hash"`
	Digest  string `json:"digest,omitempty"` // sha256 of the bytes sent
	Attempt string `json:"attempt,omitempty"`
}

// The states of a Verdict.
const (
	VerdictStored    = "stored"  // the desk holds the hash for this table (stored now or before)
	VerdictRefused   = "refused" // the attempt was refused: Reason says why
	VerdictUnknown   = "unknown" // nothing yet (not consumed; or another desk's restart lost it)
	AttemptHeader    = "Wolftable-Attempt"
	FileHeader       = "Wolftable-File"
	maxAskBytes      = 4 << 10
	attemptIDLen     = 32
	refusedReasonMax = 600 // bytes of a reason kept (a marker, a listing)
)

// Verdict is the desk's answer to an Ask.
type Verdict struct {
	State       string `json:"state"`
	Reason      string `json:"reason,omitempty"`      // refused: the desk's reason (Chinese)
	Fingerprint string `json:"fingerprint,omitempty"` // stored: the record's fingerprint
	Duplicate   bool   `json:"duplicate,omitempty"`   // stored: the desk held it before this attempt
}

// SentSuffix marks a journal the desk confirmed it holds: "<file>.sent".
// RefusedSuffix marks one the desk refused, with its reason:
// "<file>.refused"; `wolftable record resend` removes it.
const (
	SentSuffix    = ".sent"
	RefusedSuffix = ".refused"
)

// Marker is what a .sent file holds.
type Marker struct {
	Hash        string    `json:"hash"`
	Fingerprint string    `json:"fingerprint,omitempty"`
	Stream      string    `json:"stream,omitempty"`
	Seq         uint64    `json:"seq,omitempty"`
	Duplicate   bool      `json:"duplicate"` // the desk had it already
	At          time.Time `json:"at"`
}

// RefusedMarker is what a .refused file holds.
type RefusedMarker struct {
	Hash    string    `json:"hash"`
	Attempt string    `json:"attempt"`
	Reason  string    `json:"reason"`
	At      time.Time `json:"at"`
}

// ClipReason bounds a reason's length (bytes, on a rune boundary).
func ClipReason(s string) string { return clip(s, refusedReasonMax) }

// clip cuts s to at most n bytes on a rune boundary, marked with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
