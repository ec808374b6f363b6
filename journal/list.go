package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// UnfinishedJournal is a journal found by Unfinished.
type UnfinishedJournal struct {
	Path    string
	Header  Header // zero when Err is set before the header could be read
	Records int    // records after the header
	// TornTail: the last record was torn and will be dropped on resume.
	TornTail bool
	// Err is set when the journal cannot be resumed: damaged (*CorruptError),
	// from a newer format (*VersionError), or torn before its header was
	// complete (ErrNoHeader: the game never started). Shown, never skipped.
	Err error
	at  time.Time
}

// Unfinished lists the journals in dir (files named *.wtj, not in
// sub-folders) that have no end record, newest first (by the header's start
// time, else the file's modification time). Journals that cannot be read
// are listed too, with Err set, so the judge hears of them.
func Unfinished(dir string) ([]UnfinishedJournal, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var out []UnfinishedJournal
	for _, de := range des {
		if de.IsDir() || !strings.HasSuffix(de.Name(), Extension) {
			continue
		}
		e := UnfinishedJournal{Path: filepath.Join(dir, de.Name())}
		j, err := Read(e.Path)
		switch {
		case err != nil:
			e.Err = err
			if fi, serr := de.Info(); serr == nil {
				e.at = fi.ModTime()
			}
		case j.Finished():
			continue
		default:
			e.Header, e.Records, e.TornTail, e.at = j.Header, len(j.Records), j.TornTail, j.Header.Start
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(a, b int) bool {
		if !out[a].at.Equal(out[b].at) {
			return out[a].at.After(out[b].at)
		}
		return out[a].Path > out[b].Path
	})
	return out, nil
}
