package serial

import (
	"time"

	"wolftable/firmware-bridge/protocol"
)

// How long the sequencer holds key events back to keep them in order.
const (
	// GapWait: a frame from the bridge went missing (its seq was skipped).
	// If it was a KeyEvent the bridge resends it every 100 ms
	// (core.RetransmitMicros) until it gets through; later key events wait
	// this long for it, five chances. A lost heartbeat costs the same wait,
	// since the host cannot tell which kind of frame it lost; USB does not
	// lose frames, so only a noisy line pays it.
	GapWait = 500 * time.Millisecond
	// KeyWait: a key's edge came before the edge that must precede it (an up
	// before its down, a press before the last release). It waits this long
	// for the missing edge, then the sequencer supplies it.
	KeyWait = 2 * time.Second

	dedupeDepth = 8  // recent events remembered per (seat, key, edge)
	maxGap      = 64 // a jump of more seqs than this is not counted as lost frames
)

// eventID identifies one edge of one press: a retransmission repeats both
// the press counter and the bridge's timestamp.
type eventID struct {
	counter uint16
	micros  uint32
	valid   bool
	anyTime bool // an edge the sequencer supplied: any timestamp matches
}

// held is a key event waiting for its turn.
type held struct {
	ev   protocol.KeyEvent
	seq  uint8
	at   time.Time // when it happened, host time
	recv time.Time // when it arrived
}

// keyState is what the consumer has been told about one key.
type keyState struct {
	known bool   // an edge of this key has been delivered
	last  uint32 // its index: 2·counter + 1 for up (mod 2¹⁷)
	down  bool   // the key is down, as far as the consumer knows
}

// sequencer turns the bridge's KeyEvents into a stream the consumer can
// trust: each edge once, each key's edges alternating down/up in press
// order, and all keys in the order the bridge first sent them.
//
// The bridge keeps several KeyEvents unacked at once (core.MaxInFlight), so
// when a frame is lost on the line the events after it arrive before its
// retransmission. The sequencer notices lost frames by the gaps in the
// bridge's seq numbers and holds later key events back, in seq order, for up
// to GapWait; and it holds an edge that comes before its key's previous one
// for up to KeyWait, then supplies the missing edge (marked synthetic) so
// that no key is left down.
//
// Duplicates are recognised by seat, key, edge, press counter and bridge
// timestamp, across reconnections; a bridge that rebooted (counters back to
// 1) sends new timestamps, so its presses are never taken for old ones.
type sequencer struct {
	seen [protocol.MaxSeats + 1][protocol.NumKeys][2][dedupeDepth]eventID
	next [protocol.MaxSeats + 1][protocol.NumKeys][2]uint8
	keys [protocol.MaxSeats + 1][protocol.NumKeys]keyState

	hi      uint8          // the newest seq seen this session
	missing [256]time.Time // when each missing seq was noticed; zero: not missing
	held    []held         // oldest seq first

	// out receives each event in order, with the seq of the bridge's frame;
	// synthetic marks an edge the bridge's own was lost for.
	out func(ev protocol.KeyEvent, seq uint8, at time.Time, synthetic bool)

	lastSeq uint8 // seq of the last event delivered this session
	anyYet  bool  // an event has been delivered this session

	heldBack    uint64 // events that had to wait for an earlier one
	synthesized uint64 // edges supplied for lost ones
	late        uint64 // events delivered after a later one
}

// session starts a session whose Hello had seq helloSeq: seq gaps are
// counted from there.
func (q *sequencer) session(helloSeq uint8) {
	q.hi = helloSeq
	q.missing = [256]time.Time{}
	q.anyYet = false
}

// frame notes a valid frame with seq from the bridge, of any type.
func (q *sequencer) frame(seq uint8, now time.Time) {
	if d := int8(seq - q.hi); d > 0 {
		if d <= maxGap {
			for s := q.hi + 1; s != seq; s++ {
				q.missing[s] = now
			}
		}
		q.hi = seq
		return
	}
	q.missing[seq] = time.Time{} // a retransmission fills its gap
}

// age is how many seqs before the newest s is.
func (q *sequencer) age(s uint8) uint8 { return q.hi - s }

// gapBefore reports whether a frame older than seq is missing and may still
// come.
func (q *sequencer) gapBefore(seq uint8, now time.Time) bool {
	for a := int(q.age(seq)) + 1; a <= 127; a++ {
		s := q.hi - uint8(a)
		if t := q.missing[s]; !t.IsZero() {
			if now.Sub(t) < GapWait {
				return true
			}
			q.missing[s] = time.Time{}
		}
	}
	return false
}

// first reports whether ev is new, and remembers it.
func (q *sequencer) first(ev *protocol.KeyEvent) bool {
	ring := &q.seen[ev.Seat][ev.Key][ev.Edge]
	for _, s := range ring {
		if s.valid && s.counter == ev.Counter && (s.anyTime || s.micros == ev.Micros) {
			return false
		}
	}
	q.remember(ev, false)
	return true
}

func (q *sequencer) remember(ev *protocol.KeyEvent, anyTime bool) {
	n := &q.next[ev.Seat][ev.Key][ev.Edge]
	q.seen[ev.Seat][ev.Key][ev.Edge][*n] = eventID{counter: ev.Counter, micros: ev.Micros, valid: true, anyTime: anyTime}
	*n = (*n + 1) % dedupeDepth
}

// keyEvent takes a KeyEvent the Decoder has checked, sent with seq and
// dated at; it reports false for a duplicate. frame(seq) must have been
// called.
func (q *sequencer) keyEvent(ev protocol.KeyEvent, seq uint8, at, now time.Time) bool {
	if int(ev.Seat) > protocol.MaxSeats || !ev.Key.Valid() || ev.Edge > protocol.EdgeDown {
		return false
	}
	if !q.first(&ev) {
		return false
	}
	h := held{ev: ev, seq: seq, at: at, recv: now}
	i := len(q.held)
	for i > 0 && q.age(q.held[i-1].seq) < q.age(seq) {
		i--
	}
	q.held = append(q.held, held{})
	copy(q.held[i+1:], q.held[i:])
	q.held[i] = h
	q.release(now)
	for _, x := range q.held {
		if x.seq == seq && x.ev == ev {
			q.heldBack++
			break
		}
	}
	return true
}

func index(ev *protocol.KeyEvent) uint32 {
	i := 2 * uint32(ev.Counter)
	if ev.Edge == protocol.EdgeUp {
		i++
	}
	return i
}

const indexMask = 1<<17 - 1

// inOrder reports whether h may be delivered as far as its key is
// concerned: it is the key's next edge, or an edge from before (after a
// reboot the counters start again).
func (q *sequencer) inOrder(h *held) bool {
	st := &q.keys[h.ev.Seat][h.ev.Key]
	if !st.known {
		return h.ev.Edge == protocol.EdgeDown || st.down
	}
	d := (index(&h.ev) - st.last) & indexMask
	return d == 1 || d == 0 || d >= 1<<16
}

// release delivers the held events that may go, oldest first; an event
// that must wait holds back those behind it.
func (q *sequencer) release(now time.Time) {
	for len(q.held) > 0 {
		h := &q.held[0]
		if q.gapBefore(h.seq, now) || (!q.inOrder(h) && now.Sub(h.recv) < KeyWait) {
			return
		}
		if q.anyYet && int8(h.seq-q.lastSeq) < 0 {
			q.late++
		}
		q.lastSeq, q.anyYet = h.seq, true
		q.deliver(*h)
		q.held[0] = held{}
		q.held = q.held[1:]
	}
}

// settled reports whether every key event up to now has been delivered as
// far as the sequencer knows: none held, no missing frame awaited. Until
// then an edge may still come that happened before now.
func (q *sequencer) settled(now time.Time) bool {
	return len(q.held) == 0 && !q.gapBefore(q.hi, now)
}

// flush delivers everything held, at the end of a session.
func (q *sequencer) flush() {
	for _, h := range q.held {
		q.deliver(h)
	}
	q.held = q.held[:0]
}

// deliver hands h out, first supplying the opposite edge if the key's last
// one was lost for good. A key this host never heard of whose first edge
// is an up gets no down supplied: its down went to an earlier host (the
// bridge forgets an edge only once acked), which took the press, and a
// press supplied again would be a press made twice.
func (q *sequencer) deliver(h held) {
	st := &q.keys[h.ev.Seat][h.ev.Key]
	down := h.ev.Edge == protocol.EdgeDown
	if down == st.down && st.known {
		syn := h.ev
		if down {
			syn.Edge, syn.Counter = protocol.EdgeUp, h.ev.Counter-1
		} else {
			syn.Edge = protocol.EdgeDown
		}
		q.remember(&syn, true)
		q.synthesized++
		q.out(syn, h.seq, h.at, true)
	}
	q.out(h.ev, h.seq, h.at, false)
	*st = keyState{known: true, last: index(&h.ev), down: down}
}
