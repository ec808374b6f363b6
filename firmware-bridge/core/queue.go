package core

import "wolftable/firmware-bridge/protocol"

// QueueLen is the capacity of an EventQueue.
const QueueLen = 64

// EventQueue is a fixed-capacity FIFO of key events. When it is full, Push
// drops the new event and counts an overflow: the events already queued keep
// their order. The zero EventQueue is empty and ready to use.
type EventQueue struct {
	buf       [QueueLen]protocol.KeyEvent
	head, n   int
	overflows uint32
}

// Push appends e, or counts an overflow and reports false if the queue is
// full.
func (q *EventQueue) Push(e protocol.KeyEvent) bool {
	if q.n == len(q.buf) {
		q.overflows++
		return false
	}
	q.buf[(q.head+q.n)%len(q.buf)] = e
	q.n++
	return true
}

// Pop removes and returns the oldest event.
func (q *EventQueue) Pop() (protocol.KeyEvent, bool) {
	if q.n == 0 {
		return protocol.KeyEvent{}, false
	}
	e := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	return e, true
}

// Len returns the number of queued events.
func (q *EventQueue) Len() int { return q.n }

// Overflows returns how many events Push has dropped since the start.
func (q *EventQueue) Overflows() uint32 { return q.overflows }
