package deskserver

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestClusterSurvivesANodesDeath: three embedded servers on loopback in a
// cluster, the records stream and the desk's consumer replicated on all
// three (R3); the desk and three tables connect to the cluster; the
// stream's leader is shut down while the tables send their records:
// every record is stored, once.
func TestClusterSurvivesANodesDeath(t *testing.T) {
	if testing.Short() {
		t.Skip("three servers")
	}
	data, cs := setup(t, 3)
	routes := []int{freePort(t), freePort(t), freePort(t)}
	var routeURLs []string
	for _, p := range routes {
		routeURLs = append(routeURLs, fmt.Sprintf("nats-route://127.0.0.1:%d", p))
	}
	var nodes []*Broker
	var urls []string
	for i := range 3 {
		b, err := StartBroker(BrokerOptions{Data: data, Listen: "127.0.0.1:0", ClusterName: "venue", NodeName: fmt.Sprintf("n%d", i),
			RouteListen: fmt.Sprintf("127.0.0.1:%d", routes[i]), Routes: routeURLs, StoreDir: filepath.Join(t.TempDir(), "js")})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Shutdown()
		nodes = append(nodes, b)
		urls = append(urls, b.URL())
	}
	for _, b := range nodes {
		for end := time.Now().Add(20 * time.Second); !b.S.JetStreamIsCurrent() && time.Now().Before(end); {
			time.Sleep(50 * time.Millisecond)
		}
	}
	d, err := Start(Options{Data: data, External: strings.Join(urls, ","), HTTP: "127.0.0.1:0", Replicas: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const per = 4
	var dirs []string
	for i := range cs {
		dir := t.TempDir()
		for k := range per {
			desktest.Play(t, dir, "seer-witch-hunter-idiot", uint64(100*(i+1)+k), key(byte(i+1)), 0)
		}
		dirs = append(dirs, dir)
	}
	var pubs []*desk.Publisher
	for i, c := range cs {
		p, err := desk.Start(desk.PublisherConfig{URL: strings.Join(urls, ","), Creds: c, JournalDir: dirs[i]})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		pubs = append(pubs, p)
	}
	waitFor(t, "the first records", func() bool { return len(d.Store.Games()) >= 2 })
	js, _ := jetstream.New(d.nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	info, err := js.Stream(ctx, Stream)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	leader := info.CachedInfo().Cluster.Leader
	stored := len(d.Store.Games())
	for i, b := range nodes {
		if b.S.Name() == leader || (leader == "" && i == 0) {
			t.Logf("shutting down %s (the stream's leader) after %d of %d records", b.S.Name(), stored, per*len(cs))
			b.Shutdown()
		}
	}
	var wg sync.WaitGroup
	for _, p := range pubs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if err := p.Flush(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	waitFor(t, "every record", func() bool { return len(d.Store.Games()) == per*len(cs) })
	time.Sleep(300 * time.Millisecond)
	if n := len(d.Store.Games()); n != per*len(cs) {
		t.Fatalf("%d games, want %d", n, per*len(cs))
	}
	if r := d.Store.Refused(); len(r) != 0 {
		t.Fatalf("refused: %+v", r)
	}
	st, dup, ref := d.Counts()
	t.Logf("stored %d, duplicates %d, refused %d", st, dup, ref)
}
