package deskserver

import (
	"crypto/rand"
	"encoding/hex"
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
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"wolftable/desk"
)

// DeskUser is the desk's own user on the broker (all subjects).
const DeskUser = "desk"

// DeskCreds is the desk's own credentials: made once in DATA/desk.creds.
func DeskCreds(data string) (desk.Creds, error) {
	path := filepath.Join(data, "desk.creds")
	if c, err := desk.ReadCreds(path); err == nil {
		return c, nil
	} else if _, serr := os.Stat(path); serr == nil {
		return c, err
	}
	var pw [18]byte
	rand.Read(pw[:])
	c := desk.Creds{Table: "desk", User: DeskUser, Password: hex.EncodeToString(pw[:]), Subject: "wolftable.>"}
	if err := os.MkdirAll(data, 0o750); err != nil {
		return c, err
	}
	return c, desk.WriteCreds(path, c)
}

// BrokerOptions is an embedded nats-server with JetStream.
type BrokerOptions struct {
	Data   string // the desk's data folder: users from its registry, JetStream in DATA/nats
	Listen string // host:port ("127.0.0.1:0" picks a port)
	// Cluster: a node of a cluster (all three optional): its name, its
	// node name, the route listener and the other nodes' routes
	// (nats-route://host:port).
	ClusterName string
	NodeName    string
	RouteListen string
	Routes      []string
	StoreDir    string // default DATA/nats
	Log         *slog.Logger
	// OnViolation is called when a user publishes where it may not (a
	// table under another table's subject): the broker refuses the
	// message, and the desk reports it.
	OnViolation func(user, subject string)
}

// Broker is the embedded server.
type Broker struct {
	S    *server.Server
	opts BrokerOptions
	base server.Options
	sig  string // the registry's users as last loaded
}

// users are the desk's user and each registered table's, allowed to
// publish only under its own prefix (and to hear its JetStream acks).
func users(data string) ([]*server.User, string, error) {
	dc, err := DeskCreds(data)
	if err != nil {
		return nil, "", err
	}
	ts, err := desk.Tables(data)
	if err != nil {
		return nil, "", err
	}
	us := []*server.User{{Username: dc.User, Password: dc.Password}}
	sig := dc.User
	for _, t := range ts {
		us = append(us, &server.User{Username: t.Creds.User, Password: t.Creds.Password, Permissions: &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: []string{desk.Prefix(t.Name) + ".>"}},
			Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>"}},
		}})
		sig += "," + t.Creds.User + ":" + t.Creds.Password
	}
	return us, sig, nil
}

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
	us, sig, err := users(o.Data)
	if err != nil {
		return nil, err
	}
	if o.StoreDir == "" {
		o.StoreDir = filepath.Join(o.Data, "nats")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	so := server.Options{Host: host, Port: port, JetStream: true, StoreDir: o.StoreDir, Users: us, NoSigs: true,
		MaxPayload: 8 << 20, ServerName: o.NodeName}
	if o.ClusterName != "" {
		h, p, err := net.SplitHostPort(o.RouteListen)
		if err != nil {
			return nil, fmt.Errorf("cluster listen %q: %v", o.RouteListen, err)
		}
		pn, _ := strconv.Atoi(p)
		so.Cluster = server.ClusterOpts{Name: o.ClusterName, Host: h, Port: pn}
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
	b := &Broker{S: s, opts: o, base: so, sig: sig}
	s.SetLogger(&logger{log: o.Log, b: b}, false, false)
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		s.Shutdown()
		return nil, errors.New("desk: the NATS server did not start")
	}
	return b, nil
}

// URL is the broker's client address, nats://host:port.
func (b *Broker) URL() string { return b.S.ClientURL() }

// Reload takes tables registered since the start (or the last Reload):
// their users join the broker without a restart.
func (b *Broker) Reload() error {
	us, sig, err := users(b.opts.Data)
	if err != nil || sig == b.sig {
		return err
	}
	o := b.base
	o.Users = us
	o.Port = b.S.Addr().(*net.TCPAddr).Port
	if o.Cluster.Port != 0 || b.opts.ClusterName != "" {
		o.Cluster.Port = b.S.ClusterAddr().Port
	}
	if err := b.S.ReloadOptions(&o); err != nil {
		return err
	}
	b.base.Users, b.sig = us, sig
	return nil
}

// Shutdown stops the server.
func (b *Broker) Shutdown() {
	b.S.Shutdown()
	b.S.WaitForShutdown()
}

// logger sends the server's log to slog and catches the publish
// violations of its clients ("cid:7 - … - Publish Violation - Subject …").
type logger struct {
	log *slog.Logger
	b   *Broker
}

var violationRE = regexp.MustCompile(`cid:(\d+).*Publish Violation - Subject "([^"]+)"`)

func (l *logger) Noticef(f string, v ...any) { l.log.Debug("nats: " + fmt.Sprintf(f, v...)) }
func (l *logger) Warnf(f string, v ...any) {
	if msg := fmt.Sprintf(f, v...); !strings.Contains(msg, "Plaintext passwords") { // the creds files are the secret
		l.log.Warn("nats: " + msg)
	}
}
func (l *logger) Fatalf(f string, v ...any) { l.log.Error("nats: " + fmt.Sprintf(f, v...)) }
func (l *logger) Debugf(f string, v ...any) {}
func (l *logger) Tracef(f string, v ...any) {}
func (l *logger) Errorf(f string, v ...any) {
	msg := fmt.Sprintf(f, v...)
	if m := violationRE.FindStringSubmatch(msg); m != nil && l.b.opts.OnViolation != nil {
		cid, _ := strconv.ParseUint(m[1], 10, 64)
		subject := m[2]
		go func() { // the server holds the client's lock here
			user := "?"
			if cz, err := l.b.S.Connz(&server.ConnzOptions{CID: cid, Username: true}); err == nil && len(cz.Conns) == 1 {
				user = cz.Conns[0].AuthorizedUser
			}
			l.b.opts.OnViolation(user, subject)
		}()
		l.log.Warn("nats: refused a publication", "user_cid", cid, "subject", subject)
		return
	}
	if strings.Contains(msg, "Publish Violation") || strings.Contains(msg, "Authorization Error") {
		l.log.Warn("nats: " + msg)
		return
	}
	l.log.Error("nats: " + msg)
}
