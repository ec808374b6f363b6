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
	"time"

	"github.com/pelletier/go-toml/v2"

	"wolftable/desk"
	"wolftable/desk/deskserver"
	"wolftable/internal/cliflag"
	"wolftable/internal/hans"
	"wolftable/journal"
)

// bin is how the desk's usage names it: `wolftable desk` runs it.
const bin = "wolftable desk"

// head is the first lines of the desk's help; the rest is generated from
// its commands (cliflag), so it lists every flag each one defines.
const head = `wolftable desk — the tournament desk (賽事總台)

The tables reach the desk over TLS, pinned to the desk's own certificate (DATA/tls), and
log in with their own NKEY: no password travels.
`

// helpText is the desk's help, generated from its commands (set in init:
// the commands print it).
var helpText string

func init() { helpText = cliflag.Help(bin, head, commands()) }

// usage is the desk's help.
func usage() string { return helpText }

// commands are the desk's commands, in the order its help lists them; the
// first, with no name, starts the desk.
func commands() []*cliflag.Command {
	return []*cliflag.Command{startCommand, tableCommand, playersCommand, tlsCommand, venueConfigCommand, pinCommand, packsCommand}
}

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
		if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
			fmt.Fprint(stdout, usage())
			return 0
		}
		if c := cliflag.Find(commands()[1:], args[0]); c != nil {
			return c.Run(bin, args[1:], stdout, stderr)
		}
	}
	return startCommand.Run(bin, args, stdout, stderr)
}

// startFlags are the flags of the desk's start.
type startFlags struct {
	data, nats, http, https, conf, pack, cluster, clusterCreds, title, script string
	replicas                                                                  int
	feedDelay                                                                 time.Duration
	verbose                                                                   bool
}

var startCommand = &cliflag.Command{
	ShortUsage: "--data DIR [--nats ADDR] [--http ADDR] [--https ADDR] [--config FILE] [--pack NAME|FILE]\n" +
		"  [--cluster URLS --cluster-creds FILE --replicas N] [--feed-delay D] [--title NAME] [--script hant|hans] [--verbose]",
	ShortHelp: "start the desk: prints \"desk: nats://HOST:PORT\" and \"desk: http://HOST:PORT/\"",
	Define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) int {
		var f startFlags
		fs.StringVar(&f.data, "data", "", "the desk's data folder")
		fs.StringVar(&f.nats, "nats", "", "the embedded NATS server's host:port (default :4222)")
		fs.StringVar(&f.http, "http", "", "the web page's host:port (default :8090)")
		fs.StringVar(&f.https, "https", "", "the operator's login over TLS with the desk's certificate, host:port (e.g. :8091;\n"+
			"default: none): then the plain page offers no login, only a link to it")
		fs.StringVar(&f.conf, "config", "", "a TOML file with the same settings")
		fs.StringVar(&f.pack, "pack", "", "the scoring pack: default, league or a TOML file")
		fs.StringVar(&f.cluster, "cluster", "", "a venue's NATS cluster (URLs, comma-separated) instead of the embedded server")
		fs.StringVar(&f.clusterCreds, "cluster-creds", "", "the desk's credentials on the cluster (default DATA/desk.creds)")
		fs.IntVar(&f.replicas, "replicas", 0, "replicas of the records stream (a cluster: 3)")
		fs.StringVar(&f.title, "title", "", "the tournament's name, on every page (e.g. \"2026 冬季聯賽\")")
		fs.StringVar(&f.script, "script", "", "the pages' script: hant (繁體, the default) or hans (简体); each browser may\n"+
			"switch (繁體 · 简体 on the pages)")
		fs.DurationVar(&f.feedDelay, "feed-delay", deskserver.DefaultFeedDelay, "the audience feed's delay (/feed/TABLE)")
		fs.BoolVar(&f.verbose, "verbose", false, "log every record")
		return func(args []string, stdout, stderr io.Writer) int { return start(f, args, stdout, stderr) }
	},
}

// start starts the desk with f and serves until SIGINT or SIGTERM.
func start(f startFlags, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "desk: 多了參數 %q / unexpected argument\n\n%s", args[0], usage())
		return 2
	}
	o, p, code := startOptions(f, stderr)
	if code != 0 {
		return code
	}
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

// startOptions are the desk server's options from f and --config (a flag
// given wins); code is the exit status when they are bad.
func startOptions(f startFlags, stderr io.Writer) (o deskserver.Options, p *desk.Pack, code int) {
	fc, err := readFileConfig(f.conf)
	if err != nil {
		fmt.Fprintln(stderr, "desk:", err)
		return o, nil, 2
	}
	pick := func(flagV, fileV string) string {
		if flagV != "" {
			return flagV
		}
		return fileV
	}
	o = deskserver.Options{Data: pick(f.data, fc.Data), NATS: pick(f.nats, fc.NATS), HTTP: pick(f.http, fc.HTTP), HTTPS: pick(f.https, fc.HTTPS),
		External: pick(f.cluster, fc.Cluster), Replicas: fc.Replicas, FeedDelay: f.feedDelay, Title: pick(f.title, fc.Title), Script: hans.Script(pick(f.script, fc.Script))}
	if f.feedDelay <= 0 {
		fmt.Fprint(stderr, "desk: --feed-delay 要大於 0 / must be more than 0\n\n"+usage())
		return o, nil, 2
	}
	if f.replicas != 0 {
		o.Replicas = f.replicas
	}
	if o.Data == "" {
		fmt.Fprint(stderr, "desk: 要給 --data 資料夾 / --data DIR is required\n\n"+usage())
		return o, nil, 2
	}
	if p, err = desk.LoadPack(pick(f.pack, fc.Pack)); err != nil {
		fmt.Fprintln(stderr, "desk:", err)
		return o, nil, 2
	}
	o.Pack = p
	if cc := pick(f.clusterCreds, fc.ClusterCreds); cc != "" {
		c, err := desk.ReadCreds(cc)
		if err != nil {
			fmt.Fprintln(stderr, "desk:", err)
			return o, nil, 2
		}
		o.ExternalCreds = &c
	}
	level := slog.LevelWarn
	if f.verbose {
		level = slog.LevelInfo
	}
	o.Log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	return o, p, 0
}

// tableFlags are the flags of `desk table …`.
type tableFlags struct{ data, pubkey, url string }

// tableSub is `desk table VERB`: with --data, and --pubkey and --url when
// the verb takes them.
func tableSub(verb, usage, help string, pubkey, url bool) *cliflag.Command {
	return &cliflag.Command{Name: verb, ShortUsage: usage, ShortHelp: help,
		Define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) int {
			var f tableFlags
			fs.StringVar(&f.data, "data", "", "the desk's data folder")
			if pubkey {
				fs.StringVar(&f.pubkey, "pubkey", "", "`KEY|FILE`: the table's public key (wolftable record pubkey on the table), or its file")
			}
			if url {
				fs.StringVar(&f.url, "url", "", "the desk's NATS address, written into the credentials")
			}
			return func(pos []string, stdout, stderr io.Writer) int { return cmdTable(verb, f, pos, stdout, stderr) }
		}}
}

var tableCommand = &cliflag.Command{Name: "table", Subcommands: []*cliflag.Command{
	tableSub("add", "table add NAME --data DIR [--pubkey KEY|FILE] [--url URL]",
		"register a table; prints its credentials file (for the table's --desk-creds); without\n"+
			"--pubkey the desk makes the table's key pair: NAME.key goes to the table as\n"+
			"/var/lib/wolftable/table.key", true, true),
	tableSub("renew", "table renew NAME --data DIR [--url URL]",
		"a new credentials file for a registered table (a new NKEY; the old file stops working\n"+
			"within seconds): a file of the old format (a password), or one that leaked", false, true),
	tableSub("rekey", "table rekey NAME --pubkey KEY|FILE --data DIR",
		"register a table's new public key (its key was replaced, or registered wrong): records\n"+
			"signed with the old key are refused from now on; those already stored stay counted\n"+
			"(the old key is kept in DATA/tables/retired)", true, false),
	tableSub("remove", "table remove NAME --data DIR",
		"take a table out of the registry: its credentials stop working within seconds, its\n"+
			"games stay counted; nothing is deleted (DATA/tables/removed, retired)", false, false),
	tableSub("list", "table list --data DIR", "the registered tables: name, key fingerprint, NKEY, credentials file", false, false),
}}

// cmdTable runs `desk table VERB` with f and the positional arguments.
func cmdTable(verb string, f tableFlags, pos []string, stdout, stderr io.Writer) int {
	data, pubkey, url := &f.data, &f.pubkey, &f.url
	if *data == "" {
		fmt.Fprintln(stderr, "desk table: 要給 --data 資料夾 / --data DIR is required")
		return 2
	}
	if verb == "list" {
		return tableList(*data, stdout, stderr)
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "desk table %s: 要給一個桌名 / give one table name\n", verb)
		return 2
	}
	switch verb {
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
	if verb == "renew" {
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

// dataCommand is a desk command whose one flag is --data, required, and
// that takes no arguments; bad usage prints what and the usage.
func dataCommand(name, help, what string, exec func(data string, stdout, stderr io.Writer) int) *cliflag.Command {
	return &cliflag.Command{Name: name, ShortUsage: name + " --data DIR", ShortHelp: help,
		Define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) int {
			data := fs.String("data", "", "the desk's data folder")
			return func(pos []string, stdout, stderr io.Writer) int {
				if *data == "" || len(pos) > 0 {
					fmt.Fprint(stderr, what+"\n\n"+usage())
					return 2
				}
				return exec(*data, stdout, stderr)
			}
		}}
}

var pinCommand = dataCommand("pin", "draw a new operator PIN (the desk's login for MVP/SVP)",
	"desk pin: 要給 --data 資料夾 / --data DIR is required", cmdPIN)

var tlsCommand = dataCommand("tls", "the desk's TLS certificate (made if missing) and its pin",
	"desk tls: 要給 --data 資料夾 / --data DIR is required", cmdTLS)

var packsCommand = &cliflag.Command{Name: "packs", ShortUsage: "packs", ShortHelp: "the shipped scoring packs",
	Exec: func(args []string, stdout, stderr io.Writer) int {
		for _, p := range desk.Packs() {
			pk, _ := desk.LoadPack(p)
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", p, pk.ID(), pk.Title)
		}
		return 0
	}}

// cmdPIN is desk pin --data DIR: a new operator PIN.
func cmdPIN(data string, stdout, stderr io.Writer) int {
	pin, err := deskserver.NewPIN(data)
	if err != nil {
		fmt.Fprintln(stderr, "desk pin:", err)
		return 1
	}
	fmt.Fprintf(stdout, "desk: 新的總台登入密碼 %s（重新啟動總台後生效） / the new operator PIN, from the next start\n", pin)
	return 0
}

func cmdTLS(data string, stdout, stderr io.Writer) int {
	cert, err := desk.DeskCert(data)
	if err != nil {
		fmt.Fprintln(stderr, "desk tls:", err)
		return 1
	}
	crt, key := desk.TLSFiles(data)
	fmt.Fprintf(stdout, "certificate: %s\nkey: %s\npin: %s\nsha256 fingerprint: %s\nexpires: %s\n", crt, key, desk.TLSPin(cert.Leaf),
		desk.CertFingerprint(cert.Leaf), cert.Leaf.NotAfter.Format("2006-01-02"))
	return 0
}

var venueConfigCommand = &cliflag.Command{Name: "venue-config",
	ShortUsage: "venue-config --data DIR --store DIR [--listen ADDR]\n" +
		"  [--cluster-name NAME --route-listen ADDR --routes URLS] [--cert-dir DIR]",
	ShortHelp: "a nats-server configuration for a venue that runs its own NATS (docs: deploy/README.md)",
	Define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) int {
		data := fs.String("data", "", "the desk's data folder")
		var o deskserver.VenueOptions
		fs.StringVar(&o.StoreDir, "store", "", "JetStream's folder on the node")
		fs.StringVar(&o.Listen, "listen", "", "the client port (default 0.0.0.0:4222)")
		fs.StringVar(&o.ClusterName, "cluster-name", "", "the cluster's name (none: a single node)")
		fs.StringVar(&o.RouteListen, "route-listen", "", "the routes' port (default 0.0.0.0:6222)")
		routes := fs.String("routes", "", "every node's nats-route://HOST:PORT, comma-separated")
		fs.StringVar(&o.CertDir, "cert-dir", "", "where the node keeps desk.crt and desk.key (default DATA/tls)")
		return func(pos []string, stdout, stderr io.Writer) int {
			return cmdVenueConfig(*data, o, *routes, pos, stdout, stderr)
		}
	}}

func cmdVenueConfig(data string, o deskserver.VenueOptions, routes string, pos []string, stdout, stderr io.Writer) int {
	if data == "" || o.StoreDir == "" || len(pos) > 0 {
		fmt.Fprint(stderr, "desk venue-config: 要給 --data 與 --store / --data and --store are required\n\n"+usage())
		return 2
	}
	if routes != "" {
		o.Routes = strings.Split(routes, ",")
	}
	conf, err := deskserver.VenueConfig(data, o)
	if err != nil {
		fmt.Fprintln(stderr, "desk venue-config:", err)
		return 1
	}
	fmt.Fprint(stdout, conf)
	return 0
}

func playersSub(verb, usage, help string) *cliflag.Command {
	return &cliflag.Command{Name: verb, ShortUsage: usage, ShortHelp: help,
		Define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) int {
			data := fs.String("data", "", "the desk's data folder")
			return func(pos []string, stdout, stderr io.Writer) int { return cmdPlayers(verb, *data, pos, stdout, stderr) }
		}}
}

var playersCommand = &cliflag.Command{Name: "players", Subcommands: []*cliflag.Command{
	playersSub("import", "players import FILE --data DIR",
		"the player registry from a CSV file (編號,名字,俱樂部,暱稱; Excel's 「CSV UTF-8」 with its\n"+
			"BOM and CRLF is read as it is): players of a known id are updated, new ones added; a\n"+
			"file with any bad line imports nothing and every bad line is printed with its number\n"+
			"(also while the desk runs: it rereads the registry)"),
	playersSub("list", "players list --data DIR", "the player registry"),
}}

// cmdPlayers is `desk players import FILE` and `desk players list`.
func cmdPlayers(verb, dataDir string, pos []string, stdout, stderr io.Writer) int {
	data := &dataDir
	if *data == "" {
		fmt.Fprintln(stderr, "desk players: 要給 --data 資料夾 / --data DIR is required")
		return 2
	}
	if verb == "list" {
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
