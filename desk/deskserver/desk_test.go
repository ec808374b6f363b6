package deskserver

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"wolftable/desk"
	"wolftable/desk/desktest"
	"wolftable/journal"
)

func key(b byte) ed25519.PrivateKey { return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, 32)) }

// setup registers tables T1..Tn (table i signs with key(i)) and returns
// the data folder and each table's credentials.
func setup(t *testing.T, n int) (string, []desk.Creds) {
	t.Helper()
	data := t.TempDir()
	var cs []desk.Creds
	for i := 1; i <= n; i++ {
		p, err := desk.AddTable(data, fmt.Sprintf("T%d", i), key(byte(i)).Public().(ed25519.PublicKey), "")
		if err != nil {
			t.Fatal(err)
		}
		c, err := desk.ReadCreds(p)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return data, cs
}

func startDesk(t *testing.T, data string) *Desk {
	t.Helper()
	d, err := Start(Options{Data: data, NATS: "127.0.0.1:0", HTTP: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func flush(t *testing.T, p *desk.Publisher) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestRecordsCountedOnce: a table sends its record; its marker is lost
// (a kill before it was written) and it sends the record again; the desk
// is restarted and the durable consumer goes on: the game is stored and
// counted once.
func TestRecordsCountedOnce(t *testing.T) {
	data, cs := setup(t, 1)
	d := startDesk(t, data)
	jdir := t.TempDir()
	path := desktest.Play(t, jdir, "seer-witch-hunter-idiot", 11, key(1), 2)
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flush(t, p)
	if _, err := os.Stat(path + desk.SentSuffix); err != nil {
		t.Fatal("no .sent marker after the ack")
	}
	waitFor(t, "the record stored", func() bool { return len(d.Store.Games()) == 1 })
	os.Remove(path + desk.SentSuffix) // as if killed before the marker
	flush(t, p)
	// JetStream's own dedupe (Nats-Msg-Id) answers a duplicate ack; and
	// bypassing it, a raw second delivery is a duplicate for the store.
	mk, _ := os.ReadFile(path + desk.SentSuffix)
	if !strings.Contains(string(mk), `"duplicate":true`) {
		t.Fatalf("the second send was not acknowledged as a duplicate: %s", mk)
	}
	b, _ := os.ReadFile(path)
	if out, err := d.Store.Ingest(desk.Subject("T1", desk.KindRecord), "", "x", b); out != desk.Duplicate || err != nil {
		t.Fatalf("a second delivery: %v %v", out, err)
	}
	d.Close()
	d = startDesk(t, data)
	defer d.Close()
	os.Remove(path + desk.SentSuffix)
	p2, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	flush(t, p2)
	time.Sleep(200 * time.Millisecond)
	if g := d.Store.Games(); len(g) != 1 {
		t.Fatalf("%d games stored, want 1", len(g))
	}
	re, err := d.Store.Recompute()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := fmt.Sprint(desk.Standings(d.pack, re)), fmt.Sprint(d.Standings()); a != b {
		t.Fatalf("recompute:\n%s\nlive:\n%s", a, b)
	}
}

// TestForgedRecordsRefused: a record with an edited result (re-signed
// with a key that is not the table's, and edited without re-signing), and
// a table publishing under another table's subject: refused, listed with
// the reason, never counted.
func TestForgedRecordsRefused(t *testing.T) {
	data, cs := setup(t, 2)
	d := startDesk(t, data)
	defer d.Close()
	jdir := t.TempDir()
	good := desktest.Play(t, jdir, "seer-witch-hunter-idiot", 21, key(1), 0)
	forged := desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 22, key(9), 0) // a rewritten game signed by another key
	b, _ := os.ReadFile(forged)
	os.WriteFile(filepath.Join(jdir, "forged"+journal.Extension), b, 0o644)
	edited, _ := os.ReadFile(good)
	j, _ := journal.Load(bytes.NewReader(edited))
	end, _ := j.End()
	i := bytes.LastIndex(edited, []byte(end.Result))
	copy(edited[i:], map[string]string{"好人": "狼人", "狼人": "好人", "流局": "狼人"}[end.Result])
	// A journal that fails to read never leaves the table's outbox: the
	// edited one goes out through a raw connection with T1's credentials.
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flush(t, p)
	nc, err := nats.Connect(d.NATSURL(), nats.UserInfo(cs[0].User, cs[0].Password),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { t.Logf("T1's connection: %v", err) }))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := js.Publish(ctx, desk.Subject("T1", desk.KindRecord), edited); err != nil {
		t.Fatal(err)
	}
	// T1 publishes its good record under T2's subject: the broker refuses.
	b, _ = os.ReadFile(good)
	ctx2, cancel2 := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel2()
	_, err = js.Publish(ctx2, desk.Subject("T2", desk.KindRecord), b, jetstream.WithRetryAttempts(0))
	if err == nil {
		t.Fatal("the broker took T1's publication under T2's subject")
	}
	t.Logf("T1 under T2's subject: %v", err)
	waitFor(t, "three refusals", func() bool { return len(d.Store.Refused()) == 3 })
	for _, r := range d.Store.Refused() {
		t.Logf("refused: table %s subject %s: %s", r.Table, r.Subject, r.Reason)
	}
	reasons := fmt.Sprint(d.Store.Refused())
	for _, want := range []string{"簽章金鑰不符", "雜湊不符", "以桌子 T2 的名義發布"} {
		if !strings.Contains(reasons, want) {
			t.Errorf("no refusal says %q: %s", want, reasons)
		}
	}
	if g := d.Store.Games(); len(g) != 1 || g[0].Table != "T1" {
		t.Fatalf("games: %+v", g)
	}
}
