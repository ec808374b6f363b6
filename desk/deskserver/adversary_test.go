package deskserver

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"wolftable/desk"
	"wolftable/desk/desktest"
	"wolftable/journal"
)

// finalHash is a journal's final hash (hex), as the old end event and the
// old message id carried it.
func finalHash(t *testing.T, path string) string {
	t.Helper()
	j, err := journal.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	h := j.Head()
	return hex.EncodeToString(h[:])
}

// TestTableCannotSuppressAnother (issue 28 D1): table T2's credentials
// publish junk on T2's subject with T1's final hash as the message id
// (and the per-table ids another design would use), before T1 publishes
// and all along while it does: T1's game is stored, counted and marked
// sent, and the desk tells T2 it holds nothing of that hash for T2. On the
// old desk, T2's junk took the id, JetStream answered T1 "duplicate", T1
// marked the record sent and the game was never counted.
func TestTableCannotSuppressAnother(t *testing.T) {
	data, cs := setup(t, 2)
	d := startDesk(t, data)
	defer d.Close()
	jdir := t.TempDir()
	path := desktest.Play(t, jdir, "seer-witch-hunter-idiot", 31, key(1), 0)
	hash := finalHash(t, path)
	nc, err := desk.Dial(d.NATSURL(), cs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	junk := func(id string) {
		m := nats.NewMsg(desk.Subject("T2", desk.KindRecord))
		m.Data = []byte("junk " + id)
		m.Header.Set(jetstream.MsgIDHeader, id)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		js.PublishMsg(ctx, m) // acknowledged or not: the attacker does not care
	}
	ids := []string{hash, "T1:" + hash, "T1." + hash, "T1/" + hash}
	for _, id := range ids {
		junk(id) // before T1 publishes
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // and while it does
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			junk(ids[i%len(ids)])
		}
	}()
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flush(t, p)
	close(stop)
	wg.Wait()
	g := d.Store.Games()
	if len(g) != 1 || g[0].Table != "T1" || g[0].Hash != hash {
		t.Fatalf("T1's game is not counted: %+v", g)
	}
	if rows := d.Standings(); len(rows) == 0 || !strings.HasPrefix(rows[0].Player, "T1/") {
		t.Fatalf("T1's game is not in the standings: %+v", rows)
	}
	var mk desk.Marker
	if b, err := os.ReadFile(path + desk.SentSuffix); err != nil || json.Unmarshal(b, &mk) != nil || mk.Hash != hash || mk.Duplicate {
		t.Fatalf("T1's marker: %s %v (%+v)", b, err, mk)
	}
	// T2 asks the desk about T1's hash, on its own subject: nothing for T2
	body, _ := json.Marshal(desk.Ask{Hash: hash})
	msg, err := nc.Request(desk.Subject("T2", desk.KindAsk), body, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var v desk.Verdict
	if json.Unmarshal(msg.Data, &v) != nil || v.State != desk.VerdictUnknown {
		t.Fatalf("the desk told T2 about T1's record: %s", msg.Data)
	}
}

// recorder is a TCP proxy on loopback that keeps every byte it relays.
type recorder struct {
	ln  net.Listener
	mu  sync.Mutex
	buf bytes.Buffer
}

func startRecorder(t *testing.T, target string) *recorder {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			pipe := func(dst, src net.Conn) {
				io.Copy(io.MultiWriter(dst, r), src)
				dst.Close()
			}
			go pipe(s, c)
			go pipe(c, s)
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return r
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

func (r *recorder) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.buf.Bytes()...)
}

// TestLinkIsEncrypted (issue 28 D2): a sniffer on the loopback between a
// table and its desk sees no credential, no status and no record in
// clear, only the server's greeting; a server that is not the pinned desk
// is refused. The old link carried CONNECT {"user":"table-T1","pass":…}
// and the journal as they were.
func TestLinkIsEncrypted(t *testing.T) {
	data, cs := setup(t, 1)
	d := startDesk(t, data)
	defer d.Close()
	rec := startRecorder(t, strings.TrimPrefix(d.NATSURL(), "nats://"))
	jdir := t.TempDir()
	path := desktest.Play(t, jdir, "seer-witch-hunter-idiot", 41, key(1), 0)
	p, err := desk.Start(desk.PublisherConfig{URL: "nats://" + rec.ln.Addr().String(), Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	p.Status(desk.Status{Board: "seer-witch-hunter-idiot", BoardName: "預女獵愚", Phase: "day-2", Seats: 12, Alive: []int{1, 2, 3}})
	flush(t, p)
	p.Close()
	if len(d.Store.Games()) != 1 {
		t.Fatal("the record did not arrive through the proxy")
	}
	wire := rec.bytes()
	record, _ := os.ReadFile(path)
	clear := []struct {
		what  string
		bytes []byte
	}{
		{"CONNECT", []byte("CONNECT")},
		{"the NKEY seed", []byte(cs[0].NKey)},
		{"a password field", []byte(`"pass"`)},
		{"the table's user", []byte(`"user"`)},
		{"the status", []byte("預女獵愚")},
		{"the record's subject", []byte("wolftable.table.T1.record")},
		{"the record's first line", record[:64]},
		{"the record's last bytes", record[len(record)-64:]},
	}
	for _, c := range clear {
		if bytes.Contains(wire, c.bytes) {
			t.Errorf("the sniffer read %s in clear (%d bytes relayed)", c.what, len(wire))
		}
	}
	if !bytes.Contains(wire, []byte(`"tls_required":true`)) {
		t.Errorf("no TLS greeting on the wire: %.200q", wire)
	}
	// a server with another certificate (a stand-in on the venue's LAN)
	other := t.TempDir()
	if _, err := desk.DeskCert(other); err != nil {
		t.Fatal(err)
	}
	c2 := cs[0]
	oc, _ := desk.DeskCert(other)
	c2.TLSPins = []string{desk.TLSPin(oc.Leaf)}
	if nc, err := desk.Dial(d.NATSURL(), c2, nats.Timeout(5*time.Second)); err == nil {
		nc.Close()
		t.Error("a table connected to a desk whose certificate is not the pinned one")
	} else if !strings.Contains(err.Error(), "not the desk's") {
		t.Errorf("refused for another reason: %v", err)
	}
}

// TestInboxesPerTable (issue 28 D9): table T2 cannot subscribe to T1's
// inbox nor to every inbox, and hears nothing of T1's record and
// acknowledgements; the broker's refusal is listed. The old permissions
// let every table subscribe to _INBOX.>.
func TestInboxesPerTable(t *testing.T) {
	data, cs := setup(t, 2)
	d := startDesk(t, data)
	defer d.Close()
	errs := make(chan error, 16)
	nc, err := desk.Dial(d.NATSURL(), cs[1], nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var mu sync.Mutex
	heard := 0
	for _, subj := range []string{desk.InboxPrefix("T1") + ".>", "_INBOX.>", ">"} {
		if _, err := nc.Subscribe(subj, func(*nats.Msg) { mu.Lock(); heard++; mu.Unlock() }); err != nil {
			t.Fatal(err)
		}
	}
	nc.Flush()
	violations := 0
	for end := time.After(10 * time.Second); violations < 3; {
		select {
		case err := <-errs:
			if strings.Contains(err.Error(), "Permissions Violation for Subscription") {
				violations++
			}
		case <-end:
			t.Fatalf("%d of 3 subscriptions refused", violations)
		}
	}
	jdir := t.TempDir()
	desktest.Play(t, jdir, "seer-witch-hunter-idiot", 51, key(1), 0)
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flush(t, p)
	nc.Flush()
	mu.Lock()
	defer mu.Unlock()
	if heard != 0 {
		t.Errorf("T2 heard %d messages of T1's traffic", heard)
	}
	waitFor(t, "the refusals listed", func() bool {
		n := 0
		for _, r := range d.Store.Refused() {
			if r.Table == "T2" && strings.Contains(r.Reason, "訂閱") {
				n++
			}
		}
		return n >= 3
	})
}

// TestRenewCutsOldCreds: `desk table renew` gives the table a new NKEY;
// within the registry's reload the old credentials' connection is closed
// and a new one refused, and the new file works.
func TestRenewCutsOldCreds(t *testing.T) {
	data, cs := setup(t, 1)
	d := startDesk(t, data)
	defer d.Close()
	closed := make(chan struct{})
	old, err := desk.Dial(d.NATSURL(), cs[0], nats.NoReconnect(), nats.ClosedHandler(func(*nats.Conn) { close(closed) }))
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	path, err := desk.RenewTable(data, "T1", "")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := desk.ReadCreds(path)
	if err != nil || fresh.NKey == cs[0].NKey {
		t.Fatalf("renewed: %v, same NKEY %v", err, fresh.NKey == cs[0].NKey)
	}
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("the old credentials' connection is still open")
	}
	if nc, err := desk.Dial(d.NATSURL(), cs[0], nats.Timeout(5*time.Second)); err == nil {
		nc.Close()
		t.Error("the old credentials still log in")
	}
	nc, err := desk.Dial(d.NATSURL(), fresh)
	if err != nil {
		t.Fatalf("the new credentials: %v", err)
	}
	nc.Close()
}

// TestRemovedTableLocked (issue 29 item 8): a table removed while the
// desk runs (`desk table remove`) loses its connection and cannot log in
// again, and leaves the desk's tables; its stored game stays counted.
func TestRemovedTableLocked(t *testing.T) {
	data, cs := setup(t, 2)
	d := startDesk(t, data)
	defer d.Close()
	jdir := t.TempDir()
	desktest.Play(t, jdir, "seer-witch-hunter-idiot", 31, key(1), 0)
	p, err := desk.Start(desk.PublisherConfig{URL: d.NATSURL(), Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	flush(t, p)
	p.Close()
	waitFor(t, "the record", func() bool { return len(d.Store.Games()) == 1 })
	closed := make(chan struct{})
	nc, err := desk.Dial(d.NATSURL(), cs[0], nats.ClosedHandler(func(*nats.Conn) { close(closed) }), nats.NoReconnect())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if err := desk.RemoveTable(data, "T1"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("the removed table's connection is still open")
	}
	if nc, err := desk.Dial(d.NATSURL(), cs[0], nats.Timeout(5*time.Second)); err == nil {
		nc.Close()
		t.Error("the removed table still logs in")
	}
	waitFor(t, "T1 off the desk's tables", func() bool { l := d.Tables(); return len(l) == 1 && l[0].Name == "T2" })
	if g := d.Store.Games(); len(g) != 1 || g[0].Table != "T1" {
		t.Errorf("the removed table's game: %+v", g)
	}
}
