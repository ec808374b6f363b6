package journal

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The table's signing key (doc.go, "Signature"): an ed25519 key pair made
// once per table, at install (`wolftable record keygen`) or at the daemon's
// first start. The private key stays on the table, readable by the daemon
// only; the public key is what an organiser registers for the table and
// gives `wolftable record verify --pubkey`.
//
// Files, text, one line each:
//
//	table.key  "wolftable-ed25519-private " + 64 hex digits (the 32-byte seed), mode 0600
//	table.pub  "wolftable-ed25519 " + 64 hex digits (the 32-byte public key)

// DefaultKeyPath is the table's private key on an installed table: next to
// the journals folder, in the service's state directory.
const DefaultKeyPath = "/var/lib/wolftable/table.key"

const (
	publicPrefix  = "wolftable-ed25519 "
	privatePrefix = "wolftable-ed25519-private "
	maxKeyFile    = 4096
)

// KeyPathFor is where the table keeps its key for a journals folder: the
// file table.key in the folder above it (/var/lib/wolftable/journals →
// /var/lib/wolftable/table.key), outside the folder that is copied off the
// table.
func KeyPathFor(journalDir string) string {
	return filepath.Join(filepath.Dir(filepath.Clean(journalDir)), "table.key")
}

// PublicKeyPath is the public key file that goes with a private key file:
// table.key → table.pub.
func PublicKeyPath(keyPath string) string {
	return strings.TrimSuffix(keyPath, ".key") + ".pub"
}

// FormatPublicKey is the public key as an organiser registers it:
// "wolftable-ed25519 <64 hex digits>".
func FormatPublicKey(pub ed25519.PublicKey) string {
	return publicPrefix + hex.EncodeToString(pub)
}

// KeyFingerprint is a public key's short form for people: its first 8 hex
// digits in two groups, "1a2b 3c4d" (the whole key is what is checked).
func KeyFingerprint(pub [32]byte) string { return Fingerprint(pub) }

// Fingerprint is a chain hash's short form for the paper score sheet: its
// first 8 hex digits in two groups, "1a2b 3c4d". It identifies a finished
// journal among a tournament's; the signature, not the fingerprint, is
// what proves it.
func Fingerprint(h [32]byte) string {
	s := hex.EncodeToString(h[:4])
	return s[:4] + " " + s[4:]
}

// ParsePublicKey reads a public key as FormatPublicKey writes it, or as
// its 64 hex digits alone; surrounding white space is ignored.
func ParsePublicKey(text string) (ed25519.PublicKey, error) {
	s := strings.TrimSpace(text)
	s = strings.TrimPrefix(s, strings.TrimSpace(publicPrefix))
	s = strings.TrimSpace(s)
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("不是 wolftable 公鑰：應為「wolftable-ed25519 」加 64 個十六進位數字")
	}
	return ed25519.PublicKey(b), nil
}

// ParsePrivateKey reads a private key file's text.
func ParsePrivateKey(text string) (ed25519.PrivateKey, error) {
	s, ok := strings.CutPrefix(strings.TrimSpace(text), privatePrefix)
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if !ok || err != nil || len(b) != ed25519.SeedSize {
		return nil, errors.New("不是 wolftable 私鑰檔：應為「wolftable-ed25519-private 」加 64 個十六進位數字")
	}
	return ed25519.NewKeyFromSeed(b), nil
}

// ReadPublicKey reads a public key given on the command line: the key
// itself (FormatPublicKey or 64 hex digits) or a file holding it.
func ReadPublicKey(arg string) (ed25519.PublicKey, error) {
	if pub, err := ParsePublicKey(arg); err == nil {
		return pub, nil
	}
	data, err := readSmall(arg)
	if err != nil {
		return nil, fmt.Errorf("公鑰 %s：%w", arg, err)
	}
	pub, err := ParsePublicKey(string(data))
	if err != nil {
		return nil, fmt.Errorf("公鑰 %s：%w", arg, err)
	}
	return pub, nil
}

func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, keyFileError(err)
	}
	defer f.Close()
	buf := make([]byte, maxKeyFile+1)
	n, err := f.Read(buf)
	if err != nil && n == 0 {
		return nil, keyFileError(err)
	}
	if n > maxKeyFile {
		return nil, errors.New("檔案太大，不是金鑰檔")
	}
	return buf[:n], nil
}

func keyFileError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("檔案不存在")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("沒有讀取權限（請以 sudo 執行）")
	}
	return err
}

// ReadPrivateKey reads the table's private key. A file that others than
// its owner may read is refused: whoever can read it can sign any result.
func ReadPrivateKey(path string) (ed25519.PrivateKey, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("本桌私鑰 %s：%w", path, keyFileError(err))
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("本桌私鑰 %s 的權限是 %04o，其他使用者可讀：請執行 chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	data, err := readSmall(path)
	if err != nil {
		return nil, fmt.Errorf("本桌私鑰 %s：%w", path, err)
	}
	key, err := ParsePrivateKey(string(data))
	if err != nil {
		return nil, fmt.Errorf("本桌私鑰 %s：%w", path, err)
	}
	return key, nil
}

// GenerateKey makes the table's key pair: path (mode 0600, never
// overwritten: an existing file is an error wrapping fs.ErrExist) and its
// public key file PublicKeyPath(path) (mode 0644). The folder must exist.
func GenerateKey(path string) (ed25519.PrivateKey, error) {
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: the table's key %s: %w", path, err)
	}
	_, err = fmt.Fprintf(f, "%s%s\n", privatePrefix, hex.EncodeToString(key.Seed()))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = writePublicKey(PublicKeyPath(path), pub)
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("journal: the table's key %s: %w", path, err)
	}
	return key, nil
}

// writePublicKey (re)writes a public key file, atomically.
func writePublicKey(path string, pub ed25519.PublicKey) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(FormatPublicKey(pub)+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil { // whatever the umask
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// LoadOrCreateKey reads the table's private key, or makes the key pair
// when there is none yet (created is then true). The public key file is
// rewritten from the private key if it is missing or says otherwise.
func LoadOrCreateKey(path string) (key ed25519.PrivateKey, created bool, err error) {
	key, err = ReadPrivateKey(path)
	if errors.Is(err, fs.ErrNotExist) || (err != nil && !fileExists(path)) {
		key, err = GenerateKey(path)
		return key, err == nil, err
	}
	if err != nil {
		return nil, false, err
	}
	pub := key.Public().(ed25519.PublicKey)
	if have, perr := ReadPublicKey(PublicKeyPath(path)); perr != nil || !have.Equal(pub) {
		if werr := writePublicKey(PublicKeyPath(path), pub); werr != nil {
			return nil, false, fmt.Errorf("journal: the table's public key %s: %w", PublicKeyPath(path), werr)
		}
	}
	return key, false, nil
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
