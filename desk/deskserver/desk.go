// Package deskserver is the tournament desk (issue 16): an embedded NATS
// server with JetStream (or a venue's cluster), the records consumed into
// the desk's Store, the live tables, and the web page and read-only JSON
// and CSV for the organiser and the audience.
package deskserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"wolftable/desk"
)

// Stream and Consumer are the JetStream names of the records.
const (
	Stream   = "WOLFTABLE_RECORDS"
	Consumer = "desk"
)

// Options is a desk.
type Options struct {
	Data string // the desk's data folder
	NATS string // the embedded server's host:port (default ":4222")
	HTTP string // the web page's host:port (default ":8090")
	Pack *desk.Pack
	// External: the URLs of a venue's NATS cluster (comma-separated);
	// then nothing is embedded and the desk logs in with ExternalCreds
	// (default: DATA/desk.creds).
	External      string
	ExternalCreds *desk.Creds
	Replicas      int // the records stream's replicas (default 1)
	// FeedDelay is the audience feed's delay (default DefaultFeedDelay).
	FeedDelay time.Duration
	Broker    BrokerOptions
	Log       *slog.Logger
}

// Desk is a running desk.
type Desk struct {
	opts   Options
	broker *Broker
	nc     *nats.Conn
	Store  *desk.Store
	// NewPIN is the operator's PIN when this start drew it (the desk's
	// first start): shown once; "" otherwise (login.go).
	NewPIN string
	op     *operator
	pack   *desk.Pack
	httpLn net.Listener
	srv    *http.Server
	log    *slog.Logger
	cancel context.CancelFunc
	wg     sync.WaitGroup
	cc     jetstream.ConsumeContext

	mu     sync.Mutex
	tables map[string]*Live
	ingest struct{ stored, duplicate, refused int }
}

// Live is what the desk knows of a table now.
type Live struct {
	Name     string       `json:"name"`
	Status   *desk.Status `json:"status,omitempty"`
	LastSeen time.Time    `json:"last_seen"` // the last message from it
	Events   []desk.Event `json:"events"`    // the last starts, ends and penalties
	feed     []feedEntry  // the statuses received, for the audience feed (feed.go)
}

// Start starts a desk.
func Start(o Options) (*Desk, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Pack == nil {
		p, err := desk.LoadPack("default")
		if err != nil {
			return nil, err
		}
		o.Pack = p
	}
	if o.Replicas == 0 {
		o.Replicas = 1
	}
	if o.NATS == "" {
		o.NATS = ":4222"
	}
	if o.HTTP == "" {
		o.HTTP = ":8090"
	}
	st, err := desk.OpenStore(o.Data, nil)
	if err != nil {
		return nil, err
	}
	op, pin, err := openOperator(o.Data)
	if err != nil {
		return nil, err
	}
	d := &Desk{opts: o, Store: st, pack: o.Pack, log: o.Log, tables: map[string]*Live{}, op: op, NewPIN: pin}
	ts, err := desk.Tables(o.Data)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		d.tables[t.Name] = &Live{Name: t.Name, Events: []desk.Event{}}
	}
	var nopts []nats.Option
	url := o.External
	creds := o.ExternalCreds
	if o.External == "" {
		bo := o.Broker
		bo.Data, bo.Listen, bo.Log = o.Data, o.NATS, o.Log
		bo.OnViolation = d.violation
		if d.broker, err = StartBroker(bo); err != nil {
			return nil, err
		}
		url = d.broker.URL()
		nopts = append(nopts, nats.InProcessServer(d.broker.S))
	}
	if creds == nil {
		c, err := DeskCreds(o.Data)
		if err != nil {
			d.Close()
			return nil, err
		}
		creds = &c
	}
	nopts = append(nopts, nats.UserInfo(creds.User, creds.Password), nats.Name("wolftable desk"),
		nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond), nats.RetryOnFailedConnect(true))
	if d.nc, err = nats.Connect(url, nopts...); err != nil {
		d.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	if err := d.consume(ctx); err != nil {
		d.Close()
		return nil, err
	}
	for _, k := range []string{desk.KindStatus, desk.KindStart, desk.KindEnd, desk.KindPenalty} {
		if _, err := d.nc.Subscribe("wolftable.table.*."+k, d.onLive); err != nil {
			d.Close()
			return nil, err
		}
	}
	if d.httpLn, err = net.Listen("tcp", o.HTTP); err != nil {
		d.Close()
		return nil, fmt.Errorf("--http %s: %w", o.HTTP, err)
	}
	d.srv = &http.Server{Handler: d.Handler(), ReadHeaderTimeout: 10 * time.Second}
	d.wg.Add(1)
	go func() { defer d.wg.Done(); d.srv.Serve(d.httpLn) }()
	if d.broker != nil {
		d.wg.Add(1)
		go d.watchRegistry(ctx)
	}
	return d, nil
}

// consume makes the records stream and the desk's durable pull consumer
// (idempotent) and stores every record; a record is acknowledged once
// stored, or refused and listed.
func (d *Desk) consume(ctx context.Context) error {
	js, err := jetstream.New(d.nc)
	if err != nil {
		return err
	}
	var stream jetstream.Stream
	for try := 0; ; try++ { // a cluster elects its meta leader first
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		stream, err = js.CreateOrUpdateStream(sctx, jetstream.StreamConfig{Name: Stream, Subjects: []string{"wolftable.table.*.record"},
			Storage: jetstream.FileStorage, Replicas: d.opts.Replicas, Duplicates: time.Hour, MaxMsgSize: 8 << 20})
		cancel()
		if err == nil || try == 20 {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("desk: the records stream: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cons, err := stream.CreateOrUpdateConsumer(sctx, jetstream.ConsumerConfig{Durable: Consumer, AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: 30 * time.Second, MaxAckPending: 256, Replicas: d.opts.Replicas})
	if err != nil {
		return fmt.Errorf("desk: the records consumer: %w", err)
	}
	d.cc, err = cons.Consume(d.onRecord, jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
		if !errors.Is(err, nats.ErrConnectionClosed) {
			d.log.Debug("desk: consumer", "err", err)
		}
	}))
	return err
}

func (d *Desk) onRecord(m jetstream.Msg) {
	h := m.Headers()
	out, err := d.Store.Ingest(m.Subject(), h.Get(jetstream.MsgIDHeader), h.Get("Wolftable-File"), m.Data())
	if err != nil {
		d.log.Error("desk: a record could not be stored; it will come again", "subject", m.Subject(), "err", err)
		m.NakWithDelay(time.Second)
		return
	}
	m.Ack()
	d.mu.Lock()
	switch out {
	case desk.Stored:
		d.ingest.stored++
	case desk.Duplicate:
		d.ingest.duplicate++
	case desk.Refused:
		d.ingest.refused++
	}
	d.mu.Unlock()
	table, _ := desk.SubjectTable(m.Subject())
	d.log.Info("desk: record", "table", table, "outcome", out.String(), "file", h.Get("Wolftable-File"))
}

// Counts are the records stored, received again and refused since the start.
func (d *Desk) Counts() (stored, duplicate, refused int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ingest.stored, d.ingest.duplicate, d.ingest.refused
}

func (d *Desk) onLive(m *nats.Msg) {
	table, kind := desk.SubjectTable(m.Subject)
	if table == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	l := d.tables[table]
	if l == nil {
		l = &Live{Name: table, Events: []desk.Event{}}
		d.tables[table] = l
	}
	l.LastSeen = time.Now()
	if kind == desk.KindStatus {
		var s desk.Status
		if json.Unmarshal(m.Data, &s) == nil {
			s.Table = table
			l.Status = &s
			l.record(s, l.LastSeen)
		}
		return
	}
	var e desk.Event
	if json.Unmarshal(m.Data, &e) != nil {
		return
	}
	e.Table = table
	l.Events = append(l.Events, e)
	if len(l.Events) > 20 {
		l.Events = l.Events[len(l.Events)-20:]
	}
	_ = kind
}

// Tables are the live tables, by name.
func (d *Desk) Tables() []Live {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Live, 0, len(d.tables))
	for _, l := range d.tables {
		c := *l
		c.Events = append([]desk.Event{}, l.Events...)
		c.feed = nil
		if l.Status != nil {
			s := *l.Status
			c.Status = &s
		}
		out = append(out, c)
	}
	sortLive(out)
	return out
}

// violation: the broker refused a publication (a table under another
// table's subject): listed with the refused records.
func (d *Desk) violation(user, subject string) {
	table := strings.TrimPrefix(user, "table-")
	owner, _ := desk.SubjectTable(subject)
	reason := fmt.Sprintf("使用者 %s 試圖在 %s 發布，被伺服器拒絕：每張桌子只能在自己的主題（%s.>）發布", user, subject, desk.Prefix(table))
	if owner != "" && owner != table {
		reason = fmt.Sprintf("桌子 %s 試圖以桌子 %s 的名義發布（%s），被伺服器拒絕：每張桌子只能在自己的主題發布", table, owner, subject)
	}
	d.log.Warn("desk: a publication refused by the broker", "user", user, "subject", subject)
	if err := d.Store.Refuse(desk.Refusal{Table: table, Subject: subject, Reason: reason}); err != nil {
		d.log.Error("desk: refused list", "err", err)
	}
}

// watchRegistry reloads the broker's users when a table is registered
// while the desk runs.
func (d *Desk) watchRegistry(ctx context.Context) {
	defer d.wg.Done()
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := d.broker.Reload(); err != nil {
				d.log.Warn("desk: registry reload", "err", err)
			}
			ts, err := desk.Tables(d.opts.Data)
			if err != nil {
				continue
			}
			d.mu.Lock()
			for _, tb := range ts {
				if d.tables[tb.Name] == nil {
					d.tables[tb.Name] = &Live{Name: tb.Name, Events: []desk.Event{}}
				}
			}
			d.mu.Unlock()
		}
	}
}

// NATSURL is the desk's NATS address (the embedded server's, or the
// cluster's as given).
func (d *Desk) NATSURL() string {
	if d.broker != nil {
		return d.broker.URL()
	}
	return d.opts.External
}

// HTTPURL is the web page's address.
func (d *Desk) HTTPURL() string {
	a := d.httpLn.Addr().(*net.TCPAddr)
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return fmt.Sprintf("http://%s/", net.JoinHostPort(host, fmt.Sprint(a.Port)))
}

// Broker is the embedded server (nil with an external cluster).
func (d *Desk) Broker() *Broker { return d.broker }

// Close stops the desk: the page, the consumer, the connection, the server.
func (d *Desk) Close() {
	if d.cancel != nil {
		d.cancel()
	}
	if d.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		d.srv.Shutdown(ctx)
		cancel()
	}
	if d.cc != nil {
		d.cc.Stop()
	}
	if d.nc != nil {
		d.nc.Drain()
		for i := 0; i < 100 && !d.nc.IsClosed(); i++ {
			time.Sleep(20 * time.Millisecond)
		}
		d.nc.Close()
	}
	d.wg.Wait()
	if d.broker != nil {
		d.broker.Shutdown()
	}
}
