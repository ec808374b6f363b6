package desk

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"wolftable/internal/atomicfile"
	"wolftable/journal"
)

// Creds is a table's credentials file, as `wolftable desk table add`
// writes it (TOML, mode 0600):
//
//	table = "T1"
//	user = "table-T1"
//	password = "…"
//	subject = "wolftable.table.T1"
//	url = "nats://192.0.2.5:4222"   # optional: the desk's address
type Creds struct {
	Table    string `toml:"table"`
	User     string `toml:"user"`
	Password string `toml:"password"`
	Subject  string `toml:"subject"`
	URL      string `toml:"url,omitempty"`
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

// AddTable registers a table in the desk's data folder: a fresh NATS
// password, its credentials file (returned: the path to give the table)
// and its public key. pub is the table's public key (`wolftable record
// pubkey` on the table); nil makes a key pair here and exports the private
// key beside the credentials (NAME.key) for the table's
// /var/lib/wolftable/table.key. A table already registered is refused.
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
		key, err := journal.GenerateKey(filepath.Join(dir, name+".key"))
		if err != nil {
			return "", err
		}
		pub = key.Public().(ed25519.PublicKey)
	} else if err := atomicfile.Write(filepath.Join(dir, name+".pub"), []byte(journal.FormatPublicKey(pub)+"\n"), 0o644); err != nil {
		return "", err
	}
	var pw [18]byte
	rand.Read(pw[:])
	c := Creds{Table: name, User: "table-" + name, Password: hex.EncodeToString(pw[:]), Subject: Prefix(name), URL: url}
	if err := WriteCreds(path, c); err != nil {
		return "", err
	}
	return path, nil
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

// ReadCreds reads a credentials file.
func ReadCreds(path string) (Creds, error) {
	var c Creds
	data, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("總台憑證 %s：%w", path, err)
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("總台憑證 %s 無法讀取：%v", path, err)
	}
	if err := ValidName(c.Table); err != nil {
		return c, fmt.Errorf("總台憑證 %s：%v", path, err)
	}
	if c.User == "" || c.Password == "" {
		return c, fmt.Errorf("總台憑證 %s 缺少 user 或 password", path)
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
