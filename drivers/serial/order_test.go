package serial

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"wolftable/firmware-bridge/protocol"
)

// seqRig drives a sequencer and records what it delivers.
type seqRig struct {
	t   *testing.T
	q   sequencer
	now time.Time
	got []string
}

func newSeqRig(t *testing.T, helloSeq uint8) *seqRig {
	r := &seqRig{t: t, now: time.Unix(1000, 0)}
	r.q.out = func(ev protocol.KeyEvent, _ uint8, at time.Time, synthetic bool) {
		s := fmt.Sprintf("%d/%v/%v/%d", ev.Seat, ev.Key, ev.Edge, ev.Counter)
		if synthetic {
			s += "*"
		}
		r.got = append(r.got, s)
	}
	r.q.session(helloSeq)
	return r
}

// key feeds a KeyEvent frame with seq; micros defaults from the counter.
func (r *seqRig) key(seq, seat uint8, key protocol.Key, edge protocol.Edge, counter uint16, micros uint32) bool {
	r.q.frame(seq, r.now)
	return r.q.keyEvent(protocol.KeyEvent{Seat: seat, Key: key, Edge: edge, Counter: counter, Micros: micros}, seq, r.now, r.now)
}

// other feeds a frame of another type (a Ping, a Pong…) with seq.
func (r *seqRig) other(seq uint8) { r.q.frame(seq, r.now) }

func (r *seqRig) wait(d time.Duration) {
	r.now = r.now.Add(d)
	r.q.release(r.now)
}

func (r *seqRig) expect(want ...string) {
	r.t.Helper()
	if got := strings.Join(r.got, " "); got != strings.Join(want, " ") {
		r.t.Errorf("delivered %q, want %q", got, strings.Join(want, " "))
	}
	r.got = nil
}

const (
	down = protocol.EdgeDown
	up   = protocol.EdgeUp
)

func TestSequencerInOrder(t *testing.T) {
	r := newSeqRig(t, 10)
	r.key(11, 7, protocol.KeyOK, down, 1, 100)
	r.other(12)
	r.key(13, 7, protocol.KeyOK, up, 1, 200)
	r.expect("7/OK/down/1", "7/OK/up/1")
	if dup := !r.key(11, 7, protocol.KeyOK, down, 1, 100); !dup {
		t.Error("retransmission not recognised")
	}
	r.expect()
	if r.q.heldBack != 0 {
		t.Errorf("heldBack %d", r.q.heldBack)
	}
}

// A lost KeyEvent's successors wait for its retransmission.
func TestSequencerGapFilled(t *testing.T) {
	r := newSeqRig(t, 0)
	r.key(1, 3, protocol.Key5, down, 1, 100)
	// seq 2 (seat 3 OK down) is lost
	r.key(3, 3, protocol.Key5, up, 1, 300)
	r.key(4, 3, protocol.KeyOK, up, 1, 400)
	r.expect("3/5/down/1")
	r.wait(100 * time.Millisecond)
	r.expect()
	r.key(2, 3, protocol.KeyOK, down, 1, 200) // the retransmission
	r.expect("3/OK/down/1", "3/5/up/1", "3/OK/up/1")
}

// A lost heartbeat holds key events back for GapWait, no longer.
func TestSequencerGapExpires(t *testing.T) {
	r := newSeqRig(t, 250)
	// seq 251 (a Ping) is lost
	r.key(252, 1, protocol.Key1, down, 1, 100) // across the wrap too
	r.key(253, 1, protocol.Key1, up, 1, 200)
	r.expect()
	r.wait(GapWait - time.Millisecond)
	r.expect()
	r.wait(time.Millisecond)
	r.expect("1/1/down/1", "1/1/up/1")
}

// An edge whose predecessor never comes is delivered after KeyWait, with
// the missing edge supplied; the predecessor, if it comes later, is a
// duplicate.
func TestSequencerSuppliesLostEdge(t *testing.T) {
	r := newSeqRig(t, 0)
	r.key(1, 2, protocol.KeyHand, down, 1, 100)
	r.expect("2/HAND/down/1")
	r.wait(time.Second) // the up of press 1 and its seq gap are long gone
	r.key(5, 2, protocol.KeyHand, down, 2, 5000)
	r.wait(GapWait)
	r.expect()
	r.wait(KeyWait)
	r.expect("2/HAND/up/1*", "2/HAND/down/2")
	if !r.key(3, 2, protocol.KeyHand, up, 1, 4000) {
		r.expect()
	} else {
		t.Error("the supplied edge's real one was not taken as a duplicate")
	}
}

// An up with no down before it waits for its down.
func TestSequencerUpWaitsForDown(t *testing.T) {
	r := newSeqRig(t, 0)
	r.key(2, 0, protocol.KeyPedal, up, 1, 200)
	r.wait(GapWait)
	r.expect()
	r.key(1, 0, protocol.KeyPedal, down, 1, 100)
	r.expect("0/PEDAL/down/1", "0/PEDAL/up/1")
}

// An up of a key the host never heard of, with no down after KeyWait, is
// delivered alone: its down went to an earlier host process, which took
// the press (the bridge forgets an edge only once acked). Before, the
// sequencer supplied a down, and the next host made the press a second
// time (the soak: a HAND journaled after a kill with no key event of its
// own).
func TestSequencerFirstUpAlone(t *testing.T) {
	r := newSeqRig(t, 0)
	r.key(1, 4, protocol.KeyHand, up, 3, 3000)
	r.wait(KeyWait)
	r.expect("4/HAND/up/3")
	r.key(2, 4, protocol.KeyHand, down, 4, 4000) // the next press as usual
	r.expect("4/HAND/down/4")
}

// After a reboot the counters start from 1 again: new presses, not
// duplicates, delivered at once.
func TestSequencerAfterReboot(t *testing.T) {
	r := newSeqRig(t, 0)
	for c := uint16(1); c <= 3; c++ {
		r.key(uint8(2*c-1), 5, protocol.Key0, down, c, uint32(c)*1000)
		r.key(uint8(2*c), 5, protocol.Key0, up, c, uint32(c)*1000+500)
	}
	r.got = nil
	r.q.flush()
	r.q.session(0) // the rebooted bridge's Hello
	r.key(1, 5, protocol.Key0, down, 1, 7777)
	r.key(2, 5, protocol.Key0, up, 1, 8888)
	r.expect("5/0/down/1", "5/0/up/1")
}

func TestBridgeClock(t *testing.T) {
	var c bridgeClock
	now := time.Unix(5000, 0)
	if got := c.at(123, now); !got.Equal(now) {
		t.Errorf("before any sample: %v, want now", got)
	}
	boot := now.Add(-10 * time.Second)
	c.sample(now.Add(3*time.Millisecond), 10_000)  // 3 ms late
	c.sample(now.Add(11*time.Millisecond), 10_010) // 1 ms late: the best
	c.sample(now.Add(25*time.Millisecond), 10_020) // 5 ms late
	if d := c.boot.Sub(boot); d != time.Millisecond {
		t.Errorf("boot estimate off by %v, want 1ms", d)
	}
	recv := now.Add(time.Second)
	edge := recv.Add(-40 * time.Millisecond)
	micros := uint32(edge.Sub(boot) / time.Microsecond)
	if got := c.at(micros, recv); got.Sub(edge) != time.Millisecond {
		t.Errorf("edge mapped %v off, want 1ms (the estimate's error)", got.Sub(edge))
	}
	if got := c.at(micros+100_000, recv); !got.Equal(recv) {
		t.Errorf("an edge 'in the future' maps to %v, want now", got)
	}
	// The bridge's µs clock wraps every 71.6 minutes.
	late := boot.Add(72 * time.Minute)
	edge = late.Add(-2 * time.Second)
	micros = uint32(uint64(edge.Sub(boot)/time.Microsecond) % (1 << 32))
	if got := c.at(micros, late); got.Sub(edge) != time.Millisecond {
		t.Errorf("after the wrap: %v off", got.Sub(edge))
	}
	for range clockSamples { // old samples age out
		c.sample(now.Add(time.Minute), 70_000-20) // 20 ms late
	}
	if d := c.boot.Sub(boot); d != 20*time.Millisecond {
		t.Errorf("after the window: off by %v, want 20ms", d)
	}
}

// FuzzSequencerKeepsKeysConsistent: whatever frames arrive, in whatever
// order, with whatever gaps and repeats, the sequencer never panics, each
// key's delivered edges alternate down, up, down… and no event the bridge
// sent is delivered twice.
func FuzzSequencerKeepsKeysConsistent(f *testing.F) {
	f.Add([]byte{1, 7, 10, 1, 0, 1, 0, 2, 7, 10, 0, 0, 1, 0})
	f.Add([]byte{3, 0, 17, 0, 0, 1, 9, 1, 0, 17, 1, 0, 1, 200, 2, 0, 17, 1, 0, 2, 9})
	f.Add([]byte{5, 2, 15, 1, 0, 2, 50, 4, 2, 15, 1, 0, 1, 255, 5, 2, 15, 1, 0, 2, 50})
	f.Fuzz(func(t *testing.T, ops []byte) {
		type key struct{ seat, key uint8 }
		var q sequencer
		down := map[key]bool{}
		delivered := map[protocol.KeyEvent]bool{}
		q.out = func(ev protocol.KeyEvent, _ uint8, at time.Time, synthetic bool) {
			k := key{ev.Seat, uint8(ev.Key)}
			if isDown := ev.Edge == protocol.EdgeDown; isDown == down[k] {
				t.Fatalf("seat %d %v: %v twice in a row", ev.Seat, ev.Key, ev.Edge)
			}
			down[k] = ev.Edge == protocol.EdgeDown
			if !synthetic {
				if delivered[ev] {
					t.Fatalf("%+v delivered twice", ev)
				}
				delivered[ev] = true
			}
		}
		now := time.Unix(0, 0)
		q.session(0)
		// Each op: seq, seat, key, edge, counter high bit, counter low, wait (×10 ms).
		for len(ops) >= 7 {
			op := ops[:7]
			ops = ops[7:]
			ev := protocol.KeyEvent{
				Seat: op[1] % (protocol.MaxSeats + 1), Edge: protocol.Edge(op[3] & 1),
				Counter: uint16(op[4]&1)<<8 | uint16(op[5]), Micros: uint32(op[5]) * 1000,
			}
			ev.Key = protocol.Key(int(op[2]) % protocol.NumSeatKeys)
			if ev.Seat == 0 {
				ev.Key = protocol.KeyPedal
			}
			q.frame(op[0], now)
			q.keyEvent(ev, op[0], now, now)
			now = now.Add(time.Duration(op[6]) * 10 * time.Millisecond)
			q.release(now)
			if op[6] == 255 { // a reconnection
				q.flush()
				q.session(op[0])
			}
		}
		q.flush()
	})
}
