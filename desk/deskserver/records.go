package deskserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"wolftable/desk"
)

// The records stream (issue 28 D1, D5): a work queue, so that a record
// leaves the stream once the desk has consumed it (stored, or refused and
// listed within the table's quota); its bytes, its count per table and
// its age are bounded, the oldest dropped first: a table whose record was
// dropped unconsumed hears nothing from the desk and sends it again. No
// message id: JetStream deduplicates by id across the whole stream, so a
// table could suppress another's record with it; the store deduplicates
// by the record's own hash, per table.

// Stream and Consumer are the JetStream names of the records.
const (
	Stream   = "WOLFTABLE_RECORDS"
	Consumer = "desk"
)

// DefaultStreamMaxBytes is Options.StreamMaxBytes when 0.
const DefaultStreamMaxBytes = 256 << 20

// streamConfig: a full stream refuses what comes (DiscardNew) rather than
// dropping the oldest record not yet consumed. A table whose record is
// refused keeps it in its outbox and sends it again; a flood from one
// table's credentials can delay another table's record, never evict it.
func (d *Desk) streamConfig() jetstream.StreamConfig {
	return jetstream.StreamConfig{Name: Stream, Subjects: []string{"wolftable.table.*.record"}, Storage: jetstream.FileStorage,
		Replicas: d.opts.Replicas, Retention: jetstream.WorkQueuePolicy, Discard: jetstream.DiscardNew,
		MaxBytes: d.opts.StreamMaxBytes, MaxMsgsPerSubject: 256, MaxAge: 7 * 24 * time.Hour, MaxMsgSize: MaxPayload,
		Duplicates: 2 * time.Minute}
}

// consume makes the records stream and the desk's durable pull consumer
// (idempotent) and stores every record; a record is acknowledged once
// stored, or refused and listed.
func (d *Desk) consume(ctx context.Context) error {
	js, err := jetstream.New(d.nc)
	if err != nil {
		return err
	}
	stream, err := d.stream(ctx, js)
	if err != nil {
		return fmt.Errorf("desk: the records stream: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cons, err := stream.CreateOrUpdateConsumer(sctx, jetstream.ConsumerConfig{Durable: Consumer, AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: 30 * time.Second, MaxAckPending: 64, Replicas: d.opts.Replicas})
	if err != nil {
		return fmt.Errorf("desk: the records consumer: %w", err)
	}
	d.cc, err = cons.Consume(d.onRecord, jetstream.PullMaxBytes(2*MaxPayload),
		jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
			if !errors.Is(err, nats.ErrConnectionClosed) {
				d.log.Debug("desk: consumer", "err", err)
			}
		}))
	return err
}

// stream makes or updates the records stream. A stream of an older desk
// (kept every record: limits retention) becomes a work queue once its
// consumer has nothing pending: what it held is in DATA/records.
func (d *Desk) stream(ctx context.Context, js jetstream.JetStream) (jetstream.Stream, error) {
	cfg := d.streamConfig()
	var err error
	for try := 0; ; try++ { // a cluster elects its meta leader first
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		var s jetstream.Stream
		s, err = js.CreateOrUpdateStream(sctx, cfg)
		if err != nil && strings.Contains(err.Error(), "retention") {
			err = d.migrate(sctx, js)
			if err == nil {
				s, err = js.CreateStream(sctx, cfg)
			}
		}
		cancel()
		if err == nil {
			return s, nil
		}
		if try == 20 {
			return nil, err
		}
		d.log.Debug("desk: the records stream, again", "err", err)
		time.Sleep(500 * time.Millisecond)
	}
}

func (d *Desk) migrate(ctx context.Context, js jetstream.JetStream) error {
	old, err := js.Stream(ctx, Stream)
	if err != nil {
		return err
	}
	if c, err := old.Consumer(ctx, Consumer); err == nil {
		info, err := c.Info(ctx)
		if err != nil {
			return err
		}
		if info.NumPending > 0 || info.NumAckPending > 0 {
			return fmt.Errorf("舊版總台的紀錄串流還有 %d 份未處理：請先用舊版總台收完再升級 / the old stream has unconsumed records",
				info.NumPending+uint64(info.NumAckPending))
		}
	}
	d.log.Warn("desk: the records stream of an older desk becomes a work queue (its records are in DATA/records)")
	return js.DeleteStream(ctx, Stream)
}

func (d *Desk) onRecord(m jetstream.Msg) {
	h := m.Headers()
	out, v, err := d.Store.IngestVerdict(m.Subject(), h.Get(jetstream.MsgIDHeader), h.Get(desk.FileHeader), m.Data())
	if err != nil {
		d.log.Error("desk: a record could not be stored; it will come again", "subject", m.Subject(), "err", err)
		m.NakWithDelay(time.Second)
		return
	}
	table, _ := desk.SubjectTable(m.Subject())
	d.verdicts.put(table, h.Get(desk.AttemptHeader), v)
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
	d.log.Info("desk: record", "table", table, "outcome", out.String(), "file", h.Get(desk.FileHeader))
}
