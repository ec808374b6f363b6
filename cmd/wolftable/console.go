package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"wolftable/boards"
	"wolftable/config"
	"wolftable/console"
	"wolftable/hw"
	"wolftable/hw/virtual"
	"wolftable/internal/cliflag"
	"wolftable/internal/hans"
)

// consoleSetup is what startConsoleWith needs of the config.
type consoleSetup struct {
	addr, tlsAddr     string // "" or "off": none
	pinHash, stateDir string
	certFile, keyFile string // the venue's own; "" = self-signed in stateDir
	hosts             []string
	redirect          bool
	speed             float64
	// the boards of the new-game form (nil = the built-in ones) and the
	// table's seats (0 = any board)
	boards   *boards.Catalog
	seats    int
	studio   http.Handler // the voice studio's API; nil = none
	journals string       // the journals folder, for the judge's history of games; "" = none
	script   hans.Script  // the venue's script ([venue] script)

	// roster is the desk's roster for the seat draw; nil = no desk
	roster func(context.Context) (console.DeskRoster, error)
}

func consoleSetupFrom(c *config.Config, speed float64) consoleSetup {
	k := c.Console
	cat, _ := c.Boards() // read and checked by the config's Validate
	return consoleSetup{addr: k.Listen, tlsAddr: c.TLSAddr(), pinHash: k.PINHash, stateDir: c.StateDirPath(),
		certFile: k.TLSCert, keyFile: k.TLSKey, hosts: k.Hosts, redirect: c.RedirectsHTTP(), speed: speed,
		boards: cat, seats: c.Table.Seats, journals: c.Journal.Dir, script: c.Venue.Script}
}

// startConsoleWith serves the judge console: HTTP on cs.addr (or a
// redirect to HTTPS), HTTPS on cs.tlsAddr. A PIN drawn at the first start
// is shown only on a terminal (never in the system log); the banner is
// the judge's, in Chinese.
func startConsoleWith(ctx context.Context, cs consoleSetup, host *gameHost, stdout io.Writer, log *slog.Logger) (*console.Server, func(), error) {
	if cs.addr == "" || cs.addr == "off" {
		return nil, func() {}, nil
	}
	opts := console.Options{Table: host, PINHash: cs.pinHash, StateDir: cs.stateDir, Hosts: cs.hosts,
		Speed: cs.speed, Log: log, Seats: cs.seats, Studio: cs.studio, Journals: cs.journals, Roster: cs.roster}
	if cs.boards != nil {
		opts.Boards, opts.Venue = cs.boards.All, cs.boards.IsVenue
	}
	con, err := console.New(opts)
	if err != nil {
		return nil, nil, err
	}
	if pin, _, ok := con.GeneratedPIN(); ok {
		if cs.stateDir == "" || isTerminal(stdout) {
			fmt.Fprintf(stdout, "裁判 PIN：%s（只顯示這一次；忘了請執行 wolftable console pin 換一個）\n", pin)
		} else {
			fmt.Fprintln(stdout, "裁判 PIN 已產生，不顯示於日誌：請在本機執行 sudo wolftable console pin 取得新的 PIN")
		}
	}
	var servers []*http.Server
	stop := func() {
		con.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		for _, srv := range servers {
			srv.Shutdown(sctx)
		}
	}
	// HTTPS is an addition: without its certificate or port the console
	// goes on over HTTP (the table must not stop for it).
	var tlsLn net.Listener
	var cert tls.Certificate
	var src console.CertSource
	if cs.tlsAddr != "" && cs.tlsAddr != "off" {
		cert, src, err = console.LoadOrCreateCert(cs.certFile, cs.keyFile, cs.stateDir, cs.hosts)
		if err == nil {
			tlsLn, err = net.Listen("tcp", cs.tlsAddr)
		}
		if err != nil {
			log.Error("console: no HTTPS; the console is served over HTTP only", "addr", cs.tlsAddr, "err", err)
			fmt.Fprintf(stdout, "主控台 HTTPS 未啟動：%v\n", err)
			tlsLn = nil
		}
	}
	ln, err := net.Listen("tcp", cs.addr)
	if err != nil {
		if tlsLn != nil {
			tlsLn.Close()
		}
		con.Close()
		return nil, nil, err
	}
	// timeouts; the listeners refuse non-LAN peers and cap each address
	plain := webServer(con, cs.script)
	servers = append(servers, plain)
	if tlsLn != nil {
		secure := webServer(con, cs.script)
		secure.TLSConfig = console.TLSConfig(cert)
		servers = append(servers, secure)
		go secure.ServeTLS(con.Listener(tlsLn), "", "")
		_, port, _ := net.SplitHostPort(tlsLn.Addr().String())
		if cs.redirect {
			plain.Handler = con.Redirect(port)
		}
		fmt.Fprintf(stdout, "主控台（HTTPS）：https://%s/　憑證 SHA-256 指紋%s：%s\n", tlsLn.Addr(), certNote(src), console.Fingerprint(cert))
		if src == console.CertReplaced {
			log.Warn("console: the old self-signed certificate had no name constraints and was replaced", "fingerprint", console.Fingerprint(cert))
			fmt.Fprintln(stdout, certReplacedText)
		}
	}
	go plain.Serve(con.Listener(ln))
	if cs.redirect && tlsLn != nil {
		fmt.Fprintf(stdout, "主控台：http://%s/（轉到 HTTPS）\n", ln.Addr())
	} else {
		fmt.Fprintf(stdout, "主控台：http://%s/\n", ln.Addr())
	}
	return con, stop, nil
}

// certReplacedText tells the judge that the upgrade replaced the old
// certificate, which phones must forget.
const certReplacedText = "舊版的自簽憑證沒有名稱限制（它的金鑰可替任何網站簽發憑證），已換成只限本桌名稱與位址的新憑證。" +
	"曾安裝舊憑證的手機：請先刪除舊的描述檔／CA 憑證，再依新指紋信任新憑證。"

// certNote marks a certificate made this run.
func certNote(src console.CertSource) string {
	switch src {
	case console.CertCreated:
		return "（本次新建）"
	case console.CertReplaced:
		return "（舊憑證已換新）"
	}
	return ""
}

// webServer is the console's server (its timeouts), answering in the
// venue's script.
func webServer(con *console.Server, sc hans.Script) *http.Server {
	srv := con.HTTPServer()
	srv.Handler = console.InScript(srv.Handler, sc)
	return srv
}

func isTerminal(w io.Writer) bool {
	f, ok := hans.File(w)
	return ok && virtual.IsTerminal(int(f.Fd()))
}

// watchPedal passes t's events on and calls held on every long press of
// the pedal: the judge's physical presence for the console's login
// throttle. The engine sees the press as before.
func watchPedal(t hw.Table, held func()) hw.Table {
	w := &pedalWatch{Table: t, events: make(chan hw.Event, 16)}
	go func() {
		defer close(w.events)
		for ev := range t.Events() {
			if ev.Kind == hw.EventPedal && ev.Pedal == hw.PedalLong {
				held()
			}
			w.events <- ev
		}
	}()
	return w
}

type pedalWatch struct {
	hw.Table
	events chan hw.Event
}

func (w *pedalWatch) Events() <-chan hw.Event { return w.events }

// cmdConsole: `wolftable console pin` draws a new judge's PIN and prints
// it; `wolftable console cert` makes the HTTPS certificate if it is
// missing and prints its fingerprint (the package runs it at install).
func cmdConsole(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "pin" && args[0] != "cert") {
		fmt.Fprintln(stderr, "usage: wolftable console pin|cert [--config FILE]")
		return 2
	}
	fs := cliflag.New("console "+args[0], usage, stderr)
	path := fs.String("config", "", "config file (default "+defaultConfigPath+" if present)")
	if pos, err := cliflag.Interspersed(fs, args[1:]); err != nil || len(pos) > 0 {
		return 2
	}
	c, err := loadConfig(*path)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	dir := c.StateDirPath()
	switch args[0] {
	case "pin":
		if c.Console.PINHash != "" {
			fmt.Fprintln(stderr, "設定檔已指定 console.pin_hash，PIN 由設定檔決定；要改用 wolftable console pin，請刪除該設定。")
			return 1
		}
		pin, err := console.NewPIN(dir)
		if err != nil {
			fmt.Fprintln(stderr, "無法儲存新的 PIN：", err)
			return 1
		}
		fmt.Fprintf(stdout, "新的裁判 PIN：%s\n舊的 PIN 立即失效，用它登入的裝置全部登出（主控台重新啟動後也一樣），請用新的 PIN 重新登入。\n", pin)
	case "cert":
		cert, src, err := console.LoadOrCreateCert(c.Console.TLSCert, c.Console.TLSKey, dir, c.Console.Hosts)
		if err != nil {
			fmt.Fprintln(stderr, "憑證：", err)
			return 1
		}
		fmt.Fprintf(stdout, "主控台 HTTPS 憑證%s SHA-256 指紋：%s\n", certNote(src), console.Fingerprint(cert))
		if src == console.CertReplaced {
			fmt.Fprintln(stdout, certReplacedText)
		}
	}
	return 0
}
