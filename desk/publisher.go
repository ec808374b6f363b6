package desk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// PublisherConfig is what a table needs to report to a desk.
type PublisherConfig struct {
	URL        string // nats://host:port[,nats://…] (a cluster: several)
	Creds      Creds
	JournalDir string // the outbox: finished journals without a .sent marker
	Log        *slog.Logger
	// Heartbeat: how often the last status is sent again (default 5 s).
	Heartbeat time.Duration
	// OnRefused is told of a record the desk refused (the journal's path
	// and the desk's reason, Chinese), once, when its .refused marker is
	// written; nil: logged only.
	OnRefused func(path, reason string)
	// Confirm bounds the wait for the desk's verdict on one record
	// (default 20 s); past it the record stays in the outbox.
	Confirm time.Duration
}

// Publisher is a table's link to the desk. It never blocks the game: the
// live messages (status, start, end, penalty) go through a bounded queue
// on their own goroutine (a status is dropped when the queue is full), and
// records are not queued at all: the journals folder is the outbox, sent
// on another goroutine at connect, after every reconnect, when a game ends
// (Kick) and every 30 s, until the desk's JetStream acknowledges each.
type Publisher struct {
	cfg  PublisherConfig
	nc   *nats.Conn
	js   jetstream.JetStream
	log  *slog.Logger
	live chan liveMsg
	kick chan struct{}
	stop chan struct{}
	wg   sync.WaitGroup

	mu       sync.Mutex
	last     *Status
	pending  int  // finished journals not acknowledged at the last scan
	scanned  bool // a scan completed since the last Kick
	scanDone chan struct{}
	// onRefused: PublisherConfig.OnRefused, then what OnRefused set
	onRefused func(path, reason string)
}

type liveMsg struct {
	subject string
	body    []byte
	status  bool
}

// Start connects to the desk in the background (a desk that is down is
// retried for ever) and starts sending the outbox.
func Start(cfg PublisherConfig) (*Publisher, error) {
	if err := ValidName(cfg.Creds.Table); err != nil {
		return nil, err
	}
	if cfg.JournalDir == "" {
		return nil, errors.New("desk: the publisher needs the journals folder (its outbox)")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = 5 * time.Second
	}
	if cfg.Confirm == 0 {
		cfg.Confirm = 20 * time.Second
	}
	p := &Publisher{cfg: cfg, log: cfg.Log, live: make(chan liveMsg, 64), kick: make(chan struct{}, 1),
		stop: make(chan struct{}), scanDone: make(chan struct{}), onRefused: cfg.OnRefused}
	kick := func(*nats.Conn) { p.Kick() }
	nc, err := Dial(cfg.URL, cfg.Creds,
		nats.Name("wolftable table "+cfg.Creds.Table),
		nats.RetryOnFailedConnect(true), nats.MaxReconnects(-1),
		nats.ReconnectWait(500*time.Millisecond), nats.ReconnectJitter(200*time.Millisecond, time.Second),
		nats.ReconnectBufSize(256<<10), nats.ConnectHandler(kick), nats.ReconnectHandler(kick),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				p.log.Warn("desk: disconnected", "err", err)
			}
		}),
		nats.ClosedHandler(func(c *nats.Conn) {
			select {
			case <-p.stop:
			default:
				p.log.Error("desk: the connection to the desk closed", "err", c.LastError())
			}
		}),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			p.log.Warn("desk: broker error", "err", err)
		}))
	if err != nil {
		return nil, fmt.Errorf("desk: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	p.nc, p.js = nc, js
	p.wg.Add(2)
	go p.sendLive()
	go p.sendOutbox()
	p.Kick()
	return p, nil
}

// Status publishes the table's public state (dropped if the queue is
// full; the heartbeat sends the last one again).
func (p *Publisher) Status(s Status) {
	s.Table = p.cfg.Creds.Table
	p.mu.Lock()
	p.last = &s
	s.Outbox = p.pending
	p.mu.Unlock()
	if s.At.IsZero() {
		s.At = time.Now()
	}
	p.enqueue(KindStatus, s, true)
}

// Event publishes a start, end or penalty message.
func (p *Publisher) Event(kind string, e Event) {
	e.Table = p.cfg.Creds.Table
	if e.At.IsZero() {
		e.At = time.Now()
	}
	p.enqueue(kind, e, false)
}

func (p *Publisher) enqueue(kind string, v any, status bool) {
	body, err := json.Marshal(v)
	if err != nil {
		return
	}
	m := liveMsg{subject: Subject(p.cfg.Creds.Table, kind), body: body, status: status}
	select {
	case p.live <- m:
	default:
		if !status { // make room: an old status matters less than an event
			select {
			case old := <-p.live:
				if !old.status {
					p.log.Warn("desk: live queue full, a message dropped", "subject", old.subject)
				}
			default:
			}
			select {
			case p.live <- m:
			default:
			}
		}
	}
}

func (p *Publisher) sendLive() {
	defer p.wg.Done()
	hb := time.NewTicker(p.cfg.Heartbeat)
	defer hb.Stop()
	for {
		select {
		case <-p.stop:
			return
		case m := <-p.live:
			if p.nc.IsConnected() {
				p.nc.Publish(m.subject, m.body)
			}
		case <-hb.C:
			p.mu.Lock()
			var s Status
			ok := p.last != nil
			if ok {
				s = *p.last
				s.Outbox = p.pending
			}
			p.mu.Unlock()
			if ok && p.nc.IsConnected() {
				s.At = time.Now()
				if body, err := json.Marshal(s); err == nil {
					p.nc.Publish(Subject(s.Table, KindStatus), body)
				}
			}
		}
	}
}

// Kick makes the outbox be scanned now (a game ended; a connection).
func (p *Publisher) Kick() {
	p.mu.Lock()
	p.scanned = false
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

func (p *Publisher) sendOutbox() {
	defer p.wg.Done()
	retry := time.NewTimer(time.Hour)
	defer retry.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-p.kick:
		case <-retry.C:
		}
		pending := p.scan()
		p.mu.Lock()
		p.pending, p.scanned = pending, len(p.kick) == 0
		close(p.scanDone)
		p.scanDone = make(chan struct{})
		p.mu.Unlock()
		next := 30 * time.Second
		if pending > 0 {
			next = 2 * time.Second
		}
		retry.Reset(next)
	}
}

// OnRefused replaces the function told of each record the desk refuses
// (PublisherConfig.OnRefused): serve points it at the judge's console once
// the console runs.
func (p *Publisher) OnRefused(f func(path, reason string)) {
	p.mu.Lock()
	p.onRefused = f
	p.mu.Unlock()
}

// Flush waits until the outbox is empty (every finished journal
// acknowledged) and the live messages are out, or ctx is done.
func (p *Publisher) Flush(ctx context.Context) error {
	p.Kick()
	for {
		p.mu.Lock()
		done, pending, ch := p.scanned, p.pending, p.scanDone
		p.mu.Unlock()
		if done && pending == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("desk: %d records not acknowledged: they stay in the outbox (%w)", max(pending, 1), ctx.Err())
		case <-ch:
		}
	}
	for len(p.live) > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	for {
		err := p.nc.FlushWithContext(ctx)
		if err == nil || p.nc.IsClosed() || ctx.Err() != nil {
			return err
		}
		// a reconnect (a broker node went down) cut the ping short and
		// nats.go reports it as closed: ask again once the link is back
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Close stops the publisher (what is not acknowledged stays in the outbox).
func (p *Publisher) Close() {
	close(p.stop)
	p.wg.Wait()
	p.nc.Close()
}
