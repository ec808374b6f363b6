package serial

import (
	"context"
	"errors"
	"fmt"
	"time"

	"wolftable/firmware-bridge/protocol"
	"wolftable/hw"
)

// hwKeys maps the protocol's seat keys to hw's, by name (TestKeyNames
// checks that every name has its match; the codes are the same today).
var hwKeys = func() (m [protocol.NumSeatKeys]hw.Key) {
	for i := range m {
		m[i] = hw.Key(i)
		if k, err := hw.ParseKey(protocol.Key(i).String()); err == nil {
			m[i] = k
		}
	}
	return m
}()

// run connects, runs sessions and reconnects until ctx is done. It reports
// on first the outcome that decides Open: nil once the link is up, or a
// *HandshakeError.
func (t *Table) run(ctx context.Context, first chan<- error) {
	var dec protocol.Decoder
	var q sequencer
	decided := false
	decide := func(err error) {
		if !decided {
			decided = true
			first <- err
		}
	}
	for ctx.Err() == nil {
		c, err := t.dial()
		if err == nil {
			dec.Reset()
			var hs handshakeResult
			hs, err = handshake(ctx, c, &dec, t.wanted(), HandshakeTimeout)
			if err == nil {
				decide(nil)
				t.linkUp(hs.info)
				t.mu.Lock()
				t.gen++
				s := &session{t: t, c: c, dec: &dec, q: &q, info: hs.info, gen: t.gen}
				t.mu.Unlock()
				q.session(hs.seq)
				q.out = s.deliver
				reason := s.run(ctx, hs.rest)
				s.clockReady() // key events still held for the clock go as they are
				q.flush()
				c.close()
				t.updateStats(&dec, c, &q)
				if ctx.Err() != nil {
					return
				}
				t.linkDown(reason)
				continue // the port may be back already: try at once
			}
			c.close()
			t.updateStats(&dec, c, &q)
		}
		if ctx.Err() != nil {
			return
		}
		var he *HandshakeError
		if errors.As(err, &he) {
			decide(err)
		}
		t.failed(err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(ReopenInterval):
		}
	}
}

// dial finds and opens the bridge's port.
func (t *Table) dial() (*conn, error) {
	path := t.cfg.Port
	if path == "" {
		var err error
		if path, err = findBridge(t.cfg.VID, t.cfg.PID, t.log); err != nil {
			return nil, err
		}
	}
	return openPort(path, t.cfg.Baud)
}

func (t *Table) updateStats(dec *protocol.Decoder, c *conn, q *sequencer) {
	t.mu.Lock()
	t.stats.Decoder = dec.Stats()
	t.stats.TxDropped += c.txDropped
	c.txDropped = 0
	t.stats.HeldBack, t.stats.Synthesized, t.stats.Late = q.heldBack, q.synthesized, q.late
	t.mu.Unlock()
}

// handshakeResult is what the handshake learnt: the bridge, the seq of its
// Hello, and the bytes that came after the Hello in the same read.
type handshakeResult struct {
	info Info
	seq  uint8
	rest []byte
}

// wanted is what the host's configuration expects of the bridge: 0 takes
// any.
type wanted struct {
	seats, keys int
	software    string
}

func (t *Table) wanted() wanted {
	return wanted{seats: t.Seats(), keys: t.cfg.KeysPerSeat, software: t.cfg.Software}
}

// handshake sends HostHello until the bridge answers Hello, and checks the
// Hello against the table. It sends a version 1 HostHello and a version 2
// one together: a bridge of either version answers (protocol/doc.go,
// "Version rules").
func handshake(ctx context.Context, c *conn, dec *protocol.Decoder, w wanted, timeout time.Duration) (handshakeResult, error) {
	seats := uint8(w.seats)
	if w.seats == 0 {
		// The protocol wants a seat count; the bridge only reports its own.
		seats = protocol.MaxSeats
	}
	hh1 := &protocol.HostHello{Protocol: protocol.ProtocolVersion, Seats: seats, Software: w.software}
	hh2 := &protocol.HostHello{Protocol: protocol.Version2, Seats: seats, Software: w.software}
	noHello := func() error {
		if st := dec.Stats(); st.ForeignFrames > 0 {
			return &HandshakeError{c.path, fmt.Sprintf("橋接器用第 %d 版協定，本機只會第 %d 到 %d 版：請更新%s (the bridge speaks protocol version %d, this host versions %d to %d: update the %s)",
				st.ForeignVersion, protocol.ProtocolVersion, protocol.LatestVersion, olderSideZh(st.ForeignVersion),
				st.ForeignVersion, protocol.ProtocolVersion, protocol.LatestVersion, olderSide(st.ForeignVersion))}
		}
		return fmt.Errorf("serial: no Hello from %s within %v", c.path, timeout.Round(time.Millisecond))
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	retry := time.NewTicker(helloRetry)
	defer retry.Stop()
	c.sendHostHellos(hh1, hh2)
	for {
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return handshakeResult{}, noHello()
			}
			return handshakeResult{}, ctx.Err()
		case err := <-c.txErr:
			return handshakeResult{}, fmt.Errorf("serial: write %s: %w", c.path, err)
		case <-retry.C:
			c.sendHostHellos(hh1, hh2)
		case <-deadline.C:
			return handshakeResult{}, noHello()
		case r := <-c.rx:
			if r.err != nil {
				return handshakeResult{}, fmt.Errorf("serial: read %s: %w", c.path, r.err)
			}
			if hs, ok, err := helloIn(c, dec, r.data, w); ok {
				return hs, err
			}
		}
	}
}

// helloIn looks for the Hello in bytes the handshake read, answering the
// bridge's Pings on the way; ok reports that it found one.
func helloIn(c *conn, dec *protocol.Decoder, p []byte, w wanted) (hs handshakeResult, ok bool, err error) {
	for len(p) > 0 {
		n, f, err := dec.Feed(p)
		p = p[n:]
		if err != nil || f.Type == 0 {
			continue
		}
		m, err := f.Message()
		if err != nil {
			continue
		}
		switch m := m.(type) {
		case *protocol.Hello:
			info := Info{Port: c.path, Firmware: m.Firmware, Protocol: int(m.Protocol), Seats: int(m.Seats),
				KeysPerSeat: int(m.KeysPerSeat), Caps: m.Caps}
			return handshakeResult{info: info, seq: f.Seq, rest: p}, true, checkHello(c.path, info, w)
		case *protocol.Ping:
			c.send(&protocol.Pong{Nonce: m.Nonce})
		}
		// Anything else waits: unacked KeyEvents come again.
	}
	return handshakeResult{}, false, nil
}

// checkHello checks the bridge against what the host's configuration
// expects; the reason is for the venue's technician, in Chinese, then in
// English.
func checkHello(port string, info Info, w wanted) error {
	if w.seats != 0 && info.Seats != w.seats {
		return &HandshakeError{port, fmt.Sprintf("橋接器有 %d 個座位，本桌設定 %d 個：用 make firmware SEATS=%d 重新燒錄橋接器，或改設定檔的 [table] seats (the bridge has %d seats, the table %d)",
			info.Seats, w.seats, w.seats, info.Seats, w.seats)}
	}
	if w.keys != 0 && info.KeysPerSeat != w.keys {
		fix := fmt.Sprintf("燒錄與面板相符的韌體，或把設定檔的 [serial] keys_per_seat 改成 %d", info.KeysPerSeat)
		if info.KeysPerSeat == protocol.NumSeatKeys-1 && w.keys == protocol.NumSeatKeys {
			fix = "這是兩顆 74HC165 的面板，沒有自爆鍵：每座接上第三顆 74HC165 並用 make firmware REGISTERS=3 重新燒錄，或確定不用自爆鍵時把設定檔的 [serial] keys_per_seat 改成 16"
		}
		return &HandshakeError{port, fmt.Sprintf("橋接器的座位面板每座有 %d 個鍵，設定要 %d 個：%s (the bridge has %d keys per seat, the config wants %d)",
			info.KeysPerSeat, w.keys, fix, info.KeysPerSeat, w.keys)}
	}
	return nil
}

func olderSide(foreign uint8) string {
	if foreign < protocol.ProtocolVersion {
		return "bridge firmware"
	}
	return "host software"
}

func olderSideZh(foreign uint8) string {
	if foreign < protocol.ProtocolVersion {
		return "橋接器韌體"
	}
	return "本機軟體"
}

// session is one connection after the handshake.
type session struct {
	t    *Table
	c    *conn
	dec  *protocol.Decoder
	q    *sequencer
	info Info
	gen  uint64 // Table.gen: the session's number, for Done's acks

	clock     bridgeClock
	clockSet  bool       // a Stats has come this session: the bridge's timestamps map to host time
	early     []earlyKey // key events that came before it, held (M4)
	started   time.Time
	askedAt   time.Time // the last StatsRequest
	pedal     hw.PedalClassifier
	lastHeard time.Time // when the last valid frame arrived
	drained   time.Time // everything the bridge wrote before this has been read
	nextPing  time.Time
	nextSync  time.Time
	nonce     uint32

	lightsGen    uint64 // the lights state last sent, 0 if none
	lightsSeq    uint8  // its seq
	lightsSentAt time.Time
}

// earlyKey is a KeyEvent that came before the session's first Stats: its
// timestamp cannot be read yet.
type earlyKey struct {
	ev   protocol.KeyEvent
	seq  uint8
	recv time.Time
}

// Waiting for the session's first Stats (see keyEvent).
const (
	statsRetry = 200 * time.Millisecond // ask again this often until one comes
	clockWait  = time.Second            // then give up: key events held are dated when they came
)

// run runs the session until the line fails, the bridge falls silent or ctx
// is done, and returns why it ended.
func (s *session) run(ctx context.Context, rest []byte) string {
	t := s.t
	s.pedal.T = t.cfg.Pedal
	now := time.Now()
	s.lastHeard, s.drained, s.nextPing, s.nextSync, s.started = now, now, now, now, now
	// A replugged bridge has rebooted dark: the last lights go again.
	t.mu.Lock()
	t.ackedGen = 0
	t.mu.Unlock()
	s.receive(rest, now)
	s.housekeep(now)

	tick := time.NewTicker(housekeep)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return "closed"
		case err := <-s.c.txErr:
			return fmt.Sprintf("write %s: %v", s.c.path, err)
		case r := <-s.c.rx:
			if r.err != nil {
				return fmt.Sprintf("read %s: %v", s.c.path, r.err)
			}
			s.receive(r.data, time.Now())
			if r.drained.After(s.drained) {
				s.drained = r.drained
			}
		case <-t.kick:
			s.sendLights(time.Now())
		case a := <-t.acks:
			if a.gen == s.gen { // an older session's: the bridge sends it again (wasDone)
				s.c.send(&protocol.Ack{Seq: a.seq})
			}
		case now := <-tick.C:
			// Silence is judged on what has been read: a host too busy to
			// read does not blame the bridge.
			if d := s.drained.Sub(s.lastHeard); d >= SilenceTimeout {
				return fmt.Sprintf("missed heartbeats: nothing from the bridge for %v", d.Round(time.Millisecond))
			}
			if d := now.Sub(s.drained); d >= readerStall {
				return fmt.Sprintf("the port has not answered a read for %v", d.Round(time.Millisecond))
			}
			s.housekeep(now)
		}
	}
}

// housekeep sends heartbeats, clock syncs and lights that are due, and lets
// out a short pedal press whose double-press window has passed.
func (s *session) housekeep(now time.Time) {
	if !now.Before(s.nextPing) {
		s.nonce++
		s.c.send(&protocol.Ping{Nonce: s.nonce})
		s.nextPing = now.Add(HeartbeatInterval)
	}
	if !now.Before(s.nextSync) || (!s.clockSet && now.Sub(s.askedAt) >= statsRetry) {
		s.c.send(&protocol.StatsRequest{})
		s.askedAt = now
		s.nextSync = now.Add(ClockSyncInterval)
	}
	if !s.clockSet && now.Sub(s.started) >= clockWait {
		s.t.log.Warn("the bridge did not answer StatsRequest: key events are dated when they came", "held", len(s.early))
		s.clockReady()
	}
	s.sendLights(now)
	s.q.release(now)
	// A short press is only known to be short once no second press can still
	// come: judged as of what has been read off the line, and not while the
	// sequencer waits for a lost frame or a key event waits for the clock.
	if s.q.settled(now) && len(s.early) == 0 {
		if p, ok := s.pedal.Poll(s.drained); ok {
			s.t.emit(hw.Event{Kind: hw.EventPedal, Pedal: p, At: s.drained})
		}
	}
}

// sendLights sends the newest lights if the bridge has not acked them and
// they are new or due for a retransmission.
func (s *session) sendLights(now time.Time) {
	t := s.t
	t.mu.Lock()
	gen, acked, m := t.wantGen, t.ackedGen, t.want
	t.mu.Unlock()
	if gen == 0 || acked >= gen || (gen == s.lightsGen && now.Sub(s.lightsSentAt) < LightsRetransmit) {
		return
	}
	s.lightsSeq = s.c.send(&m)
	s.lightsGen, s.lightsSentAt = gen, now
	t.mu.Lock()
	t.stats.LightsSent++
	t.mu.Unlock()
}

// receive handles bytes from the bridge.
func (s *session) receive(p []byte, now time.Time) {
	for len(p) > 0 {
		n, f, err := s.dec.Feed(p)
		p = p[n:]
		if err != nil || f.Type == 0 {
			continue
		}
		s.lastHeard = now
		s.q.frame(f.Seq, now)
		m, err := f.Message()
		if err != nil {
			continue
		}
		switch m := m.(type) {
		case *protocol.KeyEvent:
			if !s.t.cfg.HoldAcks || m.Seat == 0 || s.t.wasDone(*m) {
				s.c.send(&protocol.Ack{Seq: f.Seq}) // again, if the first ack was lost
			}
			if !s.clockSet {
				s.early = append(s.early, earlyKey{*m, f.Seq, now})
				continue
			}
			s.keyEvent(m, f.Seq, now)
		case *protocol.Hello:
			s.hello(m)
		case *protocol.Ack:
			if s.lightsGen != 0 && m.Seq == s.lightsSeq {
				s.t.mu.Lock()
				if s.lightsGen > s.t.ackedGen {
					s.t.ackedGen = s.lightsGen
					close(s.t.acked)
					s.t.acked = make(chan struct{})
				}
				s.t.stats.LightsAcked++
				s.t.mu.Unlock()
			}
		case *protocol.Ping:
			s.c.send(&protocol.Pong{Nonce: m.Nonce})
		case *protocol.Stats:
			s.stats(m, now)
		}
	}
	s.t.updateStats(s.dec, s.c, s.q)
}

// stats takes the bridge's Stats: its uptime sets the clock, and the first
// of a session lets out the key events that came before it.
func (s *session) stats(m *protocol.Stats, now time.Time) {
	s.clock.sample(now, m.UptimeMillis)
	t := s.t
	t.mu.Lock()
	t.stats.Bridge = *m
	t.mu.Unlock()
	if s.clockSet {
		return
	}
	t.mu.Lock()
	t.info.LastReset = m.ResetReason
	t.mu.Unlock()
	if m.ResetReason == protocol.ResetWatchdog {
		t.log.Warn("the bridge restarted on its watchdog: its main loop had stalled", "uptime", time.Duration(m.UptimeMillis)*time.Millisecond)
	}
	s.clockReady()
}

// clockReady lets out the key events held for the clock, dated by it (or,
// without a Stats, when they came).
func (s *session) clockReady() {
	s.clockSet = true
	for _, k := range s.early {
		s.keyEvent(&k.ev, k.seq, k.recv)
	}
	s.early = nil
}

// hello takes a Hello in the session: the version 2 bridge's answer to the
// second HostHello, after the first's.
func (s *session) hello(m *protocol.Hello) {
	if int(m.Protocol) <= s.info.Protocol {
		return
	}
	s.info.Protocol = int(m.Protocol)
	s.t.mu.Lock()
	s.t.info.Protocol = s.info.Protocol
	s.t.mu.Unlock()
}

// keyEvent takes a KeyEvent from the bridge, sent with seq and received at
// now, to the sequencer. Its timestamp is the bridge's clock, mapped to
// host time by the Stats of this session: a key pressed while the host was
// away comes with the retransmissions after the Hello, before the first
// Stats of the session can map it, so receive holds key events until then
// (M4).
func (s *session) keyEvent(ev *protocol.KeyEvent, seq uint8, now time.Time) {
	t := s.t
	if int(ev.Seat) > s.info.Seats || (ev.Seat != 0 && int(ev.Key) >= len(hwKeys)) {
		t.log.Warn("key event from a seat the bridge does not have", "seat", ev.Seat, "key", ev.Key.String())
		return
	}
	if !s.q.keyEvent(*ev, seq, s.clock.at(ev.Micros, now), now) {
		t.mu.Lock()
		t.stats.Duplicates++
		t.mu.Unlock()
	}
}

// deliver is the sequencer's output: a seat key as hw.EventKey, the pedal
// through the classifier.
func (s *session) deliver(ev protocol.KeyEvent, seq uint8, at time.Time, synthetic bool) {
	t := s.t
	if synthetic {
		t.log.Warn("a key edge was lost; supplied", "seat", ev.Seat, "key", ev.Key.String(), "edge", ev.Edge.String())
	}
	t.mu.Lock()
	t.stats.KeyEvents++
	t.mu.Unlock()
	edge := hw.Up
	if ev.Edge == protocol.EdgeDown {
		edge = hw.Down
	}
	if ev.Seat == 0 {
		if t.cfg.RawPedal {
			t.emit(hw.Event{Kind: hw.EventKey, Key: hw.KeyEvent{Seat: 0, Edge: edge, At: at}, At: at})
		}
		if p, ok := s.pedal.Edge(edge == hw.Down, at); ok {
			t.emit(hw.Event{Kind: hw.EventPedal, Pedal: p, At: at})
		}
		return
	}
	e := hw.Event{Kind: hw.EventKey, Key: hw.KeyEvent{Seat: int(ev.Seat), Key: hwKeys[ev.Key], Edge: edge, At: at}, At: at}
	if !synthetic { // a supplied edge is none of the bridge's: it has no identity, and nothing to ack
		e.Key.ID = keyID(ev)
		if t.cfg.HoldAcks {
			e.Receipt = t.receipt(ev, s.gen, seq)
		}
	}
	t.emit(e)
}
