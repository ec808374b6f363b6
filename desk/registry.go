package desk

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
	"github.com/pelletier/go-toml/v2"

	"wolftable/internal/atomicfile"
	"wolftable/journal"
)

// Creds is a table's credentials file, as `wolftable desk table add`
// writes it (TOML, mode 0600): everything a table needs to reach its desk.
//
//	table = "T1"
//	nkey = "SUA…"                 # the table's NATS identity (an NKEY seed: secret)
//	subject = "wolftable.table.T1"
//	url = "nats://192.0.2.5:4222" # optional: the desk's address
//	tls_pins = ["sha256:…"]       # the desk's certificate (its public key's SHA-256)
//
// The table proves its NKEY by signing the server's nonce: no password
// travels, and the link is TLS to the pinned certificate only.
type Creds struct {
	Table   string   `toml:"table"`
	NKey    string   `toml:"nkey"`
	Subject string   `toml:"subject"`
	URL     string   `toml:"url,omitempty"`
	TLSPins []string `toml:"tls_pins"`
}

// credsFile is Creds as read: with the fields of the old format (a user
// and a password in clear), which are refused with the remedy.
type credsFile struct {
	Table    string   `toml:"table"`
	NKey     string   `toml:"nkey"`
	Subject  string   `toml:"subject"`
	URL      string   `toml:"url"`
	TLSPins  []string `toml:"tls_pins"`
	User     string   `toml:"user"`
	Password string   `toml:"password"`
}

// NKeyPublic is the public NKEY (U…) of the credentials' seed: the user
// the broker knows the table by.
func (c Creds) NKeyPublic() (string, error) {
	kp, err := nkeys.FromSeed([]byte(c.NKey))
	if err != nil {
		return "", fmt.Errorf("nkey: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return "", err
	}
	if !nkeys.IsValidPublicUserKey(pub) {
		return "", errors.New("nkey: not a user seed (SU…)")
	}
	return pub, nil
}

// InboxPrefix is a table's inbox prefix: the only subjects it may
// subscribe to, so that no table reads another's replies.
func InboxPrefix(table string) string { return "_INBOX_TABLE." + table }

// Dial connects to the desk's broker at url with c: the NKEY, TLS to the
// pinned certificate, and (a table's credentials) the table's own inbox
// prefix. opts come after, so a caller may add its handlers.
func Dial(url string, c Creds, opts ...nats.Option) (*nats.Conn, error) {
	base, err := c.natsOptions()
	if err != nil {
		return nil, err
	}
	return nats.Connect(url, append(base, opts...)...)
}

// NKeyOption is the nats.go option that signs the server's nonce with
// the credentials' NKEY (the desk's in-process connection uses it alone).
func (c Creds) NKeyOption() (nats.Option, error) {
	kp, err := nkeys.FromSeed([]byte(c.NKey))
	if err != nil {
		return nil, fmt.Errorf("總台憑證的 nkey 不對：%w", err)
	}
	pub, err := c.NKeyPublic()
	if err != nil {
		return nil, err
	}
	return nats.Nkey(pub, kp.Sign), nil
}

func (c Creds) natsOptions() ([]nats.Option, error) {
	nk, err := c.NKeyOption()
	if err != nil {
		return nil, err
	}
	tc, err := ClientTLS(c.TLSPins)
	if err != nil {
		return nil, err
	}
	opts := []nats.Option{nk, nats.Secure(tc)}
	if c.Subject == Prefix(c.Table) {
		opts = append(opts, nats.CustomInboxPrefix(InboxPrefix(c.Table)))
	}
	return opts, nil
}

// Table is a registered table.
type Table struct {
	Name      string
	Creds     Creds
	PublicKey ed25519.PublicKey // the table's record-signing key
	CredsPath string
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// ValidName: a table's name is 1 to 32 letters, digits, '-' or '_' (it is
// a NATS subject token and a file name).
func ValidName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("桌名 %q 不行：只能用英數字、- 與 _，1 到 32 個字 / table name: letters, digits, - and _ only", name)
	}
	return nil
}

// Prefix is the subject prefix of a table: wolftable.table.<name>.
func Prefix(table string) string { return "wolftable.table." + table }

// Subject kinds a table publishes.
const (
	KindStatus  = "status"
	KindStart   = "start"
	KindEnd     = "end"
	KindPenalty = "penalty"
	KindRecord  = "record"
)

// Subject is a table's subject of a kind: wolftable.table.<name>.<kind>.
func Subject(table, kind string) string { return Prefix(table) + "." + kind }

// SubjectTable splits a subject into its table and kind ("", "" if it is
// not a table's subject).
func SubjectTable(subject string) (table, kind string) {
	rest, ok := strings.CutPrefix(subject, "wolftable.table.")
	if !ok {
		return "", ""
	}
	table, kind, ok = strings.Cut(rest, ".")
	if !ok || strings.Contains(kind, ".") {
		return "", ""
	}
	return table, kind
}

// TablesDir is where a desk keeps its tables: DATA/tables, with
// NAME.creds, NAME.pub (and NAME.key when the desk made the table's key).
func TablesDir(data string) string { return filepath.Join(data, "tables") }

// AddTable registers a table in the desk's data folder: a fresh NKEY,
// the desk's certificate pin, its credentials file (returned: the path to
// give the table) and its public key. pub is the table's public key
// (`wolftable record pubkey` on the table); nil makes a key pair here and
// exports the private key beside the credentials (NAME.key) for the
// table's /var/lib/wolftable/table.key. A table already registered is
// refused.
func AddTable(data, name string, pub ed25519.PublicKey, url string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	dir := TablesDir(data)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".creds")
	if _, err := os.Stat(path); err == nil {
		return "", fmt.Errorf("桌子 %s 已經登記過了（%s）/ table %s is already registered", name, path, name)
	}
	if pub == nil {
		// GenerateKey writes NAME.pub beside NAME.key.
		if _, err := journal.GenerateKey(filepath.Join(dir, name+".key")); err != nil {
			return "", err
		}
	} else if err := atomicfile.Write(filepath.Join(dir, name+".pub"), []byte(journal.FormatPublicKey(pub)+"\n"), 0o644); err != nil {
		return "", err
	}
	return path, writeTableCreds(data, path, name, url)
}

// RenewTable gives a registered table a new NKEY and the desk's current
// pin (`wolftable desk table renew`): a credentials file of the old
// format, or one that leaked. The old file stops working at the desk's
// next registry reload (within seconds); the table's signing key stays.
func RenewTable(data, name, url string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	path := filepath.Join(TablesDir(data), name+".creds")
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("桌子 %s 沒有登記（%s）/ table %s is not registered", name, path, name)
	}
	if url == "" {
		if b, err := os.ReadFile(path); err == nil {
			var old credsFile
			if toml.Unmarshal(b, &old) == nil {
				url = old.URL
			}
		}
	}
	return path, writeTableCreds(data, path, name, url)
}

func writeTableCreds(data, path, name, url string) error {
	cert, err := DeskCert(data)
	if err != nil {
		return err
	}
	seed, err := NewNKey()
	if err != nil {
		return err
	}
	return WriteCreds(path, Creds{Table: name, NKey: seed, Subject: Prefix(name), URL: url, TLSPins: []string{TLSPin(cert.Leaf)}})
}

// NewNKey draws an NKEY user seed (SU…).
func NewNKey() (string, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", err
	}
	seed, err := kp.Seed()
	return string(seed), err
}

// WriteCreds writes a credentials file (mode 0600), atomically.
func WriteCreds(path string, c Creds) error {
	body, err := toml.Marshal(c)
	if err != nil {
		return err
	}
	head := fmt.Sprintf("# wolftable 賽事總台：桌子 %s 的連線憑證（保密；給該桌 --desk-creds 或 [desk] creds）\n", c.Table)
	return atomicfile.Write(path, append([]byte(head), body...), 0o600)
}

// ErrOldCreds is a credentials file of the old format (a password).
var ErrOldCreds = errors.New("old credentials format")

// ReadCreds reads a credentials file.
func ReadCreds(path string) (Creds, error) {
	var f credsFile
	data, err := os.ReadFile(path)
	if err != nil {
		return Creds{}, fmt.Errorf("總台憑證 %s：%w", path, err)
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Creds{}, fmt.Errorf("總台憑證 %s 無法讀取：%v", path, err)
	}
	c := Creds{Table: f.Table, NKey: f.NKey, Subject: f.Subject, URL: f.URL, TLSPins: f.TLSPins}
	if err := ValidName(c.Table); err != nil {
		return c, fmt.Errorf("總台憑證 %s：%v", path, err)
	}
	if f.Password != "" || f.User != "" {
		return c, fmt.Errorf("總台憑證 %s 是舊格式（密碼明文傳送），不再接受：請在總台執行 wolftable desk table renew %s --data 資料夾，把新的憑證檔交給該桌（%w）", path, c.Table, ErrOldCreds)
	}
	if _, err := c.NKeyPublic(); err != nil {
		return c, fmt.Errorf("總台憑證 %s 的 nkey 不對：%v", path, err)
	}
	if len(c.TLSPins) == 0 {
		return c, fmt.Errorf("總台憑證 %s 缺少 tls_pins（總台憑證的指紋）", path)
	}
	for _, p := range c.TLSPins {
		if err := ValidPin(p); err != nil {
			return c, fmt.Errorf("總台憑證 %s：%v", path, err)
		}
	}
	if c.Subject == "" {
		c.Subject = Prefix(c.Table)
	}
	return c, nil
}

// Tables reads every registered table of a desk's data folder, by name.
func Tables(data string) ([]Table, error) {
	files, err := filepath.Glob(filepath.Join(TablesDir(data), "*.creds"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Table
	for _, f := range files {
		c, err := ReadCreds(f)
		if err != nil {
			return nil, err
		}
		t := Table{Name: c.Table, Creds: c, CredsPath: f}
		pubPath := filepath.Join(TablesDir(data), c.Table+".pub")
		if pub, err := journal.ReadPublicKey(pubPath); err == nil {
			t.PublicKey = pub
		} else if !errors.Is(err, os.ErrNotExist) && fileExists(pubPath) {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// retiredDir keeps the public keys a table no longer signs with (rekeyed
// or removed): NAME.<time>.pub, so that the records stored under them are
// still verified (Store.Recompute); no new record is taken with them.
func retiredDir(data string) string { return filepath.Join(TablesDir(data), "retired") }

// removedDir keeps a removed table's credentials and private key (never
// deleted): NAME.<time>.creds, NAME.<time>.key.
func removedDir(data string) string { return filepath.Join(TablesDir(data), "removed") }

func stamp() string { return time.Now().UTC().Format("20060102T150405.000000000Z") }

// RekeyTable registers a new public key for a table (`wolftable desk
// table rekey NAME --pubkey …`): a table whose key was replaced
// (`record keygen` after a leak) or registered wrong. The old public key
// is retired (its records stay verified), a private key the desk made is
// moved aside with it; the table's credentials (its NKEY) stay. Records
// signed with the old key are refused from now on.
func RekeyTable(data, name string, pub ed25519.PublicKey) (old ed25519.PublicKey, err error) {
	if err := ValidName(name); err != nil {
		return nil, err
	}
	if len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("公鑰不對 / not a public key")
	}
	dir := TablesDir(data)
	if _, err := os.Stat(filepath.Join(dir, name+".creds")); err != nil {
		return nil, fmt.Errorf("桌子 %s 沒有登記 / table %s is not registered", name, name)
	}
	pubPath := filepath.Join(dir, name+".pub")
	old, err = journal.ReadPublicKey(pubPath)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if old != nil && old.Equal(pub) {
		return old, fmt.Errorf("桌子 %s 登記的已經是這把公鑰（%s） / already registered", name, journal.KeyFingerprint([32]byte(pub)))
	}
	if ts, err := Tables(data); err == nil {
		for _, t := range ts {
			if t.Name != name && t.PublicKey.Equal(pub) {
				return nil, fmt.Errorf("這把公鑰已登記給桌子 %s：每張桌子要有自己的簽章金鑰 / registered for table %s", t.Name, t.Name)
			}
		}
	}
	at := stamp()
	if err := os.MkdirAll(retiredDir(data), 0o700); err != nil {
		return nil, err
	}
	if old != nil {
		if err := atomicfile.Write(filepath.Join(retiredDir(data), name+"."+at+".pub"), []byte(journal.FormatPublicKey(old)+"\n"), 0o644); err != nil {
			return nil, err
		}
	}
	if fileExists(filepath.Join(dir, name+".key")) {
		if err := os.Rename(filepath.Join(dir, name+".key"), filepath.Join(retiredDir(data), name+"."+at+".key")); err != nil {
			return nil, err
		}
	}
	return old, atomicfile.Write(pubPath, []byte(journal.FormatPublicKey(pub)+"\n"), 0o644)
}

// RemoveTable takes a table out of the registry (`wolftable desk table
// remove NAME`): its credentials stop working at the desk's next registry
// reload (within seconds) and no record of it is taken any more. Nothing
// is deleted: its credentials and key go to DATA/tables/removed, its
// public key to DATA/tables/retired, and its stored games stay counted.
// The name may be registered again later (a new NKEY, a new key).
func RemoveTable(data, name string) error {
	if err := ValidName(name); err != nil {
		return err
	}
	dir := TablesDir(data)
	creds := filepath.Join(dir, name+".creds")
	if _, err := os.Stat(creds); err != nil {
		return fmt.Errorf("桌子 %s 沒有登記 / table %s is not registered", name, name)
	}
	at := stamp()
	for _, d := range []string{retiredDir(data), removedDir(data)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	moves := [][2]string{
		{filepath.Join(dir, name+".pub"), filepath.Join(retiredDir(data), name+"."+at+".pub")},
		{filepath.Join(dir, name+".key"), filepath.Join(removedDir(data), name+"."+at+".key")},
		{creds, filepath.Join(removedDir(data), name+"."+at+".creds")}, // last: the table is registered until then
	}
	for _, m := range moves {
		if !fileExists(m[0]) {
			continue
		}
		if err := os.Rename(m[0], m[1]); err != nil {
			return err
		}
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// TableKeys are every public key a table was registered with: the
// current one (if registered) first, then the retired ones. A stored
// record is proven by any of them (it was taken under one); a new record
// only by the current one.
func TableKeys(data, name string) ([]ed25519.PublicKey, error) {
	var out []ed25519.PublicKey
	if pub, err := journal.ReadPublicKey(filepath.Join(TablesDir(data), name+".pub")); err == nil {
		out = append(out, pub)
	}
	if ValidName(name) != nil {
		return out, nil
	}
	files, err := filepath.Glob(filepath.Join(retiredDir(data), name+".*.pub"))
	if err != nil {
		return out, err
	}
	sort.Sort(sort.Reverse(sort.StringSlice(files)))
	for _, f := range files {
		pub, err := journal.ReadPublicKey(f)
		if err != nil {
			return out, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, pub)
	}
	return out, nil
}
