package deskserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// TestVenueConfig: a nats-server started from `desk venue-config`'s file,
// as a venue runs it, takes the desk (--cluster) and a table over TLS with
// their NKEYs: the table's record is stored; the table may not listen to
// the other inboxes; a cluster's configuration parses, with route TLS
// pinned to the desk's certificate.
func TestVenueConfig(t *testing.T) {
	data, cs := setup(t, 2)
	dir := t.TempDir()
	conf, err := VenueConfig(data, VenueOptions{StoreDir: filepath.Join(dir, "js"), Listen: "127.0.0.1:-1"})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "venue.conf")
	os.WriteFile(file, []byte(conf), 0o600)
	opts, err := server.ProcessConfigFile(file)
	if err != nil {
		t.Fatalf("%v\n%s", err, conf)
	}
	opts.NoSigs = true
	s, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	defer s.Shutdown()
	if !s.ReadyForConnections(20 * time.Second) {
		t.Fatal("the venue's server did not start")
	}
	url := "nats://" + strings.TrimPrefix(strings.TrimPrefix(s.ClientURL(), "tls://"), "nats://")
	d, err := Start(Options{Data: data, External: url, HTTP: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	jdir := t.TempDir()
	desktest.Play(t, jdir, "seer-witch-hunter-idiot", 81, key(1), 0)
	p, err := desk.Start(desk.PublisherConfig{URL: url, Creds: cs[0], JournalDir: jdir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	flush(t, p)
	if g := d.Store.Games(); len(g) != 1 || g[0].Table != "T1" {
		t.Fatalf("games at the desk over the venue's server: %+v", g)
	}
	errs := make(chan error, 4)
	nc, err := desk.Dial(url, cs[1], nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Subscribe("_INBOX.>", func(*nats.Msg) {})
	select {
	case err := <-errs:
		if !strings.Contains(err.Error(), "Permissions Violation") {
			t.Errorf("T2 subscribing to every inbox: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the venue's server let T2 subscribe to every inbox")
	}

	cluster, err := VenueConfig(data, VenueOptions{StoreDir: filepath.Join(dir, "js2"), ClusterName: "venue",
		Routes: []string{"nats-route://127.0.0.1:16222", "nats-route://127.0.0.1:16223"}})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, []byte(cluster), 0o600)
	co, err := server.ProcessConfigFile(file)
	if err != nil {
		t.Fatalf("the cluster's configuration: %v\n%s", err, cluster)
	}
	if co.Cluster.TLSConfig == nil || len(co.Cluster.TLSPinnedCerts) != 1 || len(co.Nkeys) != 3 || co.MaxPayload != MaxPayload {
		t.Errorf("the cluster's configuration: route TLS %v, pins %d, nkeys %d, max payload %d", co.Cluster.TLSConfig != nil,
			len(co.Cluster.TLSPinnedCerts), len(co.Nkeys), co.MaxPayload)
	}
}
