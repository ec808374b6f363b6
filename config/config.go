// Package config reads the table daemon's configuration file
// (/etc/wolftable/config.toml or --config): the table's hardware, the board
// and its options, the voice, the journal, the console and the pedal.
// Every key has a default, so `wolftable sim` works with no file at all.
// The file is decoded once; unknown sections and keys are refused. An error
// (*Error) names the line and column the user wrote (from the parser's
// tokens), the key, and the problem in words for a venue technician,
// Chinese first ("要是 0 到 1 之間的數字"), never a Go type (errors.go).
//
// The sections [table], [pedal], [gpio] and [serial] describe the table as
// a device: they decode, in the same pass, into hw.Sections, which the hw
// package checks and converts to an hw.Config:
//
//	[table]
//	seats = 12
//	mode = "virtual"       # virtual | gpio | serial
//
// The rest belongs to the daemon:
//
//	[game]
//	board = "seer-witch-hunter-idiot"   # id or name (wolftable boards)
//	deal = "random"        # random | manual (the judge enters the deal on the console)
//	boards_dir = "/etc/wolftable/boards"  # the venue's own boards (*.board); missing default = none
//	[game.options]         # board options of rules.md, e.g.
//	"witch.self_save" = "never"
//
//	[voice]
//	pack = ""              # a voice-pack folder; "" = the studio's activated pack, else the embedded default
//	volume = 1.0           # 0..1 (0 mute); without the key, 1.0
//	cache_dir = ""         # the decoded voice; "" = "voice-cache" beside journal.dir, "off" = none
//	studio_dir = ""        # the console's voice studio; "" = "voice" beside journal.dir
//
//	[journal]
//	dir = "/var/lib/wolftable/journals"
//	resume = true          # resume an unfinished game on start (false: start a new one)
//
//	[console]
//	listen = "127.0.0.1:8080"  # "off" = no console; the handler answers the LAN only
//	pin_hash = ""          # sha256:<hex> of the judge's PIN; "" = the hash kept in state_dir
//	hosts = []             # host names the console answers to (besides localhost, its own name and addresses)
//	state_dir = ""         # PIN hash, sessions, certificate; "" = "console" beside journal.dir
//	tls_listen = ""        # HTTPS; "" = listen's host on port 8443, "off" = none
//	tls_cert = ""          # the venue's certificate and key (PEM); "" = self-signed in state_dir
//	tls_key = ""
//	redirect_http = true   # plain HTTP redirects to the HTTPS console; without the key, true when HTTPS is on
//
//	[desk]                 # report to the tournament desk (off by default)
//	url = ""               # nats://HOST:PORT of the desk (several, comma-separated, for a cluster)
//	table = ""             # this table's name at the desk
//	creds = ""             # the credentials file `wolftable desk table add` printed
//
//	[venue]                # script = "hant" | "hans", phonetic = "pinyin" | "zhuyin" (venue.go)
//
//	[pedal_actions]        # what each pedal press does
//	short = "advance"      # advance | repeat | pause
//	long = "repeat"
//	double = "pause"
package config

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"wolftable/boards"
	"wolftable/engine"
	"wolftable/hw"
)

// Config is the daemon's configuration.
type Config struct {
	Table   *hw.Config // [table] [pedal] [gpio] [serial]
	Game    Game
	Voice   Voice
	Journal Journal
	Console Console
	Pedal   Pedal
	Desk    Desk
	Venue   Venue
	Path    string // the file it came from ("" = defaults)

	catalog *boards.Catalog // the boards of game.boards_dir, read by Validate
}

// Game is the [game] section.
type Game struct {
	Board   string            `toml:"board"`
	Deal    string            `toml:"deal"`
	Options map[string]string `toml:"options"`
	// BoardsDir is the venue's boards folder (boards.Open): its *.board
	// files join the built-in boards. The default folder may be missing;
	// a folder the file names must exist.
	BoardsDir string `toml:"boards_dir"`
}

// Voice is the [voice] section.
type Voice struct {
	Pack   string  `toml:"pack"`
	Volume float64 `toml:"volume"`
	// FullSamples is read for old configs and does nothing: the voice is
	// always the pack's decoded samples, never coded a second time.
	FullSamples bool `toml:"full_samples"`
	// CacheDir holds the decoded voice (audio/pack's decoded cache), so
	// that a start after the first has the voice at once; "" = "voice-cache"
	// beside the journal directory (CacheDirPath), "off" = no cache.
	CacheDir string `toml:"cache_dir"`
	// StudioDir is the voice studio's folder (audio/studio): the venue's
	// recordings and the pack it activated; "" = "voice" beside the
	// journal directory (StudioDirPath).
	StudioDir string `toml:"studio_dir"`
}

// Journal is the [journal] section.
type Journal struct {
	Dir    string `toml:"dir"`
	Resume bool   `toml:"resume"`
}

// Console is the [console] section.
type Console struct {
	Listen  string `toml:"listen"`
	PINHash string `toml:"pin_hash"`
	// Hosts are host names the console answers to besides localhost, the
	// machine's name and addresses (a DNS-rebinding page gets 421).
	Hosts []string `toml:"hosts"`
	// StateDir keeps the PIN's hash, the sessions and the self-signed
	// certificate; "" = "console" beside journal.dir (StateDirPath).
	StateDir string `toml:"state_dir"`
	// TLSListen serves the console over HTTPS too; "" = the host of listen
	// on port 8443 (TLSAddr), "off" = no HTTPS.
	TLSListen string `toml:"tls_listen"`
	// TLSCert and TLSKey are the venue's own certificate and key (PEM
	// files, both or neither); "" = a self-signed one in StateDir.
	TLSCert string `toml:"tls_cert"`
	TLSKey  string `toml:"tls_key"`
	// RedirectHTTP answers every plain-HTTP request (the login too) with
	// a redirect to the HTTPS console; nil = true when there is an HTTPS
	// console (RedirectsHTTP). false serves the console over plain HTTP
	// too, where the PIN and the cookie cross the LAN in clear.
	RedirectHTTP *bool `toml:"redirect_http"`
}

// RedirectsHTTP reports whether plain HTTP redirects to the HTTPS
// console: console.redirect_http, or, without the key, whether there is
// an HTTPS console (TLSAddr). serve redirects only while HTTPS is up.
func (c *Config) RedirectsHTTP() bool {
	if r := c.Console.RedirectHTTP; r != nil {
		return *r
	}
	return c.TLSAddr() != ""
}

// StateDirPath is the console's state directory: console.state_dir, or
// "console" beside the journal directory (/var/lib/wolftable/console).
func (c *Config) StateDirPath() string {
	if c.Console.StateDir != "" {
		return c.Console.StateDir
	}
	return filepath.Join(filepath.Dir(filepath.Clean(c.Journal.Dir)), "console")
}

// StudioDirPath is the voice studio's folder: voice.studio_dir, or "voice"
// beside the journal directory (/var/lib/wolftable/voice).
func (c *Config) StudioDirPath() string {
	if c.Voice.StudioDir != "" {
		return c.Voice.StudioDir
	}
	return filepath.Join(filepath.Dir(filepath.Clean(c.Journal.Dir)), "voice")
}

// CacheDirPath is the decoded voice's folder: voice.cache_dir, or
// "voice-cache" beside the journal directory
// (/var/lib/wolftable/voice-cache); "" for "off".
func (c *Config) CacheDirPath() string {
	switch c.Voice.CacheDir {
	case "off":
		return ""
	case "":
		return filepath.Join(filepath.Dir(filepath.Clean(c.Journal.Dir)), "voice-cache")
	}
	return c.Voice.CacheDir
}

// TLSAddr is the HTTPS console's address: console.tls_listen, or the host
// of console.listen on port 8443 (port 0 when listen's port is 0); "" =
// no HTTPS.
func (c *Config) TLSAddr() string {
	if c.Console.Listen == "off" || c.Console.TLSListen == "off" {
		return ""
	}
	if c.Console.TLSListen != "" {
		return c.Console.TLSListen
	}
	host, port, err := net.SplitHostPort(c.Console.Listen)
	if err != nil {
		return ""
	}
	if port != "0" {
		port = "8443"
	}
	return net.JoinHostPort(host, port)
}

// Desk is the [desk] section: the tournament desk this table reports to
// (issue 16); URL "" = none.
type Desk struct {
	URL   string `toml:"url"`
	Table string `toml:"table"`
	Creds string `toml:"creds"`
}

// Pedal is the [pedal] section: what each press does.
type Pedal struct {
	Short  string `toml:"short"`
	Long   string `toml:"long"`
	Double string `toml:"double"`
}

// Default is the configuration with no file.
func Default() *Config {
	return &Config{
		Table:   hw.DefaultConfig(),
		Game:    Game{Board: "seer-witch-hunter-idiot", Deal: "random", BoardsDir: boards.DefaultDir},
		Voice:   Voice{Volume: 1},
		Journal: Journal{Dir: "/var/lib/wolftable/journals", Resume: true},
		Console: Console{Listen: "127.0.0.1:8080"},
		Pedal:   Pedal{Short: "advance", Long: "repeat", Double: "pause"},
	}
}

// Error is a configuration problem: the key and what is wrong, and where
// the file writes it (Line and Column as the parser saw them; 0 when the
// file does not write the key, or the column is not known).
type Error struct {
	Path   string
	Key    string
	Line   int
	Column int
	Msg    string
}

func (e *Error) Error() string {
	loc := e.Path
	if loc == "" {
		loc = "config"
	}
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, e.Line)
		if e.Column > 0 {
			loc = fmt.Sprintf("%s:%d", loc, e.Column)
		}
	}
	if e.Key != "" {
		return fmt.Sprintf("config: %s: %s: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("config: %s: %s", loc, e.Msg)
}

// file is the whole configuration file, decoded once. The daemon's sections
// decode into a copy of the defaults (a key the file does not write keeps
// its default); the table's sections, decoded in the same pass, are
// hw.Sections (over the table's defaults), which hw checks and converts.
// Unknown keys and sections are refused.
type file struct {
	Table   *hw.TableSection  `toml:"table"`
	Pedal   *hw.PedalSection  `toml:"pedal"`
	GPIO    *hw.GPIOSection   `toml:"gpio"`
	Serial  *hw.SerialSection `toml:"serial"`
	Game    *Game             `toml:"game"`
	Voice   *Voice            `toml:"voice"`
	Journal *Journal          `toml:"journal"`
	Console *Console          `toml:"console"`
	Actions *Pedal            `toml:"pedal_actions"`
	Desk    *Desk             `toml:"desk"`
	Venue   *Venue            `toml:"venue"`
}

// Load reads a file; a missing file at the default path gives the defaults.
func Load(path string, mustExist bool) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && !mustExist {
			return Default(), nil
		}
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	c, err := Parse(data)
	if err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			ce.Path = path
		}
		return nil, err
	}
	c.Path = path
	return c, nil
}

// utf8BOM is the UTF-8 byte order mark.
var utf8BOM = []byte("\xef\xbb\xbf")

// Parse reads a configuration from TOML text over the defaults. An error is
// an *Error naming the line and column the user wrote, the key and the
// problem in words (Chinese first), never a Go type.
func Parse(data []byte) (*Config, error) {
	// a UTF-8 byte order mark, which Windows editors write, is not TOML:
	// it is dropped (it is on line 1, so every line number stays right)
	data = bytes.TrimPrefix(data, utf8BOM)
	c := Default()
	tab := c.Table.Sections()
	f := file{Table: &tab.Table, Pedal: &tab.Pedal, GPIO: &tab.GPIO, Serial: &tab.Serial,
		Game: &c.Game, Voice: &c.Voice, Journal: &c.Journal, Console: &c.Console, Actions: &c.Pedal, Desk: &c.Desk, Venue: &c.Venue}
	at := hw.ReadPositions(data) // where each key is written, for the problems found after the decode
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(err, at)
	}
	def := Default()
	for _, kv := range []struct{ v, d *string }{
		{&c.Game.Board, &def.Game.Board}, {&c.Game.Deal, &def.Game.Deal}, {&c.Game.BoardsDir, &def.Game.BoardsDir},
		{&c.Console.Listen, &def.Console.Listen}, {&c.Console.TLSListen, &def.Console.TLSListen},
		{&c.Pedal.Short, &def.Pedal.Short}, {&c.Pedal.Long, &def.Pedal.Long}, {&c.Pedal.Double, &def.Pedal.Double},
	} {
		if *kv.v == "" { // "" = the default, as an absent key
			*kv.v = *kv.d
		}
	}
	table, err := tab.Config(at)
	if err != nil {
		return nil, tableError(err)
	}
	c.Table = table
	if err := c.Validate(); err != nil {
		var ce *Error
		if errors.As(err, &ce) && ce.Line == 0 && ce.Key != "" {
			pos := at.Of(ce.Key)
			ce.Line, ce.Column = pos.Line, pos.Column
		}
		return c, err
	}
	return c, nil
}

// Validate checks every value; the first problem is returned.
func (c *Config) Validate() error {
	cat, err := c.Boards()
	if err != nil {
		return err
	}
	b, err := cat.Get(c.Game.Board)
	if err != nil {
		return &Error{Key: "game.board", Msg: fmt.Sprintf("不認得板子 %q：%s / %v", c.Game.Board, want("game.board"), err)}
	}
	keys := make([]string, 0, len(c.Game.Options))
	for k := range c.Game.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := b.Options.Set(k, c.Game.Options[k]); err != nil {
			return &Error{Key: "game.options." + k, Msg: optionMessage(b.ID, err)}
		}
	}
	switch c.Game.Deal {
	case "random", "manual":
	default:
		return &Error{Key: "game.deal", Msg: fmt.Sprintf("%q 不行：%s / want random or manual", c.Game.Deal, want("game.deal"))}
	}
	if v := c.Voice.Volume; !(v >= 0 && v <= 1) { // NaN fails both
		return &Error{Key: "voice.volume", Msg: fmt.Sprintf("%v 不在 0..1 之間：%s / want a number from 0 to 1", v, want("voice.volume"))}
	}
	if d := c.Voice.StudioDir; d != "" && !filepath.IsAbs(d) {
		return &Error{Key: "voice.studio_dir", Msg: fmt.Sprintf("%q 不行：%s / want an absolute path", d, want("voice.studio_dir"))}
	}
	if d := c.Voice.CacheDir; d != "" && d != "off" && !filepath.IsAbs(d) {
		return &Error{Key: "voice.cache_dir", Msg: fmt.Sprintf("%q 不行：%s / want an absolute path or \"off\"", d, want("voice.cache_dir"))}
	}
	if c.Journal.Dir == "" {
		return &Error{Key: "journal.dir", Msg: "不可為空：" + want("journal.dir") + " / must not be empty"}
	}
	if l := c.Console.Listen; l == "off" {
		// no console
	} else if _, _, err := net.SplitHostPort(l); err != nil {
		return &Error{Key: "console.listen", Msg: fmt.Sprintf("%q 不行：%s / want host:port", c.Console.Listen, want("console.listen"))}
	}
	if h := c.Console.PINHash; h != "" && (!strings.HasPrefix(h, "sha256:") || len(h) != len("sha256:")+64 || !isHex(h[len("sha256:"):])) {
		return &Error{Key: "console.pin_hash", Msg: want("console.pin_hash") + " / want sha256:<64 hex digits>"}
	}
	if err := c.validateConsoleTLS(); err != nil {
		return err
	}
	if err := c.validateVenue(); err != nil {
		return err
	}
	for _, kv := range [][2]string{{"pedal_actions.short", c.Pedal.Short}, {"pedal_actions.long", c.Pedal.Long}, {"pedal_actions.double", c.Pedal.Double}} {
		if _, err := PedalAction(kv[1]); err != nil {
			return &Error{Key: kv[0], Msg: fmt.Sprintf("%q 不行：%s / %v", kv[1], want(kv[0]), err)}
		}
	}
	if d := c.Desk; d.URL != "" && (d.Table == "" || d.Creds == "") {
		return &Error{Key: "desk.url", Msg: "有 desk.url 時也要寫 desk.table 與 desk.creds（`wolftable desk table add` 給的憑證檔）/ desk.url needs desk.table and desk.creds"}
	}
	if err := DeskURLProblem(c.Desk.URL); err != nil {
		return &Error{Key: "desk.url", Msg: fmt.Sprintf("%q 不行：%s / %v", c.Desk.URL, want("desk.url"), err)}
	}
	if c.Table != nil && c.Table.Seats != 0 {
		if b, err := cat.Get(c.Game.Board); err == nil && b.Players != c.Table.Seats {
			return &Error{Key: "table.seats", Msg: fmt.Sprintf("桌子有 %d 個座位，板子 %s 是 %d 人局：兩者要相同 / the table has %d seats but board %s has %d players", c.Table.Seats, b.ID, b.Players, c.Table.Seats, b.ID, b.Players)}
		}
	}
	return nil
}

// validateConsoleTLS checks console.hosts, state_dir, tls_listen,
// tls_cert/tls_key and redirect_http.
func (c *Config) validateConsoleTLS() error {
	k := c.Console
	for _, h := range k.Hosts {
		if !validHostName(h) {
			return &Error{Key: "console.hosts", Msg: fmt.Sprintf("%q 不行：%s / want a host name", h, want("console.hosts"))}
		}
	}
	if k.StateDir != "" && !filepath.IsAbs(k.StateDir) {
		return &Error{Key: "console.state_dir", Msg: fmt.Sprintf("%q 不行：%s / want an absolute path", k.StateDir, want("console.state_dir"))}
	}
	if l := k.TLSListen; l != "" && l != "off" {
		if _, _, err := net.SplitHostPort(l); err != nil {
			return &Error{Key: "console.tls_listen", Msg: fmt.Sprintf("%q 不行：%s / want host:port or \"off\"", l, want("console.tls_listen"))}
		}
	}
	if a := c.TLSAddr(); a != "" && a == k.Listen && !strings.HasSuffix(a, ":0") {
		return &Error{Key: "console.tls_listen", Msg: fmt.Sprintf("%q 與 console.listen 是同一個位址：HTTPS 要用另一個埠 / %q is console.listen's address too", a, a)}
	}
	if (k.TLSCert == "") != (k.TLSKey == "") {
		return &Error{Key: "console.tls_cert", Msg: "tls_cert 與 tls_key 要一起寫（或都不寫：用自簽憑證）/ set tls_cert and tls_key together"}
	}
	if k.TLSCert != "" {
		for _, f := range [][2]string{{"console.tls_cert", k.TLSCert}, {"console.tls_key", k.TLSKey}} {
			fi, err := os.Stat(f[1])
			if err != nil {
				return &Error{Key: f[0], Msg: fmt.Sprintf("讀不到檔案 %s：%s / %v", f[1], want(f[0]), errors.Unwrap(err))}
			}
			if !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
				return &Error{Key: f[0], Msg: fmt.Sprintf("%s 不是 PEM 檔（最多 1 MB）/ want a PEM file (at most 1 MB)", f[1])}
			}
		}
		if _, err := tls.LoadX509KeyPair(k.TLSCert, k.TLSKey); err != nil {
			return &Error{Key: "console.tls_cert", Msg: fmt.Sprintf("憑證與金鑰無法一起使用（檔案壞了或不成對）/ %v", err)}
		}
	}
	if r := k.RedirectHTTP; r != nil && *r && c.TLSAddr() == "" {
		return &Error{Key: "console.redirect_http", Msg: "需要 HTTPS 主控台，但 console.tls_listen 是 off / needs the HTTPS console"}
	}
	return nil
}

// DeskURLProblem checks a desk URL as the table's NATS client reads it
// (serve and sim's --desk too): comma-separated servers, each
// nats://HOST:PORT or tls://HOST:PORT (ws:// and wss://, not mixed with
// the others; the scheme may be left out: nats://), the port a number.
// "" is no desk.
func DeskURLProblem(s string) error {
	if s == "" {
		return nil
	}
	n, ws := 0, 0
	for _, u := range strings.Split(s, ",") {
		if u = strings.TrimSpace(u); u == "" {
			continue
		}
		if !strings.Contains(u, "://") {
			u = "nats://" + u
		}
		p, err := url.Parse(u)
		if err != nil {
			return fmt.Errorf("%q: not a URL", u)
		}
		switch p.Scheme {
		case "nats", "tls":
		case "ws", "wss":
			ws++
		default:
			return fmt.Errorf("%q: want nats://, tls://, ws:// or wss://", u)
		}
		if p.Hostname() == "" || (p.Path != "" && p.Path != "/") || p.RawQuery != "" {
			return fmt.Errorf("%q: want SCHEME://HOST:PORT", u)
		}
		if port := p.Port(); port != "" {
			if v, err := strconv.Atoi(port); err != nil || v < 1 || v > 65535 {
				return fmt.Errorf("%q: the port is not 1..65535", u)
			}
		}
		n++
	}
	if n == 0 {
		return errors.New("no server")
	}
	if ws != 0 && ws != n {
		return errors.New("ws:// and wss:// cannot be mixed with nats:// or tls://")
	}
	return nil
}

func isHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}

// validHostName: letters, digits, '-' and '.', labels of 1..63, at most 253.
func validHostName(h string) bool {
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// optionMessage is a refused board option in words.
func optionMessage(board string, err error) string {
	if strings.Contains(err.Error(), "unknown option") {
		return fmt.Sprintf("板子 %s 沒有這個選項（選項見 docs/rules.md）/ %v", board, err)
	}
	return fmt.Sprintf("這個選項不接受這個值 / %v", err)
}

// PedalAction maps a pedal setting to the engine's pedal press.
func PedalAction(s string) (engine.PedalPress, error) {
	switch s {
	case "advance":
		return engine.PedalShort, nil
	case "repeat":
		return engine.PedalLong, nil
	case "pause":
		return engine.PedalDouble, nil
	}
	return 0, fmt.Errorf("%q: want advance, repeat or pause", s)
}

// Board returns the configured board with its options applied.
func (c *Config) Board() (*engine.Board, error) {
	cat, err := c.Boards()
	if err != nil {
		return nil, err
	}
	b, err := cat.Get(c.Game.Board)
	if err != nil {
		return nil, err
	}
	for k, v := range c.Game.Options {
		if err := b.Options.Set(k, v); err != nil {
			return nil, &Error{Key: "game.options." + k, Msg: err.Error()}
		}
	}
	return b, nil
}

// Boards is the table's board catalog: the built-in boards and the venue's
// of game.boards_dir, read once (the first call, which Validate makes)
// and kept. A folder the file names must exist and every board in it must
// be valid: the error (key game.boards_dir) lists every bad file with its
// line, as `wolftable boards check` does.
func (c *Config) Boards() (*boards.Catalog, error) {
	dir := c.Game.BoardsDir
	if c.catalog != nil && c.catalog.Dir == dir {
		return c.catalog, nil
	}
	cat, err := boards.Open(dir, dir != boards.DefaultDir)
	if err != nil {
		return nil, &Error{Key: "game.boards_dir", Msg: fmt.Sprintf("本店板子資料夾 %s 有問題（`wolftable boards check %s` 列出每個檔案的問題）：\n%v", dir, dir, err)}
	}
	c.catalog = cat
	return cat, nil
}
