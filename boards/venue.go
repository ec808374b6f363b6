package boards

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"wolftable/engine"
)

// DefaultDir is the venue's boards folder when the config names none
// ([game] boards_dir). A missing default folder adds no board.
const DefaultDir = "/etc/wolftable/boards"

// Catalog is the boards a table knows: the built-in (embedded) ones and the
// venue's own, read from a folder once (Open). Get and All return fresh
// copies, parsed again from the text read at Open: callers own them.
type Catalog struct {
	Dir string // the venue folder ("" = none)
	// Skipped are the files named *.board of the folder that were not
	// read (Skipped); the caller shows them as warnings.
	Skipped []Skipped
	venue   []boardFile
	ids     map[string]bool // the venue boards' ids
}

// Skipped is a file of a venue's folder named *.board that is not read,
// with the reason in words: one that is not a regular file (a FIFO, which
// reading would wait on forever, a device, a socket, a link to one).
type Skipped struct {
	File   string
	Reason string
}

func (s Skipped) String() string { return s.File + "：" + s.Reason }

// Open reads the venue's boards of dir beside the built-in ones. dir ""
// means none. A folder that does not exist is an error when required
// (the config names it), and adds nothing when not (the default folder).
// Every problem of the folder is reported (CheckDir): the error joins
// *Error values that name the file and line.
func Open(dir string, required bool) (*Catalog, error) {
	c := &Catalog{Dir: dir, ids: map[string]bool{}}
	if dir == "" {
		return c, nil
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) && !required {
		return c, nil
	}
	files, _, skipped, errs := checkDir(dir)
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	c.venue, c.Skipped = files, skipped
	for _, f := range files {
		b, _, _ := parse(f.name, f.src)
		c.ids[b.ID] = true
	}
	return c, nil
}

// CheckDir validates a venue's boards folder as `wolftable boards check`
// does: every *.board file directly in dir is parsed and validated (the
// first problem of each file), two files may not share an id or a name,
// and no board may reuse a built-in board's id or name. It returns the
// good boards, sorted by id, and every problem, each an *Error with the
// file and, where there is one, the line. A missing folder is one error.
func CheckDir(dir string) ([]*engine.Board, []error) {
	good, _, errs := CheckDirSkipped(dir)
	return good, errs
}

// CheckDirSkipped is CheckDir that also returns the files it skipped (not
// regular files), for `wolftable boards check` to show.
func CheckDirSkipped(dir string) ([]*engine.Board, []Skipped, []error) {
	_, good, skipped, errs := checkDir(dir)
	return good, skipped, errs
}

func checkDir(dir string) ([]boardFile, []*engine.Board, []Skipped, []error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		msg := err.Error()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			msg = "資料夾不存在 / no such folder"
		case errors.Is(err, fs.ErrPermission):
			msg = "無法讀取資料夾（權限不足）/ permission denied"
		}
		return nil, nil, nil, []error{&Error{File: dir, Msg: msg}}
	}
	builtin, err := All()
	if err != nil {
		return nil, nil, nil, []error{err}
	}
	builtinID, builtinName := map[string]string{}, map[string]string{}
	for _, b := range builtin {
		builtinID[b.ID], builtinName[b.Name] = b.ID, b.ID
	}
	var errs []error
	var files []boardFile
	var good []*engine.Board
	var skipped []Skipped
	ids, names := map[string]string{}, map[string]string{} // id, name -> file:line
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".board") {
			continue
		}
		name := filepath.Join(dir, e.Name())
		src, err := readFile(name)
		if errors.Is(err, errNotRegular) {
			skipped = append(skipped, Skipped{name, errNotRegular.Error() + "：略過 / skipped"})
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		b, at, err := parse(name, src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		bad := false
		fail := func(line int, format string, args ...any) {
			errs = append(errs, &Error{File: name, Line: line, Msg: fmt.Sprintf(format, args...)})
			bad = true
		}
		if id, ok := builtinID[b.ID]; ok {
			fail(at.id, "id %q 是內建板子的 id：本店板子要用自己的 id / board id %q is a built-in board's id", id, id)
		}
		if id, ok := builtinName[b.Name]; ok {
			fail(at.name, "name %q 是內建板子 %s 的名字：本店板子要用自己的名字 / board name %q is the built-in board %s's name", b.Name, id, b.Name, id)
		}
		if other, dup := ids[b.ID]; dup {
			fail(at.id, "id %q 與 %s 重複 / board id %q is also the id of %s", b.ID, other, b.ID, other)
		}
		if other, dup := names[b.Name]; dup {
			fail(at.name, "name %q 與 %s 重複 / board name %q is also the name of %s", b.Name, other, b.Name, other)
		}
		if bad {
			continue
		}
		ids[b.ID] = fmt.Sprintf("%s:%d", name, at.id)
		names[b.Name] = fmt.Sprintf("%s:%d", name, at.name)
		files = append(files, boardFile{name, src})
		good = append(good, b)
	}
	sort.Slice(good, func(i, j int) bool { return good[i].ID < good[j].ID })
	return files, good, skipped, errs
}

// Get returns the board with this id or name: a built-in one, else a
// venue one; a fresh copy on every call. An unknown board gives an error
// wrapping ErrUnknownBoard.
func (c *Catalog) Get(idOrName string) (*engine.Board, error) {
	if c == nil {
		return Get(idOrName)
	}
	b, err := Get(idOrName)
	if err == nil || !errors.Is(err, ErrUnknownBoard) {
		return b, err
	}
	q := strings.TrimSpace(idOrName)
	venue, verr := c.Venue()
	if verr != nil {
		return nil, verr
	}
	for _, x := range venue {
		if x.ID == q || x.Name == q {
			return x, nil
		}
	}
	if len(venue) > 0 {
		ids := make([]string, len(venue))
		for i, x := range venue {
			ids[i] = x.ID
		}
		return nil, fmt.Errorf("%w; venue boards (%s): %s", err, c.Dir, strings.Join(ids, ", "))
	}
	return nil, err
}

// Venue returns the venue's boards, sorted by id, fresh copies.
func (c *Catalog) Venue() ([]*engine.Board, error) {
	if c == nil {
		return nil, nil
	}
	var out []*engine.Board
	for _, f := range c.venue {
		b, err := Parse(f.name, f.src)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// All returns the built-in boards (sorted by id) and then the venue's.
func (c *Catalog) All() ([]*engine.Board, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	venue, err := c.Venue()
	if err != nil {
		return nil, err
	}
	return append(all, venue...), nil
}

// IsVenue reports whether id is one of the venue's boards.
func (c *Catalog) IsVenue(id string) bool { return c != nil && c.ids[id] }
