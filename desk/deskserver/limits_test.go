package deskserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestStatusLimits (issue 28 D3): a status of 3,000,000 seats, one with
// seats out of range or a 7-kilobyte board name, and a 1 MB status are
// dropped and counted; a 7 MB message is refused by the server itself
// before it is read; a good status still shows, and the feed page renders
// in bounded time. The old desk stored each as it came.
func TestStatusLimits(t *testing.T) {
	data, cs := setup(t, 1)
	d := startDesk(t, data)
	defer d.Close()
	nc, err := desk.Dial(d.NATSURL(), cs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	subj := desk.Subject("T1", desk.KindStatus)
	send := func(v any) {
		b, _ := json.Marshal(v)
		if err := nc.Publish(subj, b); err != nil {
			t.Fatal(err)
		}
	}
	send(map[string]any{"seats": 3_000_000, "alive": []int{1}})
	send(desk.Status{Seats: 12, Alive: []int{0, 13}})
	send(desk.Status{Seats: 12, BoardName: strings.Repeat("板", 2400)})
	send(desk.Status{Seats: 12, Alive: []int{3, 3}})
	big := make([]int, 250_000)
	for i := range big {
		big[i] = i + 1
	}
	send(map[string]any{"seats": 12, "alive": big}) // 1.6 MB
	nc.Flush()
	waitFor(t, "five statuses dropped", func() bool { return d.Tables()[0].Dropped == 5 })
	if s := d.Tables()[0].Status; s != nil {
		t.Fatalf("a refused status is shown: %+v", s)
	}
	if got := desktest.RawPublish(t, d.NATSURL(), cs[0], subj, 7<<20); !strings.Contains(got, "Maximum Payload") {
		t.Errorf("a 7 MB status: the server answered %q, want a payload violation", got)
	}
	send(desk.Status{Seats: 12, Alive: []int{1, 2, 5}, Sheriff: 5, Phase: "day-1", Board: "seer-witch-hunter-idiot"})
	nc.Flush()
	waitFor(t, "the good status", func() bool { s := d.Tables()[0].Status; return s != nil && s.Sheriff == 5 })
	resp, err := http.Get(d.HTTPURL() + "feed/T1")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || n > 64<<10 {
		t.Errorf("the feed page: %d, %d bytes", resp.StatusCode, n)
	}
}

// TestRefusedQuota (issue 28 D5): 100 MB of junk records from one table
// leave the desk's data folder under its quota (the stream's bound, the
// table's refused bytes, their listing), with the first refusals listed
// and their reasons kept; the next real record of another table is
// stored. The old desk kept every refused payload twice.
func TestRefusedQuota(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB")
	}
	data, cs := setup(t, 2)
	const streamMax, refusedMax, list = 16 << 20, 4 << 20, 40
	d, err := Start(Options{Data: data, NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0", StreamMaxBytes: streamMax, RefusedBytes: refusedMax, RefusedList: list})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	nc, err := desk.Dial(d.NATSURL(), cs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	junk := make([]byte, 1<<20)
	for i := range 100 {
		rand.Read(junk)
		publishJunk(t, js, d, "T2", junk, i)
	}
	waitFor(t, "the junk consumed", func() bool { _, _, ref := d.Counts(); return ref == 100 })
	jdir := t.TempDir()
	desktest.Play(t, jdir, "seer-witch-hunter-idiot", 61, key(1), 0)
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flush(t, p)
	if g := d.Store.Games(); len(g) != 1 || g[0].Table != "T1" {
		t.Fatalf("the real record after the junk: %+v", g)
	}
	var used int64
	filepath.WalkDir(data, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if fi, err := e.Info(); err == nil {
				used += fi.Size()
			}
		}
		return nil
	})
	quota := int64(streamMax + refusedMax + 2<<20) // and the listing, the record, the broker's own files
	t.Logf("the data folder holds %.1f MB after 100 MB of junk (quota %.1f MB)", float64(used)/(1<<20), float64(quota)/(1<<20))
	if used > quota {
		t.Errorf("the data folder holds %d bytes, over the quota %d", used, quota)
	}
	listed := 0
	for _, r := range d.Store.Refused() {
		if r.Table == "T2" {
			listed++
			if r.Reason == "" {
				t.Errorf("a refusal without its reason: %+v", r)
			}
		}
	}
	if listed != list || d.Store.Unlisted()["T2"] != 100-list {
		t.Errorf("%d refusals of T2 listed, %d counted only; want %d and %d", listed, d.Store.Unlisted()["T2"], list, 100-list)
	}
}

// publishJunk publishes one junk record as a table's publisher would: a
// full stream refuses it (DiscardNew) and it is sent again once the desk
// has consumed some. The wait is bounded by the desk's progress: 30 s
// in which the desk consumed nothing fail the test.
func publishJunk(t *testing.T, js jetstream.JetStream, d *Desk, table string, junk []byte, i int) {
	t.Helper()
	_, _, last := d.Counts()
	idle := time.Now()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := js.Publish(ctx, desk.Subject(table, desk.KindRecord), junk)
		cancel()
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "maximum bytes exceeded") {
			t.Fatalf("junk %d: %v", i, err)
		}
		if _, _, ref := d.Counts(); ref != last {
			last, idle = ref, time.Now()
		} else if time.Since(idle) > 30*time.Second {
			t.Fatalf("junk %d: the stream is full and the desk consumed nothing for 30 s", i)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFloodEvictsNoRecord: a table's record waits in the stream (the
// desk's consumer paused); another table's credentials flood the stream
// past its bound; once the desk consumes again, the real record is
// stored. With DiscardOld the flood evicted it and the table had to wait
// out its confirmation window to send it again.
func TestFloodEvictsNoRecord(t *testing.T) {
	data, cs := setup(t, 2)
	const streamMax = 4 << 20
	d, err := Start(Options{Data: data, NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0", StreamMaxBytes: streamMax})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.cc.Stop()
	jdir := t.TempDir()
	path := desktest.Play(t, jdir, "seer-witch-hunter-idiot", 61, key(1), 0)
	record, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n1, err := desk.Dial(d.NATSURL(), cs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer n1.Close()
	js1, _ := jetstream.New(n1)
	m := nats.NewMsg(desk.Subject("T1", desk.KindRecord))
	m.Data = record
	m.Header.Set(desk.FileHeader, filepath.Base(path))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := js1.PublishMsg(ctx, m); err != nil {
		t.Fatal(err)
	}
	n2, err := desk.Dial(d.NATSURL(), cs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer n2.Close()
	js2, _ := jetstream.New(n2)
	junk := make([]byte, 512<<10)
	refused := 0
	for range 3 * streamMax / len(junk) {
		rand.Read(junk)
		if _, err := js2.Publish(ctx, desk.Subject("T2", desk.KindRecord), junk); err != nil {
			if !strings.Contains(err.Error(), "maximum bytes exceeded") {
				t.Fatal(err)
			}
			refused++
		}
	}
	if refused == 0 {
		t.Errorf("a flood of %d bytes into a stream of %d: nothing refused", 3*streamMax, streamMax)
	}
	if err := d.consume(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the real record", func() bool { return len(d.Store.Games()) == 1 })
	if g := d.Store.Games(); g[0].Table != "T1" {
		t.Fatalf("stored: %+v", g)
	}
}
