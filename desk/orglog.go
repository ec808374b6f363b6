package desk

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"
)

// The organiser's log (issue 29 item 2): every change the desk's
// operator makes to what counts — a round opened or closed, a game
// voided, a player changed — one JSON line in DATA/organiser.jsonl,
// appended and synced before the change is answered.

// LogEntry is one line of the organiser's log.
type LogEntry struct {
	At      time.Time `json:"at"`
	Kind    string    `json:"kind"`    // round, void, player
	Subject string    `json:"subject"` // a round's number, a game's hash, a player's id
	Text    string    `json:"text"`    // what was done, in Chinese
}

// LogFile is the organiser's log in a desk's data folder.
const LogFile = "organiser.jsonl"

// Log appends an entry to the organiser's log (synced).
func (s *Store) Log(kind, subject, text string) error {
	b, _ := json.Marshal(LogEntry{At: time.Now().UTC(), Kind: kind, Subject: subject, Text: text})
	s.lmu.Lock()
	defer s.lmu.Unlock()
	return appendLine(filepath.Join(s.data, LogFile), b)
}

// appendLine appends line and a newline to the file at path (made if
// missing), synced before it returns: the desk's logs of JSON lines.
func appendLine(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o640)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// LogEntries are the organiser's log, oldest first; subject "" gives
// all of it. A torn last line (a power cut while appending) is skipped.
func (s *Store) LogEntries(subject string) ([]LogEntry, error) {
	s.lmu.Lock()
	defer s.lmu.Unlock()
	f, err := os.Open(filepath.Join(s.data, LogFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []LogEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e LogEntry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if subject == "" || e.Subject == subject {
			out = append(out, e)
		}
	}
	return out, sc.Err()
}
