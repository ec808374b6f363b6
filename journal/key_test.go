package journal

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeyFiles: keygen makes a 0600 private key and a 0644 public key that
// read back as one pair, never overwrites, and LoadOrCreateKey makes one
// only when there is none; a private key others may read is refused.
func TestKeyFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table.key")
	key, err := GenerateKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("private key mode %v", fi.Mode())
	}
	if fi, _ := os.Stat(filepath.Join(dir, "table.pub")); fi.Mode().Perm() != 0o644 {
		t.Fatalf("public key mode %v", fi.Mode())
	}
	pub, err := ReadPublicKey(PublicKeyPath(path))
	if err != nil || !pub.Equal(key.Public()) {
		t.Fatalf("public key file: %v", err)
	}
	if _, err := GenerateKey(path); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second keygen: %v", err)
	}
	again, created, err := LoadOrCreateKey(path)
	if err != nil || created || !again.Equal(key) {
		t.Fatalf("LoadOrCreateKey of an existing key: created %v, %v", created, err)
	}
	os.Remove(PublicKeyPath(path)) // a lost public key file is written again
	if _, _, err := LoadOrCreateKey(path); err != nil {
		t.Fatal(err)
	}
	if pub, err := ReadPublicKey(PublicKeyPath(path)); err != nil || !pub.Equal(key.Public()) {
		t.Fatalf("rewritten public key: %v", err)
	}
	fresh := filepath.Join(dir, "sub-table.key")
	k2, created, err := LoadOrCreateKey(fresh)
	if err != nil || !created || k2.Equal(key) {
		t.Fatalf("LoadOrCreateKey of none: created %v, %v", created, err)
	}
	os.Chmod(path, 0o640)
	if _, err := ReadPrivateKey(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a group-readable private key: %v", err)
	}
	if _, _, err := LoadOrCreateKey(path); err == nil {
		t.Fatal("LoadOrCreateKey must not replace a key it refuses")
	}
	if got := KeyPathFor("/var/lib/wolftable/journals/"); got != DefaultKeyPath {
		t.Fatalf("KeyPathFor: %s", got)
	}
}

// TestKeyCommands: `record keygen` and `record pubkey` print the public key
// an organiser registers; a second keygen refuses to overwrite.
func TestKeyCommands(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.key")
	run := func(verb func(string, io.Writer, io.Writer) int, key string) (int, string, string) {
		var out, errw bytes.Buffer
		code := verb(key, &out, &errw)
		return code, out.String(), errw.String()
	}
	verify := func(file, pub string) (int, string, string) {
		var out, errw bytes.Buffer
		code := VerifyFile(file, VerifyOptions{PublicKey: pub}, &out, &errw)
		return code, out.String(), errw.String()
	}
	code, out, errs := run(Keygen, path)
	if code != 0 || !strings.Contains(out, "wolftable-ed25519 ") {
		t.Fatalf("keygen: %d %s %s", code, out, errs)
	}
	code, pubOut, _ := run(PrintPublicKey, path)
	key, _ := ReadPrivateKey(path)
	if code != 0 || strings.TrimSpace(pubOut) != FormatPublicKey(key.Public().(ed25519.PublicKey)) || !strings.Contains(out, strings.TrimSpace(pubOut)) {
		t.Fatalf("pubkey: %d %q", code, pubOut)
	}
	if code, _, errs := run(Keygen, path); code != 1 || !strings.Contains(errs, "不覆寫") {
		t.Fatalf("second keygen: %d %s", code, errs)
	}
	if code, _, _ := run(PrintPublicKey, filepath.Join(t.TempDir(), "none.key")); code != 1 {
		t.Fatal("pubkey without a key")
	}
	// --pubkey takes the key, its hex digits or a file.
	pub := strings.TrimSpace(pubOut)
	p := playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 2, true)
	for _, arg := range []string{testPub, strings.TrimPrefix(testPub, "wolftable-ed25519 ")} {
		if code, out, _ := verify(p.path, arg); code != 0 {
			t.Fatalf("--pubkey %s: %d\n%s", arg, code, out)
		}
	}
	if code, out, _ := verify(p.path, PublicKeyPath(path)); code != 1 || !strings.Contains(out, "簽章金鑰不符") {
		t.Fatalf("--pubkey FILE of another table (%s): %d\n%s", pub, code, out)
	}
	if code, _, errs := verify(p.path, "nonsense"); code != 2 || !strings.Contains(errs, "公鑰") {
		t.Fatalf("--pubkey nonsense: %d %s", code, errs)
	}
}

// FuzzParsePublicKey: the public key parser (--pubkey, table.pub) never
// panics, and what it accepts is a 32-byte key that formats back to a
// form it accepts as the same key.
func FuzzParsePublicKey(f *testing.F) {
	f.Add(testPub)
	f.Fuzz(func(t *testing.T, s string) {
		pub, err := ParsePublicKey(s)
		if err != nil {
			return
		}
		if len(pub) != ed25519.PublicKeySize {
			t.Fatalf("%d-byte key", len(pub))
		}
		again, err := ParsePublicKey(FormatPublicKey(pub))
		if err != nil || !again.Equal(pub) {
			t.Fatalf("does not round-trip: %v", err)
		}
	})
}

// FuzzParsePrivateKey: the private key parser never panics and accepts
// only a whole seed.
func FuzzParsePrivateKey(f *testing.F) {
	f.Add("wolftable-ed25519-private " + strings.Repeat("07", 32) + "\n")
	f.Fuzz(func(t *testing.T, s string) {
		key, err := ParsePrivateKey(s)
		if err == nil && len(key) != ed25519.PrivateKeySize {
			t.Fatalf("%d-byte key", len(key))
		}
	})
}
