package core_test

// A model of the USB link as the Pico firmware has it: TinyGo 0.39's USB CDC
// on the RP2040 (machine/usb/cdc; the transmit and receive rings are those
// of 0.33's source, which 0.39 keeps) and, on the far end, Linux's cdc-acm
// under a host program. The model works in 50 µs steps; the firmware's
// main loop (cmd/pico) is modelled by picoLoop.

import (
	"wolftable/firmware-bridge/core"
	"wolftable/firmware-bridge/protocol"
)

const (
	stepMicros   = 50  // the model's time step
	packetLen    = 64  // a full-speed bulk packet
	txPackets    = 8   // TinyGo's transmit ring, besides the packet in the endpoint
	rxRingLen    = 128 // TinyGo's receive ring
	urbLen       = 128 // cdc-acm's read URB: it completes when full or on a short packet
	showMicros   = 1500
	lightsMicros = 20_000
)

// tinygoCDC is the device's USB CDC, as core.Port sees it, and the bus and
// the host's cdc-acm around it.
type tinygoCDC struct {
	now uint64

	// The device. Write drops what it gets while lineState is down, drops a
	// write into a full ring and overwrites queued packets with one that
	// overflows it; it always reports success.
	lineState bool // DTR as the device last heard it
	ring      [txPackets]struct {
		buf  [packetLen]byte
		size int
	}
	head, tail uint8
	armed      []byte // the packet in the endpoint, waiting for the host
	waitTxc    bool   // a packet is armed (TinyGo's flag)
	rx         []byte // the receive ring

	droppedWrites, overwrites, rxDropped int
	fullIntoIdle                         int // writes of exactly one full packet into an idle ring (M1)
	writes, maxWrite                     int

	// The host. While its port is open cdc-acm collects the device's
	// packets (unless its USB stopped: collecting false) into URBs, and
	// hands a completed URB to the program; what the program writes goes
	// out as fast as USB takes it, or paced.
	open       bool
	collecting bool
	urb        []byte
	toProgram  []byte // delivered, not yet read by the program
	toDevice   []byte // written by the program, not yet sent
	accepted   uint64 // bytes TinyGo's ring took, since the start
	delivered  uint64 // of those, bytes handed to the program
	inFlight   []writeMark
	maxLatency uint64 // µs from a Write to the program having its bytes
}

type writeMark struct{ end, at uint64 }

var _ core.Port = (*tinygoCDC)(nil)

func (c *tinygoCDC) Buffered() int { return len(c.rx) }
func (c *tinygoCDC) DTR() bool     { return c.lineState }

func (c *tinygoCDC) ReadByte() (byte, error) {
	if len(c.rx) == 0 {
		return 0, protocol.FaultShort // any error
	}
	b := c.rx[0]
	c.rx = c.rx[1:]
	return b, nil
}

func (c *tinygoCDC) used() uint8 { return c.head - c.tail }

func (c *tinygoCDC) Write(p []byte) (int, error) {
	c.writes++
	c.maxWrite = max(c.maxWrite, len(p))
	if !c.lineState {
		return len(p), nil
	}
	if c.used() == 0 && !c.waitTxc && len(p) == packetLen {
		c.fullIntoIdle++
	}
	if c.used() == txPackets {
		c.droppedWrites++
		return len(p), nil
	}
	if c.used() == 0 {
		c.head++
		c.ring[c.head%txPackets].size = 0
	}
	buf := &c.ring[c.head%txPackets]
	for _, b := range p {
		if buf.size == packetLen {
			c.head++
			buf = &c.ring[c.head%txPackets]
			buf.size = 0
		}
		buf.buf[buf.size] = b
		buf.size++
	}
	if c.used() > txPackets {
		c.overwrites++
	}
	c.accepted += uint64(len(p))
	c.inFlight = append(c.inFlight, writeMark{c.accepted, c.now})
	if !c.waitTxc {
		c.waitTxc = true
		c.flush()
	}
	return len(p), nil
}

// flush arms the next queued packet, as TinyGo does when the last one went.
func (c *tinygoCDC) flush() {
	if c.used() == 0 {
		c.waitTxc, c.armed = false, nil
		return
	}
	c.tail++
	pk := &c.ring[c.tail%txPackets]
	c.armed = append([]byte(nil), pk.buf[:pk.size]...)
}

// step is 50 µs of the bus: one packet each way at most (about the rate of
// full-speed USB), paced host writes at most HostPaceBytes per
// HostPaceMicros.
func (c *tinygoCDC) step(paced bool) {
	c.now += stepMicros
	if !c.open {
		return
	}
	if n := min(len(c.toDevice), packetLen); n > 0 && (!paced || c.now%protocol.HostPaceMicros == 0) {
		if paced {
			n = min(n, protocol.HostPaceBytes)
		}
		for _, b := range c.toDevice[:n] {
			if len(c.rx) == rxRingLen {
				c.rxDropped++
				continue
			}
			c.rx = append(c.rx, b)
		}
		c.toDevice = c.toDevice[n:]
	}
	if c.collecting && c.armed != nil {
		pk := c.armed
		c.urb = append(c.urb, pk...)
		if len(pk) < packetLen || len(c.urb) >= urbLen {
			c.toProgram = append(c.toProgram, c.urb...)
			c.delivered += uint64(len(c.urb))
			c.urb = nil
			for len(c.inFlight) > 0 && c.inFlight[0].end <= c.delivered {
				c.maxLatency = max(c.maxLatency, c.now-c.inFlight[0].at)
				c.inFlight = c.inFlight[1:]
			}
		}
		c.flush()
	}
}

// openPort is the host opening the port: cdc-acm submits its URBs and
// raises DTR.
func (c *tinygoCDC) openPort() {
	c.open, c.collecting, c.lineState = true, true, true
	c.toDevice, c.toProgram = nil, nil
}

// closePort is the host closing it: DTR drops first, then cdc-acm kills its
// URBs (what a URB held is lost); what the device has queued stays there.
func (c *tinygoCDC) closePort() {
	c.lineState = false
	c.open, c.urb, c.toDevice, c.toProgram = false, nil, nil, nil
	c.delivered = c.accepted - c.queuedBytes()
	c.inFlight = nil
}

// busReset is the host resetting the bus with the Pico powered: the host
// program and its URBs are gone, the device keeps its state, DTR included
// (it sees no edge).
func (c *tinygoCDC) busReset() {
	c.open, c.urb, c.toDevice, c.toProgram = false, nil, nil, nil
	c.delivered = c.accepted - c.queuedBytes()
	c.inFlight = nil
}

func (c *tinygoCDC) queuedBytes() uint64 {
	n := uint64(len(c.armed))
	for i := c.tail + 1; i != c.head+1 && c.used() > 0; i++ {
		n += uint64(c.ring[i%txPackets].size)
	}
	return n
}

// picoLoop is cmd/pico's main loop: Poll every millisecond, and every 20 ms
// an LED frame that keeps the CPU busy for showMicros, then Receive.
type picoLoop struct {
	b          *core.Bridge
	next       uint64
	lastLights uint64
	busyUntil  uint64
	receive    bool // Receive once the LED frame is written
}

func (l *picoLoop) step(port core.Port, now uint64) {
	if now < l.busyUntil {
		return
	}
	if l.receive {
		l.receive = false
		l.b.Receive(port)
	}
	if now < l.next {
		return
	}
	l.b.Poll(port, now)
	end := now
	if now-l.lastLights >= lightsMicros {
		l.lastLights = now
		end += showMicros
		l.busyUntil, l.receive = end, true
	}
	l.next += 1000
	if l.next < end {
		l.next = end // late: no burst of catch-up turns
	}
}
