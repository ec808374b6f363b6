package desktest

import (
	"bufio"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nkeys"

	"wolftable/desk"
)

// RawPublish speaks the NATS protocol itself (TLS, the NKEY's signature of
// the nonce) and publishes size bytes on subject, as a hostile client
// would, past nats.go's own check of the server's max_payload. It returns
// what the server answered.
func RawPublish(t testing.TB, url string, c desk.Creds, subject string, size int) string {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "nats://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "INFO ") {
		t.Fatalf("greeting: %q %v", line, err)
	}
	var info struct{ Nonce string }
	json.Unmarshal([]byte(strings.TrimPrefix(line, "INFO ")), &info)
	tc, _ := desk.ClientTLS(c.TLSPins)
	sc := tls.Client(conn, tc)
	kp, _ := nkeys.FromSeed([]byte(c.NKey))
	pub, _ := kp.PublicKey()
	sig, _ := kp.Sign([]byte(info.Nonce))
	connect, _ := json.Marshal(map[string]any{"verbose": false, "pedantic": false, "nkey": pub,
		"sig": base64.RawURLEncoding.EncodeToString(sig), "protocol": 1})
	fmt.Fprintf(sc, "CONNECT %s\r\nPING\r\n", connect)
	r := bufio.NewReader(sc)
	next := func() string { // the next line that is not an INFO
		for {
			l, err := r.ReadString('\n')
			if err != nil || !strings.HasPrefix(l, "INFO ") {
				return l
			}
		}
	}
	if l := next(); !strings.HasPrefix(l, "PONG") {
		t.Fatalf("login: %q", l)
	}
	fmt.Fprintf(sc, "PUB %s %d\r\n", subject, size)
	chunk := make([]byte, 64<<10)
	for sent := 0; sent < size; sent += len(chunk) {
		if _, err := sc.Write(chunk[:min(len(chunk), size-sent)]); err != nil {
			break // the server closed the connection
		}
	}
	sc.Write([]byte("\r\nPING\r\n"))
	return next()
}
