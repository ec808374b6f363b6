// Command wolftable-desk is the tournament desk (issue 16): the organiser's
// NATS server with JetStream (embedded, or a venue's cluster), the records
// of every table counted once, and the web page with the results and the
// standings. `wolftable desk …` runs it; it is a binary of its own so
// that the table's daemon does not link the NATS server.
package main

import (
	"bytes"
	gocontext "context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/pelletier/go-toml/v2"

	"wolftable/desk"
	"wolftable/desk/deskserver"
	"wolftable/internal/hans"
	"wolftable/journal"
)

const usage = `wolftable desk — the tournament desk (賽事總台)

usage:
  wolftable desk --data DIR [--nats ADDR] [--http ADDR] [--https ADDR] [--config FILE] [--pack NAME|FILE]
        [--cluster URLS --cluster-creds FILE --replicas N] [--feed-delay D] [--title NAME] [--script hant|hans] [--verbose]
                    start the desk: prints "desk: nats://HOST:PORT" and "desk: http://HOST:PORT/"
                    --nats   the embedded NATS server's address (default :4222)
                    --http   the web page's address (default :8090)
                    --https  the operator's login over TLS with the desk's certificate (e.g. :8091):
                             then the plain page offers no login, only a link to it
                    --pack   the scoring pack: default, league, or a TOML file
                    --cluster  a venue's NATS cluster instead of the embedded server
                    --feed-delay  the audience feed's delay (/feed/TABLE; default 60s)
                    --script  the pages' script: hant (繁體, default) or hans (简体); each
                             browser may switch (繁體 · 简体 on the pages)
                    --title  the tournament's name, on every page (e.g. "2026 冬季聯賽")
  wolftable desk table add NAME --data DIR [--pubkey KEY|FILE] [--url URL]
                    register a table; prints its credentials file (for the table's --desk-creds)
                    --pubkey the table's public key (` + "`wolftable record pubkey`" + ` on the table);
                             without it the desk makes the table's key pair: NAME.key goes to
                             the table as /var/lib/wolftable/table.key
  wolftable desk table renew NAME --data DIR [--url URL]
                    a new credentials file for a registered table (a new NKEY; the old file stops
                    working within seconds): a file of the old format (a password), or one that leaked
  wolftable desk table rekey NAME --pubkey KEY|FILE --data DIR
                    register a table's new public key (its key was replaced, or registered wrong):
                    records signed with the old key are refused from now on; those already stored
                    stay counted (the old key is kept in DATA/tables/retired)
  wolftable desk table remove NAME --data DIR
                    take a table out of the registry: its credentials stop working within seconds,
                    its games stay counted; nothing is deleted (DATA/tables/removed, retired)
  wolftable desk table list --data DIR
  wolftable desk players import FILE --data DIR
                    the player registry from a CSV file (編號,名字,俱樂部,暱稱; Excel's 「CSV UTF-8」
                    with its BOM and CRLF is read as it is): players of a known id are updated,
                    new ones added; a file with any bad line imports nothing and every bad line
                    is printed with its number (also while the desk runs: it rereads the registry)
  wolftable desk players list --data DIR
  wolftable desk tls --data DIR     the desk's TLS certificate (made if missing) and its pin
  wolftable desk venue-config --data DIR --store DIR [--listen ADDR]
        [--cluster-name NAME --route-listen ADDR --routes URLS] [--cert-dir DIR]
                    a nats-server configuration for a venue that runs its own NATS (docs: deploy/README.md)
  wolftable desk pin --data DIR     draw a new operator PIN (the desk's login for MVP/SVP)
  wolftable desk packs              the shipped scoring packs

The tables reach the desk over TLS, pinned to the desk's own certificate (DATA/tls), and
log in with their own NKEY: no password travels.
`

// fileConfig is --config: a TOML file with the same settings as the flags.
type fileConfig struct {
	Data         string `toml:"data"`
	NATS         string `toml:"nats"`
	HTTP         string `toml:"http"`
	HTTPS        string `toml:"https"`
	Pack         string `toml:"pack"`
	Cluster      string `toml:"cluster"`
	ClusterCreds string `toml:"cluster_creds"`
	Replicas     int    `toml:"replicas"`
	Title        string `toml:"title"`
	Script       string `toml:"script"` // hant | hans
}

// readFileConfig reads --config ("" = none).
func readFileConfig(path string) (fileConfig, error) {
	var fc fileConfig
	if path == "" {
		return fc, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fc, err
	}
	dec := toml.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		return fc, fmt.Errorf("%s: %v", path, err)
	}
	return fc, nil
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "table":
			return cmdTable(args[1:], stdout, stderr)
		case "tls":
			return cmdTLS(args[1:], stdout, stderr)
		case "players":
			return cmdPlayers(args[1:], stdout, stderr)
		case "venue-config":
			return cmdVenueConfig(args[1:], stdout, stderr)
		case "packs":
			for _, p := range desk.Packs() {
				pk, _ := desk.LoadPack(p)
				fmt.Fprintf(stdout, "%s\t%s\t%s\n", p, pk.ID(), pk.Title)
			}
			return 0
		case "pin":
			return cmdPIN(args[1:], stdout, stderr)
		case "help", "-h", "--help":
			fmt.Fprint(stdout, usage)
			return 0
		}
	}
	fs := flag.NewFlagSet("desk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	data := fs.String("data", "", "the desk's data folder")
	natsAddr := fs.String("nats", "", "the embedded NATS server's host:port (default :4222)")
	httpAddr := fs.String("http", "", "the web page's host:port (default :8090)")
	httpsAddr := fs.String("https", "", "the operator's login over TLS, host:port (default: none)")
	conf := fs.String("config", "", "a TOML file with the same settings")
	pack := fs.String("pack", "", "scoring pack: default, league or a TOML file")
	cluster := fs.String("cluster", "", "a venue's NATS cluster (URLs, comma-separated) instead of the embedded server")
	clusterCreds := fs.String("cluster-creds", "", "the desk's credentials on the cluster (default DATA/desk.creds)")
	replicas := fs.Int("replicas", 0, "replicas of the records stream (a cluster: 3)")
	title := fs.String("title", "", "the tournament's name, on every page")
	script := fs.String("script", "", "the pages' script: hant (繁體, the default) or hans (简体)")
	feedDelay := fs.Duration("feed-delay", deskserver.DefaultFeedDelay, "the audience feed's delay (/feed/TABLE)")
	verbose := fs.Bool("verbose", false, "log every record")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "desk: 多了參數 %q / unexpected argument\n\n%s", fs.Arg(0), usage)
		return 2
	}
	fc, err := readFileConfig(*conf)
	if err != nil {
		fmt.Fprintln(stderr, "desk:", err)
		return 2
	}
	pick := func(flagV *string, fileV string) string {
		if *flagV != "" {
			return *flagV
		}
		return fileV
	}
	o := deskserver.Options{Data: pick(data, fc.Data), NATS: pick(natsAddr, fc.NATS), HTTP: pick(httpAddr, fc.HTTP), HTTPS: pick(httpsAddr, fc.HTTPS),
		External: pick(cluster, fc.Cluster), Replicas: fc.Replicas, FeedDelay: *feedDelay, Title: pick(title, fc.Title), Script: hans.Script(pick(script, fc.Script))}
	if *feedDelay <= 0 {
		fmt.Fprint(stderr, "desk: --feed-delay 要大於 0 / must be more than 0\n\n"+usage)
		return 2
	}
	if *replicas != 0 {
		o.Replicas = *replicas
	}
	if o.Data == "" {
		fmt.Fprint(stderr, "desk: 要給 --data 資料夾 / --data DIR is required\n\n"+usage)
		return 2
	}
	p, err := desk.LoadPack(pick(pack, fc.Pack))
	if err != nil {
		fmt.Fprintln(stderr, "desk:", err)
		return 2
	}
	o.Pack = p
	if cc := pick(clusterCreds, fc.ClusterCreds); cc != "" {
		c, err := desk.ReadCreds(cc)
		if err != nil {
			fmt.Fprintln(stderr, "desk:", err)
			return 2
		}
		o.ExternalCreds = &c
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	o.Log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if err := os.MkdirAll(o.Data, 0o750); err != nil {
		fmt.Fprintln(stderr, "desk:", err)
		return 1
	}
	d, err := deskserver.Start(o)
	if err != nil {
		fmt.Fprintln(stderr, "desk:", err)
		return 1
	}
	fmt.Fprintf(stdout, "desk: scoring pack %s (%s)\n", p.ID(), p.Title)
	fmt.Fprintf(stdout, "desk: %s\n", d.NATSURL())
	fmt.Fprintf(stdout, "desk: %s\n", d.HTTPURL())
	if u := d.HTTPSURL(); u != "" {
		if cert, err := desk.DeskCert(o.Data); err == nil {
			fmt.Fprintf(stdout, "desk: %s （總台登入；瀏覽器顯示的憑證 SHA-256 指紋 %s） / the operator's login\n", u, desk.CertFingerprint(cert.Leaf))
		}
	}
	if d.NewPIN != "" {
		fmt.Fprintf(stdout, "desk: 總台登入密碼 %s（只顯示這一次；換一個：wolftable desk pin --data DIR） / the operator PIN, shown once\n", d.NewPIN)
	}
	ctx, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	d.Close()
	st, dup, ref := d.Counts()
	fmt.Fprintf(stdout, "desk: stopped (this run: %d records stored, %d received again, %d refused)\n", st, dup, ref)
	return 0
}

func cmdTable(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "add" && args[0] != "list" && args[0] != "renew" && args[0] != "rekey" && args[0] != "remove") {
		fmt.Fprint(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("desk table "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	data := fs.String("data", "", "the desk's data folder")
	pubkey := fs.String("pubkey", "", "the table's public key, or its file")
	url := fs.String("url", "", "the desk's NATS address, written into the credentials")
	var pos []string
	rest := args[1:]
	for {
		if err := fs.Parse(rest); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if *data == "" {
		fmt.Fprintln(stderr, "desk table: 要給 --data 資料夾 / --data DIR is required")
		return 2
	}
	if args[0] == "list" {
		return tableList(*data, stdout, stderr)
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "desk table %s: 要給一個桌名 / give one table name\n", args[0])
		return 2
	}
	switch args[0] {
	case "rekey":
		return tableRekey(*data, pos[0], *pubkey, stdout, stderr)
	case "remove":
		if err := desk.RemoveTable(*data, pos[0]); err != nil {
			fmt.Fprintln(stderr, "desk table remove:", err)
			return 1
		}
		fmt.Fprintf(stdout, "desk table remove: 桌子 %s 已移除：憑證幾秒內失效，不再收它的紀錄；已收的對局照算（檔案移到 %s）\n", pos[0], desk.TablesDir(*data)+"/removed")
		return 0
	}
	if args[0] == "renew" {
		path, err := desk.RenewTable(*data, pos[0], *url)
		if err != nil {
			fmt.Fprintln(stderr, "desk table renew:", err)
			return 1
		}
		fmt.Fprintln(stdout, path)
		fmt.Fprintf(stderr, "desk table renew: 桌子 %s 的新憑證檔：把它交給該桌（--desk-creds 或 [desk] creds）；舊的幾秒內失效\n", pos[0])
		return 0
	}
	var pub []byte
	if *pubkey != "" {
		k, err := journal.ReadPublicKey(*pubkey)
		if err != nil {
			fmt.Fprintln(stderr, "desk table add:", err)
			return 2
		}
		pub = k
	}
	path, err := desk.AddTable(*data, pos[0], pub, *url)
	if err != nil {
		fmt.Fprintln(stderr, "desk table add:", err)
		return 1
	}
	fmt.Fprintln(stdout, path)
	if pub == nil {
		fmt.Fprintf(stderr, "desk table add: 已為桌子 %s 產生簽章金鑰：把 %s 複製到該桌的 /var/lib/wolftable/table.key（權限 0600） / copy it to the table\n",
			pos[0], strings.TrimSuffix(path, ".creds")+".key")
	}
	return 0
}

// tableList is desk table list: each table's name, key fingerprint,
// NKEY and credentials file.
func tableList(data string, stdout, stderr io.Writer) int {
	ts, err := desk.Tables(data)
	if err != nil {
		fmt.Fprintln(stderr, "desk table:", err)
		return 1
	}
	for _, t := range ts {
		fp := "（無公鑰）"
		if t.PublicKey != nil {
			fp = journal.KeyFingerprint([32]byte(t.PublicKey))
		}
		nk, _ := t.Creds.NKeyPublic()
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", t.Name, fp, nk, t.CredsPath)
	}
	return 0
}

// tableRekey is desk table rekey NAME --pubkey KEY.
func tableRekey(data, name, pubkey string, stdout, stderr io.Writer) int {
	if pubkey == "" {
		fmt.Fprintln(stderr, "desk table rekey: 要給 --pubkey 新的公鑰（該桌的 wolftable record pubkey） / --pubkey is required")
		return 2
	}
	k, err := journal.ReadPublicKey(pubkey)
	if err != nil {
		fmt.Fprintln(stderr, "desk table rekey:", err)
		return 2
	}
	old, err := desk.RekeyTable(data, name, k)
	if err != nil {
		fmt.Fprintln(stderr, "desk table rekey:", err)
		return 1
	}
	was := "（原本沒有公鑰）"
	if old != nil {
		was = journal.KeyFingerprint([32]byte(old))
	}
	fmt.Fprintf(stdout, "desk table rekey: 桌子 %s 的公鑰 %s → %s；之後只收新金鑰簽署的紀錄，已收的紀錄照算\n", name, was, journal.KeyFingerprint([32]byte(k)))
	return 0
}

// cmdPIN is desk pin --data DIR: a new operator PIN.
func cmdPIN(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("desk pin", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "the desk's data folder")
	if err := fs.Parse(args); err != nil || *data == "" {
		fmt.Fprint(stderr, "desk pin: 要給 --data 資料夾 / --data DIR is required\n\n"+usage)
		return 2
	}
	pin, err := deskserver.NewPIN(*data)
	if err != nil {
		fmt.Fprintln(stderr, "desk pin:", err)
		return 1
	}
	fmt.Fprintf(stdout, "desk: 新的總台登入密碼 %s（重新啟動總台後生效） / the new operator PIN, from the next start\n", pin)
	return 0
}

func cmdTLS(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("desk tls", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "the desk's data folder")
	if err := fs.Parse(args); err != nil || *data == "" || fs.NArg() > 0 {
		fmt.Fprint(stderr, "desk tls: 要給 --data 資料夾 / --data DIR is required\n\n"+usage)
		return 2
	}
	cert, err := desk.DeskCert(*data)
	if err != nil {
		fmt.Fprintln(stderr, "desk tls:", err)
		return 1
	}
	crt, key := desk.TLSFiles(*data)
	fmt.Fprintf(stdout, "certificate: %s\nkey: %s\npin: %s\nsha256 fingerprint: %s\nexpires: %s\n", crt, key, desk.TLSPin(cert.Leaf),
		desk.CertFingerprint(cert.Leaf), cert.Leaf.NotAfter.Format("2006-01-02"))
	return 0
}

func cmdVenueConfig(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("desk venue-config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "the desk's data folder")
	var o deskserver.VenueOptions
	fs.StringVar(&o.StoreDir, "store", "", "JetStream's folder on the node")
	fs.StringVar(&o.Listen, "listen", "", "the client port (default 0.0.0.0:4222)")
	fs.StringVar(&o.ClusterName, "cluster-name", "", "the cluster's name (none: a single node)")
	fs.StringVar(&o.RouteListen, "route-listen", "", "the routes' port (default 0.0.0.0:6222)")
	routes := fs.String("routes", "", "every node's nats-route://HOST:PORT, comma-separated")
	fs.StringVar(&o.CertDir, "cert-dir", "", "where the node keeps desk.crt and desk.key (default DATA/tls)")
	if err := fs.Parse(args); err != nil || *data == "" || o.StoreDir == "" || fs.NArg() > 0 {
		fmt.Fprint(stderr, "desk venue-config: 要給 --data 與 --store / --data and --store are required\n\n"+usage)
		return 2
	}
	if *routes != "" {
		o.Routes = strings.Split(*routes, ",")
	}
	conf, err := deskserver.VenueConfig(*data, o)
	if err != nil {
		fmt.Fprintln(stderr, "desk venue-config:", err)
		return 1
	}
	fmt.Fprint(stdout, conf)
	return 0
}

// cmdPlayers is `desk players import FILE` and `desk players list`.
func cmdPlayers(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "import" && args[0] != "list") {
		fmt.Fprint(stderr, "desk players: 要是 import 檔案 或 list / import FILE or list\n\n"+usage)
		return 2
	}
	fs := flag.NewFlagSet("desk players "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	data := fs.String("data", "", "the desk's data folder")
	pos, ok := parseInterleaved(fs, args[1:])
	if !ok {
		return 2
	}
	if *data == "" {
		fmt.Fprintln(stderr, "desk players: 要給 --data 資料夾 / --data DIR is required")
		return 2
	}
	if args[0] == "list" {
		list, err := desk.ReadPlayers(*data)
		if err != nil {
			fmt.Fprintln(stderr, "desk players list:", err)
			return 1
		}
		for _, p := range list {
			fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", p.ID, p.Name, p.Club, p.Nickname)
		}
		fmt.Fprintf(stderr, "desk players list: 名冊共 %d 位選手\n", len(list))
		return 0
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "desk players import: 要給一個 CSV 檔 / give one CSV file")
		return 2
	}
	b, err := os.ReadFile(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, "desk players import:", err)
		return 1
	}
	if err := os.MkdirAll(*data, 0o750); err != nil {
		fmt.Fprintln(stderr, "desk players import:", err)
		return 1
	}
	added, updated, err := desk.ImportPlayers(*data, b)
	if bad, ok := err.(desk.LineErrors); ok {
		for _, e := range bad {
			fmt.Fprintf(stderr, "%s 第 %d 行：%s\n", pos[0], e.Line, e.Reason)
		}
		fmt.Fprintf(stderr, "desk players import: %s 有 %d 行錯誤，整個檔案都沒有匯入（名冊不變）：改好再匯入一次\n", pos[0], len(bad))
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "desk players import:", err)
		return 1
	}
	list, _ := desk.ReadPlayers(*data)
	fmt.Fprintf(stdout, "desk players import: 新增 %d 位、更新 %d 位；名冊共 %d 位選手\n", added, updated, len(list))
	return 0
}

// parseInterleaved parses flags and positional arguments in any order.
func parseInterleaved(fs *flag.FlagSet, rest []string) ([]string, bool) {
	var pos []string
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, false
		}
		if fs.NArg() == 0 {
			return pos, true
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
}
