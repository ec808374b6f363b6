package journal

import (
	"errors"
	"fmt"
	"io/fs"
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

// Listed is one journal of a List page.
type Listed struct {
	Path     string
	Name     string
	Archived bool   // in the archive (a finished game); false: at the top of the folder
	Header   Header // zero when Err is set
	Records  int    // records after the header
	Finished bool   // has its end record
	Result   string // the end record's result
	Signed   bool   // the end record is signed
	// Sent, Refused: the desk's marker beside the journal; Queued: in the
	// outbox, waiting for the desk.
	Sent, Refused, Queued bool
	Err                   error // the journal does not read (damaged, torn before its header)
}

// Page is one page of List, newest first.
type Page struct {
	Page, Per int
	Games     []Listed
	More      bool // there is a page after this one
}

// List is page (1 = the newest) of the journals of dir, per per page:
// those at the top (the game in progress, one to resume, one a crash left
// there) and the archive's, newest first by file name (the start time).
// It reads the archive's month folders only as far as the page reaches,
// and only the page's journals.
func List(dir string, page, per int) (Page, error) {
	if page < 1 {
		page = 1
	}
	if per < 1 {
		per = 20
	}
	p := Page{Page: page, Per: per}
	refs, more, err := listNames(dir, (page-1)*per, per)
	if err != nil {
		return p, err
	}
	p.More = more
	for _, r := range refs {
		p.Games = append(p.Games, listed(dir, r))
	}
	return p, nil
}

type listRef struct {
	path, name string
	archived   bool
}

// listNames returns take journals after the first skip, newest first, and
// whether more follow.
func listNames(dir string, skip, take int) ([]listRef, bool, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, false, fmt.Errorf("journal: %w", err)
	}
	byMonth := map[string][]listRef{}
	for _, de := range des {
		if n := de.Name(); !de.IsDir() && strings.HasSuffix(n, Extension) {
			m := month(n)
			byMonth[m] = append(byMonth[m], listRef{path: filepath.Join(dir, n), name: n})
		}
	}
	archived := map[string]bool{}
	if mds, err := os.ReadDir(filepath.Join(dir, ArchiveDir)); err == nil {
		for _, md := range mds {
			if md.IsDir() {
				archived[md.Name()] = true
				byMonth[md.Name()] = byMonth[md.Name()]
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("journal: %w", err)
	}
	months := make([]string, 0, len(byMonth))
	for m := range byMonth {
		months = append(months, m)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(months)))
	var out []listRef
	for _, m := range months {
		refs := byMonth[m]
		if archived[m] {
			folder := filepath.Join(dir, ArchiveDir, m)
			ads, err := os.ReadDir(folder)
			if err != nil {
				return nil, false, fmt.Errorf("journal: %w", err)
			}
			for _, de := range ads {
				if n := de.Name(); !de.IsDir() && strings.HasSuffix(n, Extension) {
					refs = append(refs, listRef{path: filepath.Join(folder, n), name: n, archived: true})
				}
			}
		}
		sort.Slice(refs, func(a, b int) bool { return refs[a].name > refs[b].name })
		for _, r := range refs {
			switch {
			case skip > 0:
				skip--
			case len(out) == take:
				return out, true, nil
			default:
				out = append(out, r)
			}
		}
	}
	return out, false, nil
}

func listed(dir string, r listRef) Listed {
	l := Listed{Path: r.path, Name: r.name, Archived: r.archived}
	l.Sent, l.Refused = fileExists(r.path+".sent"), fileExists(r.path+".refused")
	l.Queued = fileExists(filepath.Join(dir, OutboxDir, r.name+QueuedSuffix))
	j, err := Read(r.path)
	if err != nil {
		l.Err = err
		return l
	}
	l.Header, l.Records = j.Header, len(j.Records)
	if end, ok := j.End(); ok {
		l.Finished, l.Result, l.Signed = true, end.Result, end.Signed
	}
	return l
}
