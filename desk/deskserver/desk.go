// Package deskserver is the tournament desk (issue 16): an embedded NATS
// server with JetStream (or a venue's cluster), the records consumed into
// the desk's Store, the live tables, and the web page and read-only JSON
// and CSV for the organiser and the audience.
package deskserver

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"wolftable/desk"
	"wolftable/internal/hans"
	"wolftable/internal/webguard"
)

// Options is a desk.
type Options struct {
	Data string // the desk's data folder
	NATS string // the embedded server's host:port (default ":4222")
	HTTP string // the web page's host:port (default ":8090")
	// HTTPS: the operator's host:port over TLS (https.go); "" = none,
	// then the operator logs in over plain HTTP.
	HTTPS string
	Pack  *desk.Pack
	// External: the URLs of a venue's NATS cluster (comma-separated);
	// then nothing is embedded and the desk logs in with ExternalCreds
	// (default: DATA/desk.creds).
	External      string
	ExternalCreds *desk.Creds
	Replicas      int // the records stream's replicas (default 1)
	// StreamMaxBytes bounds the records stream: what the desk has not
	// consumed yet (a consumed record leaves it; default
	// DefaultStreamMaxBytes). RefusedBytes and RefusedList are each
	// table's quota of refused records (desk.Store).
	StreamMaxBytes int64
	RefusedBytes   int64
	RefusedList    int
	// Title is the tournament's name, on every page ("" = 賽事總台).
	Title string
	// Script is the pages' script: hant (繁體, "") or hans (简体); a
	// browser may switch (script.go).
	Script hans.Script
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
	// the operator's HTTPS (https.go; nil without Options.HTTPS)
	httpsLn net.Listener
	srvTLS  *http.Server
	log     *slog.Logger
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	cc      jetstream.ConsumeContext

	verdicts verdicts      // the answers to the tables' attempts (ask.go)
	screens  atomic.Int32  // audience screens streaming (screen.go)
	quit     chan struct{} // closed by Close: the streams end
	conns    webguard.ConnCount

	mu     sync.Mutex
	tables map[string]*tableState // live.go
	ingest struct{ stored, duplicate, refused int }
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
	if o.StreamMaxBytes == 0 {
		o.StreamMaxBytes = DefaultStreamMaxBytes
	}
	if _, err := hans.ParseScript(string(o.Script)); err != nil {
		return nil, fmt.Errorf("--script: %w", err)
	}
	st, err := desk.OpenStore(o.Data, nil)
	if err != nil {
		return nil, err
	}
	st.RefusedBytes, st.RefusedList = o.RefusedBytes, o.RefusedList
	op, pin, err := openOperator(o.Data)
	if err != nil {
		return nil, err
	}
	op.rejects.Log = o.Log
	d := &Desk{opts: o, Store: st, pack: o.Pack, log: o.Log, tables: map[string]*tableState{}, op: op, NewPIN: pin, quit: make(chan struct{})}
	if err := d.loadTables(); err != nil {
		return nil, err
	}
	if err := d.connect(); err != nil {
		d.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	if err := d.consume(ctx); err != nil {
		d.Close()
		return nil, err
	}
	if err := d.subscribe(); err != nil {
		d.Close()
		return nil, err
	}
	if d.httpLn, err = net.Listen("tcp", o.HTTP); err != nil {
		d.Close()
		return nil, fmt.Errorf("--http %s: %w", o.HTTP, err)
	}
	d.srv = webguard.NewServer(d.Web(), webguard.DefaultLimits, o.Log)
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		d.srv.Serve(webguard.Listener(d.httpLn, nil, webguard.DefaultLimits.ConnsPerIP, &d.conns))
	}()
	if err := d.startHTTPS(); err != nil {
		d.Close()
		return nil, err
	}
	d.wg.Add(1)
	go d.watchRegistry(ctx)
	return d, nil
}

// connect starts the embedded broker (unless the desk uses a venue's
// cluster) and connects the desk to it: in process with its NKEY, or to
// the cluster with its NKEY over TLS to the pinned certificate.
func (d *Desk) connect() error {
	o := d.opts
	creds := o.ExternalCreds
	if creds == nil {
		c, err := DeskCreds(o.Data)
		if err != nil {
			return err
		}
		creds = &c
	}
	common := []nats.Option{nats.Name("wolftable desk"), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true)}
	var err error
	if o.External != "" {
		d.nc, err = desk.Dial(o.External, *creds, common...)
		return err
	}
	bo := o.Broker
	bo.Data, bo.Listen, bo.Log = o.Data, o.NATS, o.Log
	bo.OnViolation = d.violation
	if d.broker, err = StartBroker(bo); err != nil {
		return err
	}
	nk, err := creds.NKeyOption()
	if err != nil {
		return err
	}
	d.nc, err = nats.Connect(d.broker.URL(), append(common, nats.InProcessServer(d.broker.S), nk)...)
	return err
}

// subscribe takes the tables' live messages and their questions.
func (d *Desk) subscribe() error {
	for _, k := range []string{desk.KindStatus, desk.KindStart, desk.KindEnd, desk.KindPenalty} {
		sub, err := d.nc.Subscribe("wolftable.table.*."+k, d.onLive)
		if err != nil {
			return err
		}
		sub.SetPendingLimits(4096, 8<<20) // a flood is dropped, not queued
	}
	for k, f := range map[string]nats.MsgHandler{desk.KindAsk: d.onAsk, desk.KindRoster: d.onRoster} {
		sub, err := d.nc.Subscribe("wolftable.table.*."+k, f)
		if err != nil {
			return err
		}
		sub.SetPendingLimits(4096, 8<<20)
	}
	return nil
}

// Counts are the records stored, received again and refused since the start.
func (d *Desk) Counts() (stored, duplicate, refused int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ingest.stored, d.ingest.duplicate, d.ingest.refused
}

// violation: the broker refused a publication or a subscription (a
// table under another table's subject, or at another table's inbox):
// listed with the refused records.
func (d *Desk) violation(table, subject string) {
	owner, _ := desk.SubjectTable(subject)
	reason := fmt.Sprintf("桌子 %s 試圖在 %s 發布或訂閱，被伺服器拒絕：每張桌子只能在自己的主題（%s.>）發布、只收自己的回覆（%s.>）",
		table, subject, desk.Prefix(table), desk.InboxPrefix(table))
	if owner != "" && owner != table {
		reason = fmt.Sprintf("桌子 %s 試圖以桌子 %s 的名義發布（%s），被伺服器拒絕：每張桌子只能在自己的主題發布", table, owner, subject)
	}
	d.log.Warn("desk: a publication or subscription refused by the broker", "table", table, "subject", subject)
	if err := d.Store.Refuse(desk.Refusal{Table: table, Subject: subject, Reason: reason}); err != nil {
		d.log.Error("desk: refused list", "err", err)
	}
}

// watchRegistry takes the tables registered (or renewed) while the desk
// runs: the broker's users, and the tables the desk shows.
func (d *Desk) watchRegistry(ctx context.Context) {
	defer d.wg.Done()
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if d.broker != nil {
				if err := d.broker.Reload(); err != nil {
					d.log.Warn("desk: registry reload", "err", err)
				}
			}
			if err := d.loadTables(); err != nil {
				d.log.Warn("desk: registry", "err", err)
			}
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
func (d *Desk) HTTPURL() string { return "http://" + hostPort(d.httpLn.Addr()) + "/" }

// Close stops the desk: the page, the consumer, the connection, the server.
func (d *Desk) Close() {
	if d.cancel != nil {
		d.cancel()
	}
	if d.quit != nil {
		select {
		case <-d.quit:
		default:
			close(d.quit)
		}
	}
	for _, srv := range []*http.Server{d.srv, d.srvTLS} {
		if srv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			srv.Shutdown(ctx)
			cancel()
		}
	}
	if d.op != nil {
		d.op.rejects.Stop()
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
	if d.Store != nil {
		if err := d.Store.Flush(); err != nil {
			d.log.Error("desk: the refused records' counts", "err", err)
		}
	}
}
