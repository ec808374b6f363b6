package console

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// The console's state on disk (Options.StateDir, console.state_dir): the
// PIN's hash and the live sessions' hashes. Files are written whole to a
// temporary file and renamed, mode 0600; a file made by root (`wolftable
// console pin` under sudo) is given to the directory's owner, the daemon's
// user.

const (
	pinFileName      = "pin_hash"
	sessionsFileName = "sessions.json"
	maxStateFile     = 64 << 10
)

// PINFile is where the PIN's hash is kept in a state directory.
func PINFile(stateDir string) string { return filepath.Join(stateDir, pinFileName) }

// readPINFile reads a stored PIN hash (parsePINFile) and its generation.
func readPINFile(path string) (hash [32]byte, gen string, err error) {
	b, err := readSmall(path)
	if err != nil {
		return hash, "", err
	}
	return parsePINFile(b)
}

// pinFileText is what a state directory keeps of a PIN: its hash, then a
// random generation, so that a new PIN that happens to be the old one
// still ends the sessions of the old one:
//
//	sha256:<64 hex digits>
//	generation <32 hex digits>
func pinFileText(pin string) []byte {
	g := make([]byte, 16)
	_, _ = rand.Read(g) // crypto/rand.Read never fails (Go 1.24+)
	return []byte(HashPIN(pin) + "\ngeneration " + hex.EncodeToString(g) + "\n")
}

// parsePINFile reads pinFileText's text (or the one line of a hash that
// a table kept before issue 27). gen is the PIN's generation, which every
// session is bound to: derived from the whole text, so a new file (a new
// PIN) is a new generation.
func parsePINFile(b []byte) (hash [32]byte, gen string, err error) {
	first, rest, _ := strings.Cut(string(b), "\n")
	if hash, err = parsePINHash(first); err != nil {
		return hash, "", err
	}
	if rest = strings.TrimSpace(rest); rest != "" {
		g, ok := strings.CutPrefix(rest, "generation ")
		if _, herr := hex.DecodeString(g); !ok || herr != nil || len(g) != 32 {
			return [32]byte{}, "", fmt.Errorf("console: pin_hash: want a second line \"generation <32 hex digits>\"")
		}
	}
	return hash, pinGeneration(b), nil
}

// pinGeneration is the generation of a PIN from what defines it: the PIN
// file's text, or console.pin_hash.
func pinGeneration(b []byte) string {
	sum := sha256.Sum256(append([]byte("wolftable console pin generation\n"), b...))
	return hex.EncodeToString(sum[:16])
}

func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxStateFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxStateFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxStateFile)
	}
	return b, nil
}

// CheckState reports what New would refuse in a state directory: a stored
// PIN hash that cannot be read (`wolftable config check` runs it, so
// that serve never meets it first).
func CheckState(stateDir string) error {
	f := PINFile(stateDir)
	if !fileExists(f) {
		return nil
	}
	if _, _, err := readPINFile(f); err != nil {
		return pinFileError(f, err)
	}
	return nil
}

func pinFileError(path string, err error) error {
	return fmt.Errorf("console: %s: %w (`wolftable console pin` makes a new PIN)", path, err)
}

// NewPIN draws a new 6-digit PIN and stores its hash in stateDir (made if
// missing), with a new generation: every session of the old PIN ends, in
// a running console at its next request and in one started later as it
// reads the sessions file. The PIN itself is returned, never stored.
func NewPIN(stateDir string) (string, error) {
	pin, err := generatePIN()
	if err != nil {
		return "", err
	}
	if err := writeState(stateDir, pinFileName, pinFileText(pin)); err != nil {
		return "", err
	}
	return pin, nil
}

// writeState writes a state file whole (temporary file, fsync, rename).
func writeState(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename: nothing there
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	giveToDirOwner(dir, tmp)
	return os.Rename(tmp, filepath.Join(dir, name))
}

// giveToDirOwner: root writing into the daemon's directory hands the file
// to the directory's owner, or the daemon could not read it.
func giveToDirOwner(dir, path string) {
	if os.Geteuid() != 0 {
		return
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		_ = os.Chown(path, int(st.Uid), int(st.Gid))
	}
}

// storedSession is a session as kept on disk: the SHA-256 of its cookie,
// the generation of the PIN it logged in with and whether it was issued
// over HTTPS.
type storedSession struct {
	Hash    string    `json:"hash"`
	Expires time.Time `json:"expires"`
	Remote  string    `json:"remote"`
	PIN     string    `json:"pin"`
	TLS     bool      `json:"tls"`
}

type sessionsFile struct {
	Sessions []storedSession `json:"sessions"`
}

// parseSessions reads a sessions file; sessions expired at now, of another
// PIN generation than gen (a PIN made since, or a file from before PIN
// generations), malformed or past maxSessions are left out.
func parseSessions(b []byte, now time.Time, gen string) (map[[32]byte]*session, error) {
	var f sessionsFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	out := map[[32]byte]*session{}
	for _, s := range f.Sessions {
		if len(out) >= maxSessions {
			break
		}
		h, err := hex.DecodeString(s.Hash)
		if err != nil || len(h) != 32 || !now.Before(s.Expires) || len(s.Remote) > 128 || s.PIN != gen {
			continue
		}
		var k [32]byte
		copy(k[:], h)
		out[k] = &session{expires: s.Expires, remote: s.Remote, pinGen: s.PIN, tls: s.TLS}
	}
	return out, nil
}

// save writes the sessions file; a.mu is held. A failure is logged: the
// sessions still work until the next restart.
func (a *auth) save() {
	if a.store == "" {
		return
	}
	now := a.now()
	f := sessionsFile{Sessions: []storedSession{}}
	for k, s := range a.sessions {
		if now.Before(s.expires) {
			f.Sessions = append(f.Sessions, storedSession{Hash: hex.EncodeToString(k[:]), Expires: s.expires, Remote: s.remote,
				PIN: s.pinGen, TLS: s.tls})
		}
	}
	b, _ := json.MarshalIndent(f, "", "  ")
	if err := writeState(filepath.Dir(a.store), filepath.Base(a.store), append(b, '\n')); err != nil {
		a.log.Error("console: sessions not saved; they end with this run", "err", err)
	}
}

// load reads the sessions file, if any.
func (a *auth) load() {
	if a.store == "" {
		return
	}
	b, err := readSmall(a.store)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err == nil {
		var m map[[32]byte]*session
		if m, err = parseSessions(b, a.now(), a.pinGen); err == nil {
			a.sessions = m
			return
		}
	}
	a.log.Error("console: the sessions file is unreadable; the judge logs in again", "file", a.store, "err", err)
}
