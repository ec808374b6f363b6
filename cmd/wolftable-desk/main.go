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
const head = `wolftable desk — 賽事總台

各桌經 TLS 連到總台，只認總台自己的憑證（DATA/tls），並以各自的 NKEY 登入：
不傳送任何密碼。
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

// runIn runs the desk command of args; run writes its output in the
// desk's script (script.go).
func runIn(args []string, stdout, stderr io.Writer) int {
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
	ShortHelp: "啟動總台；就緒時印出 `desk: nats://HOST:PORT` 與 `desk: http://HOST:PORT/`\n" +
		"兩行（給程式讀取的固定格式：腳本以它們取得位址）",
	Define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) int {
		var f startFlags
		fs.StringVar(&f.data, "data", "", "總台的資料夾")
		fs.StringVar(&f.nats, "nats", "", "內建 NATS 伺服器的 host:port（預設 :4222）")
		fs.StringVar(&f.http, "http", "", "網頁的 host:port（預設 :8090）")
		fs.StringVar(&f.https, "https", "", "以總台憑證走 TLS 的總台登入頁，host:port（例如 :8091；預設：不開）：\n"+
			"開了之後，一般網頁不再提供登入，只連到這裡")
		fs.StringVar(&f.conf, "config", "", "寫著同樣設定的 TOML 檔")
		fs.StringVar(&f.pack, "pack", "", "計分規則：隨附的 default、league，或一個 TOML 檔")
		fs.StringVar(&f.cluster, "cluster", "", "改用場地的 NATS 叢集（URL，以逗號分隔），不用內建伺服器")
		fs.StringVar(&f.clusterCreds, "cluster-creds", "", "總台在叢集上的憑證（預設 DATA/desk.creds）")
		fs.IntVar(&f.replicas, "replicas", 0, "紀錄串流的副本數（叢集：3）")
		fs.StringVar(&f.title, "title", "", "賽事名稱，每一頁都會顯示（例如「2026 冬季聯賽」）")
		fs.StringVar(&f.script, "script", "", "網頁與訊息的字體：hant（繁體，預設）或 hans（简体）；各瀏覽器可在\n"+
			"網頁上切換（繁體 · 简体）")
		fs.DurationVar(&f.feedDelay, "feed-delay", deskserver.DefaultFeedDelay, "觀眾畫面的延遲（/feed/TABLE）")
		fs.BoolVar(&f.verbose, "verbose", false, "每筆紀錄都寫入日誌")
		return func(args []string, stdout, stderr io.Writer) int { return start(f, args, stdout, stderr) }
	},
}

// start starts the desk with f and serves until SIGINT or SIGTERM.
func start(f startFlags, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "總台：多了參數 %q\n\n%s", args[0], usage())
		return 2
	}
	o, p, code := startOptions(f, stderr)
	if code != 0 {
		return code
	}
	if err := os.MkdirAll(o.Data, 0o750); err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	d, err := deskserver.Start(o)
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "總台：計分規則 %s（%s）\n", p.ID(), p.Title)
	// Machine-read (README, scripts/measure, the tests): these two lines
	// keep their English prefix, "desk: " and the address.
	fmt.Fprintf(stdout, "desk: %s\n", d.NATSURL())
	fmt.Fprintf(stdout, "desk: %s\n", d.HTTPURL())
	if u := d.HTTPSURL(); u != "" {
		if cert, err := desk.DeskCert(o.Data); err == nil {
			fmt.Fprintf(stdout, "總台登入：%s（瀏覽器顯示的憑證 SHA-256 指紋 %s）\n", u, desk.CertFingerprint(cert.Leaf))
		}
	}
	if d.NewPIN != "" {
		fmt.Fprintf(stdout, "總台：總台登入密碼 %s（只顯示這一次；換一個：`wolftable desk pin --data DIR`）\n", d.NewPIN)
	}
	ctx, stop := signal.NotifyContext(gocontext.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	d.Close()
	st, dup, ref := d.Counts()
	fmt.Fprintf(stdout, "總台已停止（這一次：存了 %d 筆紀錄，重複收到 %d 筆，拒收 %d 筆）\n", st, dup, ref)
	return 0
}

// startOptions are the desk server's options from f and --config (a flag
// given wins); code is the exit status when they are bad.
func startOptions(f startFlags, stderr io.Writer) (o deskserver.Options, p *desk.Pack, code int) {
	fc, err := readFileConfig(f.conf)
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
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
		fmt.Fprint(stderr, "總台：--feed-delay 要大於 0\n\n"+usage())
		return o, nil, 2
	}
	if f.replicas != 0 {
		o.Replicas = f.replicas
	}
	if o.Data == "" {
		fmt.Fprint(stderr, "總台：要給 --data 資料夾\n\n"+usage())
		return o, nil, 2
	}
	if p, err = desk.LoadPack(pick(f.pack, fc.Pack)); err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return o, nil, 2
	}
	o.Pack = p
	if cc := pick(f.clusterCreds, fc.ClusterCreds); cc != "" {
		c, err := desk.ReadCreds(cc)
		if err != nil {
			fmt.Fprintf(stderr, "總台：%v\n", err)
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
			fs.StringVar(&f.data, "data", "", "總台的資料夾")
			if pubkey {
				fs.StringVar(&f.pubkey, "pubkey", "", "`KEY|FILE`：該桌的公鑰（在該桌執行 `wolftable record pubkey`），或公鑰檔")
			}
			if url {
				fs.StringVar(&f.url, "url", "", "總台的 NATS 位址，寫進憑證檔")
			}
			return func(pos []string, stdout, stderr io.Writer) int { return cmdTable(verb, f, pos, stdout, stderr) }
		}}
}

var tableCommand = &cliflag.Command{Name: "table", Subcommands: []*cliflag.Command{
	tableSub("add", "table add NAME --data DIR [--pubkey KEY|FILE] [--url URL]",
		"登記一桌；印出它的憑證檔（給該桌的 --desk-creds）；不給 --pubkey 時\n"+
			"由總台產生該桌的金鑰對：NAME.key 放到該桌的 /var/lib/wolftable/table.key", true, true),
	tableSub("renew", "table renew NAME --data DIR [--url URL]",
		"為已登記的桌子換一份新憑證檔（新的 NKEY；舊檔幾秒內失效）：用於舊格式\n"+
			"（密碼）的憑證檔，或外洩的憑證檔", false, true),
	tableSub("rekey", "table rekey NAME --pubkey KEY|FILE --data DIR",
		"登記一桌的新公鑰（金鑰換過，或登記錯了）：之後拒收舊金鑰簽署的紀錄；\n"+
			"已收的照算（舊公鑰留在 DATA/tables/retired）", true, false),
	tableSub("remove", "table remove NAME --data DIR",
		"把一桌移出登記：它的憑證幾秒內失效，它的對局照算；不刪除任何檔案\n"+
			"（DATA/tables/removed、DATA/tables/retired）", false, false),
	tableSub("list", "table list --data DIR", "已登記的桌子：桌名、公鑰指紋、NKEY、憑證檔", false, false),
}}

// cmdTable runs `desk table VERB` with f and the positional arguments.
func cmdTable(verb string, f tableFlags, pos []string, stdout, stderr io.Writer) int {
	data, pubkey, url := &f.data, &f.pubkey, &f.url
	if *data == "" {
		fmt.Fprintln(stderr, "總台：要給 --data 資料夾")
		return 2
	}
	if verb == "list" {
		return tableList(*data, stdout, stderr)
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "總台：要給一個桌名\n")
		return 2
	}
	switch verb {
	case "rekey":
		return tableRekey(*data, pos[0], *pubkey, stdout, stderr)
	case "remove":
		if err := desk.RemoveTable(*data, pos[0]); err != nil {
			fmt.Fprintf(stderr, "總台：%v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "總台：桌子 %s 已移除：憑證幾秒內失效，不再收它的紀錄；已收的對局照算（檔案移到 %s）\n", pos[0], desk.TablesDir(*data)+"/removed")
		return 0
	}
	if verb == "renew" {
		path, err := desk.RenewTable(*data, pos[0], *url)
		if err != nil {
			fmt.Fprintf(stderr, "總台：%v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, path)
		fmt.Fprintf(stderr, "總台：桌子 %s 的新憑證檔：把它交給該桌（--desk-creds 或 `[desk] creds`）；舊的幾秒內失效\n", pos[0])
		return 0
	}
	var pub []byte
	if *pubkey != "" {
		k, err := journal.ReadPublicKey(*pubkey)
		if err != nil {
			fmt.Fprintf(stderr, "總台：%v\n", err)
			return 2
		}
		pub = k
	}
	path, err := desk.AddTable(*data, pos[0], pub, *url)
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, path)
	if pub == nil {
		fmt.Fprintf(stderr, "總台：已為桌子 %s 產生簽章金鑰：把 %s 複製到該桌的 /var/lib/wolftable/table.key（權限 0600）\n",
			pos[0], strings.TrimSuffix(path, ".creds")+".key")
	}
	return 0
}

// tableList is desk table list: each table's name, key fingerprint,
// NKEY and credentials file.
func tableList(data string, stdout, stderr io.Writer) int {
	ts, err := desk.Tables(data)
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
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
		fmt.Fprintln(stderr, "總台：要給 --pubkey 新的公鑰（該桌的 `wolftable record pubkey`）")
		return 2
	}
	k, err := journal.ReadPublicKey(pubkey)
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 2
	}
	old, err := desk.RekeyTable(data, name, k)
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	was := "（原本沒有公鑰）"
	if old != nil {
		was = journal.KeyFingerprint([32]byte(old))
	}
	fmt.Fprintf(stdout, "總台：桌子 %s 的公鑰 %s → %s；之後只收新金鑰簽署的紀錄，已收的紀錄照算\n", name, was, journal.KeyFingerprint([32]byte(k)))
	return 0
}

// dataCommand is a desk command whose one flag is --data, required, and
// that takes no arguments; bad usage prints what and the usage.
func dataCommand(name, help, what string, exec func(data string, stdout, stderr io.Writer) int) *cliflag.Command {
	return &cliflag.Command{Name: name, ShortUsage: name + " --data DIR", ShortHelp: help,
		Define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) int {
			data := fs.String("data", "", "總台的資料夾")
			return func(pos []string, stdout, stderr io.Writer) int {
				if *data == "" || len(pos) > 0 {
					fmt.Fprint(stderr, what+"\n\n"+usage())
					return 2
				}
				return exec(*data, stdout, stderr)
			}
		}}
}

var pinCommand = dataCommand("pin", "抽一組新的總台登入密碼（總台登入，用於 MVP/SVP）",
	"總台：要給 --data 資料夾", cmdPIN)

var tlsCommand = dataCommand("tls", "總台的 TLS 憑證（沒有就產生）與其釘選值",
	"總台：要給 --data 資料夾", cmdTLS)

var packsCommand = &cliflag.Command{Name: "packs", ShortUsage: "packs", ShortHelp: "隨附的計分規則",
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
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "總台：新的總台登入密碼 %s（重新啟動總台後生效）\n", pin)
	return 0
}

func cmdTLS(data string, stdout, stderr io.Writer) int {
	cert, err := desk.DeskCert(data)
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	crt, key := desk.TLSFiles(data)
	fmt.Fprintf(stdout, "憑證：%s\n金鑰：%s\n釘選值：%s\nSHA-256 指紋：%s\n到期：%s\n", crt, key, desk.TLSPin(cert.Leaf),
		desk.CertFingerprint(cert.Leaf), cert.Leaf.NotAfter.Format("2006-01-02"))
	return 0
}

var venueConfigCommand = &cliflag.Command{Name: "venue-config",
	ShortUsage: "venue-config --data DIR --store DIR [--listen ADDR]\n" +
		"  [--cluster-name NAME --route-listen ADDR --routes URLS] [--cert-dir DIR]",
	ShortHelp: "給自備 NATS 的場地用的 nats-server 設定（說明：deploy/README.md）",
	Define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) int {
		data := fs.String("data", "", "總台的資料夾")
		var o deskserver.VenueOptions
		fs.StringVar(&o.StoreDir, "store", "", "節點上 JetStream 的資料夾")
		fs.StringVar(&o.Listen, "listen", "", "用戶端連接埠（預設 0.0.0.0:4222）")
		fs.StringVar(&o.ClusterName, "cluster-name", "", "叢集名稱（不給：單一節點）")
		fs.StringVar(&o.RouteListen, "route-listen", "", "節點互連的連接埠（預設 0.0.0.0:6222）")
		routes := fs.String("routes", "", "每個節點的 nats-route://HOST:PORT，以逗號分隔")
		fs.StringVar(&o.CertDir, "cert-dir", "", "節點存放 desk.crt 與 desk.key 的位置（預設 DATA/tls）")
		return func(pos []string, stdout, stderr io.Writer) int {
			return cmdVenueConfig(*data, o, *routes, pos, stdout, stderr)
		}
	}}

func cmdVenueConfig(data string, o deskserver.VenueOptions, routes string, pos []string, stdout, stderr io.Writer) int {
	if data == "" || o.StoreDir == "" || len(pos) > 0 {
		fmt.Fprint(stderr, "總台：要給 --data 與 --store\n\n"+usage())
		return 2
	}
	if routes != "" {
		o.Routes = strings.Split(routes, ",")
	}
	conf, err := deskserver.VenueConfig(data, o)
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	fmt.Fprint(stdout, conf)
	return 0
}

func playersSub(verb, usage, help string) *cliflag.Command {
	return &cliflag.Command{Name: verb, ShortUsage: usage, ShortHelp: help,
		Define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) int {
			data := fs.String("data", "", "總台的資料夾")
			return func(pos []string, stdout, stderr io.Writer) int { return cmdPlayers(verb, *data, pos, stdout, stderr) }
		}}
}

var playersCommand = &cliflag.Command{Name: "players", Subcommands: []*cliflag.Command{
	playersSub("import", "players import FILE --data DIR",
		"由 CSV 檔匯入選手名冊（編號,名字,俱樂部,暱稱；Excel 的「CSV UTF-8」連同\n"+
			"BOM 與 CRLF 照讀）：已知編號的選手更新，新的加入；檔案只要有一行錯誤就整個\n"+
			"不匯入，並印出每一行錯誤與行號（總台執行中也可以：它會重讀名冊）"),
	playersSub("list", "players list --data DIR", "選手名冊"),
}}

// cmdPlayers is `desk players import FILE` and `desk players list`.
func cmdPlayers(verb, dataDir string, pos []string, stdout, stderr io.Writer) int {
	data := &dataDir
	if *data == "" {
		fmt.Fprintln(stderr, "總台：要給 --data 資料夾")
		return 2
	}
	if verb == "list" {
		list, err := desk.ReadPlayers(*data)
		if err != nil {
			fmt.Fprintf(stderr, "總台：%v\n", err)
			return 1
		}
		for _, p := range list {
			fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", p.ID, p.Name, p.Club, p.Nickname)
		}
		fmt.Fprintf(stderr, "總台：名冊共 %d 位選手\n", len(list))
		return 0
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "總台：要給一個 CSV 檔")
		return 2
	}
	b, err := os.ReadFile(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	if err := os.MkdirAll(*data, 0o750); err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	added, updated, err := desk.ImportPlayers(*data, b)
	if bad, ok := err.(desk.LineErrors); ok {
		for _, e := range bad {
			fmt.Fprintf(stderr, "%s 第 %d 行：%s\n", pos[0], e.Line, e.Reason)
		}
		fmt.Fprintf(stderr, "總台：%s 有 %d 行錯誤，整個檔案都沒有匯入（名冊不變）：改好再匯入一次\n", pos[0], len(bad))
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "總台：%v\n", err)
		return 1
	}
	list, _ := desk.ReadPlayers(*data)
	fmt.Fprintf(stdout, "總台：新增 %d 位、更新 %d 位；名冊共 %d 位選手\n", added, updated, len(list))
	return 0
}
