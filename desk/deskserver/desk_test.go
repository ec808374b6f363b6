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
	// The table asks the desk first: it holds the record, the marker says
	// so; and a raw second delivery is a duplicate for the store.
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
	nc, err := desk.Dial(d.NATSURL(), cs[0],
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

// TestRefusedRecordMarked (issue 27 item 3): a record the desk refuses
// (signed with a key that is not the table's registered one) is marked
// .refused with the desk's reason, never .sent, the table is told once,
// and it leaves the outbox; once the organiser registers the right key
// (the fix) and the table resends it, the desk stores it and it is
// marked .sent. The old table marked a refused record .sent at
// JetStream's acknowledgement and the judge never heard of it.
func TestRefusedRecordMarked(t *testing.T) {
	data, cs := setup(t, 1)
	d := startDesk(t, data)
	defer d.Close()
	jdir := t.TempDir()
	path := desktest.Play(t, jdir, "seer-witch-hunter-idiot", 71, key(9), 0) // the table signs with key 9; the desk knows key 1
	told := make(chan string, 4)
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir,
		OnRefused: func(file, reason string) { told <- reason }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flush(t, p)
	var reason string
	select {
	case reason = <-told:
	default:
		t.Fatal("the table was not told of the refusal")
	}
	if !strings.Contains(reason, "簽章金鑰不符") {
		t.Errorf("the reason: %q", reason)
	}
	if _, err := os.Stat(path + desk.SentSuffix); err == nil {
		t.Fatal("a refused record is marked sent")
	}
	ref, err := desk.RefusedJournals(jdir)
	if err != nil || ref[path].Reason != reason {
		t.Fatalf("the .refused marker: %+v %v", ref, err)
	}
	if out, _ := desk.Outbox(jdir); len(out) != 0 {
		t.Errorf("a refused record is still in the outbox: %v", out)
	}
	// the fix: the organiser registers the key the table signs with
	pub := key(9).Public().(ed25519.PublicKey)
	if err := os.WriteFile(filepath.Join(desk.TablesDir(data), "T1.pub"), []byte(journal.FormatPublicKey(pub)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if back, err := desk.Resend(jdir, nil); err != nil || len(back) != 1 {
		t.Fatalf("resend: %v %v", back, err)
	}
	flush(t, p)
	if _, err := os.Stat(path + desk.SentSuffix); err != nil {
		t.Fatalf("the resent record is not marked sent: %v", err)
	}
	if g := d.Store.Games(); len(g) != 1 {
		t.Fatalf("games after the resend: %+v", g)
	}
	select {
	case r := <-told:
		t.Errorf("told of a refusal again: %s", r)
	default:
	}
}
