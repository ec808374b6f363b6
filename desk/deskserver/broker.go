package deskserver

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"wolftable/desk"
)

// MaxPayload bounds every message the broker takes (a record is a whole
// journal: tens of kilobytes; journal.MaxBody bounds one line): the
// server refuses a larger one before it is read in full, and closes the
// connection (issue 28 D3).
const MaxPayload = 4 << 20

// DeskCreds is the desk's own credentials: made once in DATA/desk.creds
// (an NKEY and the desk's certificate pin). One of the old format (a
// password) is replaced: only the desk reads it.
func DeskCreds(data string) (desk.Creds, error) {
	path := filepath.Join(data, "desk.creds")
	c, err := desk.ReadCreds(path)
	if err == nil {
		return c, nil
	}
	if _, serr := os.Stat(path); serr == nil && !errors.Is(err, desk.ErrOldCreds) {
		return c, err
	}
	if err := os.MkdirAll(data, 0o750); err != nil {
		return c, err
	}
	cert, err := desk.DeskCert(data)
	if err != nil {
		return c, err
	}
	seed, err := desk.NewNKey()
	if err != nil {
		return c, err
	}
	c = desk.Creds{Table: "desk", NKey: seed, Subject: "wolftable.>", TLSPins: []string{desk.TLSPin(cert.Leaf)}}
	return c, desk.WriteCreds(path, c)
}

// BrokerOptions is an embedded nats-server with JetStream.
type BrokerOptions struct {
	Data   string // the desk's data folder: users from its registry, JetStream in DATA/nats
	Listen string // host:port ("127.0.0.1:0" picks a port)
	// Cluster: a node of a cluster (all three optional): its name, its
	// node name, the route listener and the other nodes' routes
	// (nats-route://host:port). The routes are TLS with the desk's
	// certificate on both ends: a node joins only with the desk's key.
	ClusterName string
	NodeName    string
	RouteListen string
	Routes      []string
	StoreDir    string // default DATA/nats
	Log         *slog.Logger
	// OnViolation is called when a table publishes or subscribes where it
	// may not (under another table's subject, another table's inbox): the
	// broker refuses it, and the desk reports it.
	OnViolation func(table, subject string)
}

// Broker is the embedded server.
type Broker struct {
	S    *server.Server
	opts BrokerOptions
	base server.Options
	sig  string // the registry's users as last loaded

	mu     sync.Mutex
	tables map[string]string // public NKEY → table
}

// registry is the broker's users: the desk's NKEY with every subject, and
// each registered table's, allowed to publish only under its own prefix
// and to subscribe only to its own inbox prefix (its replies and
// JetStream acknowledgements: no table reads another's).
type registry struct {
	users  []*server.NkeyUser
	tables map[string]string // public NKEY → table
	sig    string
}

func loadRegistry(data string) (registry, error) {
	var r registry
	dc, err := DeskCreds(data)
	if err != nil {
		return r, err
	}
	ts, err := desk.Tables(data)
	if err != nil {
		return r, err
	}
	dpub, err := dc.NKeyPublic()
	if err != nil {
		return r, err
	}
	r.users = []*server.NkeyUser{{Nkey: dpub}}
	r.tables = map[string]string{}
	r.sig = dpub
	for _, t := range ts {
		pub, err := t.Creds.NKeyPublic()
		if err != nil {
			return r, fmt.Errorf("桌子 %s：%v", t.Name, err)
		}
		r.users = append(r.users, &server.NkeyUser{Nkey: pub, Permissions: tablePermissions(t.Name)})
		r.tables[pub] = t.Name
		r.sig += "," + t.Name + ":" + pub
	}
	return r, nil
}

func tablePermissions(table string) *server.Permissions {
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: []string{desk.Prefix(table) + ".>"}},
		Subscribe: &server.SubjectPermission{Allow: []string{desk.InboxPrefix(table) + ".>"}},
	}
}

// tlsTimeout is the TLS handshake's bound (the server's default, 2 s, is
// short for a Pi on a busy venue's Wi-Fi).
const tlsTimeout = 10

// StartBroker starts the embedded server and waits until it takes
// connections.
func StartBroker(o BrokerOptions) (*Broker, error) {
	host, portS, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("--nats %q: want host:port", o.Listen)
	}
	port, err := strconv.Atoi(portS)
	if err != nil {
		return nil, fmt.Errorf("--nats %q: want host:port", o.Listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	reg, err := loadRegistry(o.Data)
	if err != nil {
		return nil, err
	}
	cert, err := desk.DeskCert(o.Data)
	if err != nil {
		return nil, err
	}
	if o.StoreDir == "" {
		o.StoreDir = filepath.Join(o.Data, "nats")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	so := server.Options{Host: host, Port: port, JetStream: true, StoreDir: o.StoreDir, Nkeys: reg.users, NoSigs: true,
		MaxPayload: MaxPayload, ServerName: o.NodeName, TLSConfig: desk.ServerTLS(cert), TLSTimeout: tlsTimeout}
	if o.ClusterName != "" {
		h, p, err := net.SplitHostPort(o.RouteListen)
		if err != nil {
			return nil, fmt.Errorf("cluster listen %q: %v", o.RouteListen, err)
		}
		pn, _ := strconv.Atoi(p)
		so.Cluster = server.ClusterOpts{Name: o.ClusterName, Host: h, Port: pn, TLSConfig: desk.RouteTLS(cert), TLSTimeout: tlsTimeout,
			TLSPinnedCerts: server.PinnedCertSet{strings.TrimPrefix(desk.TLSPin(cert.Leaf), "sha256:"): {}}}
		for _, r := range o.Routes {
			u, err := url.Parse(r)
			if err != nil {
				return nil, err
			}
			so.Routes = append(so.Routes, u)
		}
	}
	opts := so
	s, err := server.NewServer(&opts)
	if err != nil {
		return nil, err
	}
	b := &Broker{S: s, opts: o, base: so, sig: reg.sig, tables: reg.tables}
	s.SetLogger(&logger{log: o.Log, b: b}, false, false)
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		s.Shutdown()
		return nil, errors.New("desk: the NATS server did not start")
	}
	return b, nil
}

// URL is the broker's client address, nats://host:port (TLS is required
// all the same: desk.Dial asks for it; the server would say tls://).
func (b *Broker) URL() string {
	u := b.S.ClientURL()
	if rest, ok := strings.CutPrefix(u, "tls://"); ok {
		return "nats://" + rest
	}
	return u
}

// Reload takes tables registered since the start (or the last Reload):
// their users join the broker without a restart.
func (b *Broker) Reload() error {
	reg, err := loadRegistry(b.opts.Data)
	if err != nil || reg.sig == b.sig {
		return err
	}
	o := b.base
	o.Nkeys = reg.users
	o.Port = b.S.Addr().(*net.TCPAddr).Port
	if o.Cluster.Port != 0 || b.opts.ClusterName != "" {
		o.Cluster.Port = b.S.ClusterAddr().Port
	}
	if err := b.S.ReloadOptions(&o); err != nil {
		return err
	}
	b.base.Nkeys, b.sig = reg.users, reg.sig
	b.mu.Lock()
	b.tables = reg.tables
	b.mu.Unlock()
	return nil
}

// Shutdown stops the server.
func (b *Broker) Shutdown() {
	b.S.Shutdown()
	b.S.WaitForShutdown()
}

// tableOf is the table a public NKEY is registered for ("" if none).
func (b *Broker) tableOf(nkey string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tables[nkey]
}

// logger sends the server's log to slog and catches the permission
// violations of its clients ("cid:7 - … - Publish Violation - Subject …",
// "Subscription Violation - Subject …").
type logger struct {
	log *slog.Logger
	b   *Broker
}

var violationRE = regexp.MustCompile(`cid:(\d+).*(?:Publish|Subscription) Violation - Subject "([^"]+)"`)

func (l *logger) Noticef(f string, v ...any) { l.log.Debug("nats: " + fmt.Sprintf(f, v...)) }
func (l *logger) Warnf(f string, v ...any)   { l.log.Warn("nats: " + fmt.Sprintf(f, v...)) }
func (l *logger) Fatalf(f string, v ...any)  { l.log.Error("nats: " + fmt.Sprintf(f, v...)) }
func (l *logger) Debugf(f string, v ...any)  {}
func (l *logger) Tracef(f string, v ...any)  {}
func (l *logger) Errorf(f string, v ...any) {
	msg := fmt.Sprintf(f, v...)
	if m := violationRE.FindStringSubmatch(msg); m != nil && l.b.opts.OnViolation != nil {
		cid, _ := strconv.ParseUint(m[1], 10, 64)
		subject := m[2]
		go func() { // the server holds the client's lock here
			table := "?"
			if cz, err := l.b.S.Connz(&server.ConnzOptions{CID: cid, Username: true}); err == nil && len(cz.Conns) == 1 {
				if t := l.b.tableOf(cz.Conns[0].AuthorizedUser); t != "" {
					table = t
				}
			}
			l.b.opts.OnViolation(table, subject)
		}()
		l.log.Warn("nats: refused a publication or subscription", "cid", cid, "subject", subject)
		return
	}
	if strings.Contains(msg, "Violation") || strings.Contains(msg, "Authorization Error") {
		l.log.Warn("nats: " + msg)
		return
	}
	l.log.Error("nats: " + msg)
}
