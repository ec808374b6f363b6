package serial

import (
	"bytes"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	bugst "go.bug.st/serial"
	"go.bug.st/serial/enumerator"

	"wolftable/firmware-bridge/protocol"
)

// findBridge returns the device path of the serial port with USB IDs vid and
// pid. With several, it takes the first by name and says so.
func findBridge(vid, pid string, log *slog.Logger) (string, error) {
	ports, err := enumerator.GetDetailedPortsList()
	if err != nil {
		return "", fmt.Errorf("serial: list ports: %w", err)
	}
	var found []string
	for _, p := range ports {
		if p.IsUSB && strings.EqualFold(p.VID, vid) && strings.EqualFold(p.PID, pid) {
			found = append(found, p.Name)
		}
	}
	if len(found) == 0 {
		return "", fmt.Errorf("%w with USB ID %s:%s", ErrNoBridge, vid, pid)
	}
	slices.Sort(found)
	if len(found) > 1 {
		log.Warn("several bridges found; using the first", "ports", found)
	}
	return found[0], nil
}

// rxChunk is what a conn's reader got: bytes, or the error that ended it.
// drained, if set, is a time by which everything on the line had been read:
// the port had no more bytes waiting then.
type rxChunk struct {
	data    []byte
	err     error
	drained time.Time
}

// conn is one opened port: a reader and a writer goroutine around it, so
// that the session loop never blocks on the line.
type conn struct {
	port bugst.Port
	path string
	seq  uint8 // the host's next frame number

	rx    chan rxChunk
	tx    chan []byte
	txErr chan error
	done  chan struct{}

	readerDone, writerDone chan struct{}
	closeOnce              sync.Once

	txDropped uint64 // frames the full write queue refused; read by the session loop only
	pace      Pacer  // the writer's
}

// openPort opens path at baud and readies it for a session: the bridge's
// stale bytes flushed and one 0x00 queued, so the first frame starts clean.
func openPort(path string, baud int) (*conn, error) {
	if baud == bootloaderBaud {
		return nil, &ConfigError{"Baud", "1200 baud reboots the RP2040 into its bootloader"}
	}
	p, err := bugst.Open(path, &bugst.Mode{BaudRate: baud, DataBits: 8, Parity: bugst.NoParity, StopBits: bugst.OneStopBit})
	if err != nil {
		return nil, fmt.Errorf("serial: open %s: %w", path, err)
	}
	if err := p.SetReadTimeout(readTimeout); err != nil {
		p.Close()
		return nil, fmt.Errorf("serial: %s: read timeout: %w", path, err)
	}
	// TinyGo's CDC writes only while the host holds DTR up; the kernel raises
	// it on open, but say so. Pseudo-terminals have no modem lines: ignore.
	_ = p.SetDTR(true)
	_ = p.ResetInputBuffer()
	c := &conn{
		port:       p,
		path:       path,
		rx:         make(chan rxChunk, 64),
		tx:         make(chan []byte, 64),
		txErr:      make(chan error, 1),
		done:       make(chan struct{}),
		readerDone: make(chan struct{}),
		writerDone: make(chan struct{}),
	}
	go c.read()
	go c.write()
	c.raw([]byte{0})
	return c, nil
}

func (c *conn) read() {
	defer close(c.readerDone)
	buf := make([]byte, 4096)
	for {
		n, err := c.port.Read(buf)
		now := time.Now()
		var r rxChunk
		switch {
		case err != nil:
			r = rxChunk{err: err}
		case n == 0: // the read timed out: nothing on the line
			r = rxChunk{drained: now}
		case n < len(buf): // everything waiting, read
			r = rxChunk{data: bytes.Clone(buf[:n]), drained: now}
		default: // maybe more waiting
			r = rxChunk{data: bytes.Clone(buf[:n])}
		}
		select {
		case c.rx <- r:
		case <-c.done:
			return
		}
		if err != nil {
			return
		}
	}
}

func (c *conn) write() {
	defer close(c.writerDone)
	for {
		select {
		case <-c.done:
			return
		case b := <-c.tx:
			if _, err := c.pace.Write(c.port, b); err != nil {
				select {
				case c.txErr <- err:
				default:
				}
				return
			}
		}
	}
}

// raw queues bytes for the writer; it reports false (and counts) if the
// queue is full.
func (c *conn) raw(b []byte) bool {
	select {
	case c.tx <- b:
		return true
	default:
		c.txDropped++
		return false
	}
}

// send queues m, in protocol version 1 (which every bridge reads), with the
// next seq and returns the seq.
func (c *conn) send(m protocol.Message) uint8 {
	seq := c.seq
	c.seq++
	c.raw(protocol.Encode(m, seq))
	return seq
}

// sendHostHellos queues a version 1 HostHello and then a version 2 one, in
// one write: a version 1 bridge answers the first, a version 2 bridge both,
// speaking version 2 from the second on.
func (c *conn) sendHostHellos(v1, v2 *protocol.HostHello) {
	b := protocol.Encode(v1, c.seq)
	b = protocol.AppendFrameVersion(b, v2, c.seq+1, protocol.Version2)
	c.seq += 2
	c.raw(b)
}

// close closes the port and waits for the reader; a writer stuck in a write
// to a wedged device is given a second and then left behind.
func (c *conn) close() {
	c.closeOnce.Do(func() {
		close(c.done)
		c.port.Close()
		<-c.readerDone
		select {
		case <-c.writerDone:
		case <-time.After(time.Second):
		}
	})
}
