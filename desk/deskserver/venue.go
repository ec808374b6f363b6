package deskserver

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"wolftable/desk"
)

// VenueOptions are the parts of a venue's own nats-server configuration
// the desk does not know: its store, its listeners and its cluster.
type VenueOptions struct {
	StoreDir    string   // JetStream's folder on the node
	Listen      string   // the client port, host:port (default 0.0.0.0:4222)
	ClusterName string   // "" = a single node
	RouteListen string   // host:port of the routes (default 0.0.0.0:6222)
	Routes      []string // nats-route://host:port of every node
	CertDir     string   // where the node keeps desk.crt and desk.key (default DATA/tls)
}

// VenueConfig is a nats-server configuration for a venue that runs its own
// NATS (`wolftable desk venue-config`): the same rules as the embedded
// broker — TLS on the client port with the desk's certificate (the one
// every table pins), one NKEY per table allowed to publish under its own
// subject and to subscribe to its own inbox only, the desk's NKEY, the
// payload bound — and, with a cluster, routes in TLS that accept only a
// node with the desk's certificate (pinned). Run `wolftable desk
// venue-config` again after registering a table and reload the servers.
func VenueConfig(data string, o VenueOptions) (string, error) {
	reg, err := loadRegistry(data)
	if err != nil {
		return "", err
	}
	cert, err := desk.DeskCert(data)
	if err != nil {
		return "", err
	}
	if o.CertDir == "" {
		o.CertDir = filepath.Join(data, "tls")
	}
	if o.Listen == "" {
		o.Listen = "0.0.0.0:4222"
	}
	if o.RouteListen == "" {
		o.RouteListen = "0.0.0.0:6222"
	}
	q := strconv.Quote
	crt, key := filepath.Join(o.CertDir, "desk.crt"), filepath.Join(o.CertDir, "desk.key")
	var b strings.Builder
	fmt.Fprintf(&b, "# wolftable 賽事總台：場館自己的 NATS 設定（由 wolftable desk venue-config 產生；登記新桌後重新產生並 reload）\n")
	fmt.Fprintf(&b, "listen: %s\nmax_payload: %d\n", q(o.Listen), MaxPayload)
	fmt.Fprintf(&b, "jetstream {\n  store_dir: %s\n}\n", q(o.StoreDir))
	fmt.Fprintf(&b, "tls {\n  cert_file: %s\n  key_file: %s\n  timeout: %d\n}\n", q(crt), q(key), tlsTimeout)
	b.WriteString("authorization {\n  users: [\n")
	for _, u := range reg.users {
		if u.Permissions == nil {
			fmt.Fprintf(&b, "    { nkey: %s }  # the desk\n", q(u.Nkey))
			continue
		}
		fmt.Fprintf(&b, "    { nkey: %s, permissions: { publish: { allow: [%s] }, subscribe: { allow: [%s] } } }  # %s\n",
			q(u.Nkey), q(u.Permissions.Publish.Allow[0]), q(u.Permissions.Subscribe.Allow[0]), reg.tables[u.Nkey])
	}
	b.WriteString("  ]\n}\n")
	if o.ClusterName != "" {
		pin := strings.TrimPrefix(desk.TLSPin(cert.Leaf), "sha256:")
		var routes []string
		for _, r := range o.Routes {
			routes = append(routes, q(r))
		}
		// the nodes dial each other by address, which the desk's
		// certificate does not name: the pin, checked both ways, is what
		// admits a node (insecure only skips the name check)
		fmt.Fprintf(&b, "cluster {\n  name: %s\n  listen: %s\n  routes: [%s]\n", q(o.ClusterName), q(o.RouteListen), strings.Join(routes, ", "))
		fmt.Fprintf(&b, "  tls {\n    cert_file: %s\n    key_file: %s\n    ca_file: %s\n    verify: true\n    insecure: true\n    pinned_certs: [%s]\n    timeout: %d\n  }\n}\n",
			q(crt), q(key), q(crt), q(pin), tlsTimeout)
	}
	return b.String(), nil
}
