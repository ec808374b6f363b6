package boards

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"wolftable/engine"
)

// The seed-000 boards (rules.md part C), one file per board, named ID.board.
//
//go:embed data/*.board
var embedded embed.FS

// maxFileSize bounds a board file read from a folder; a board is a few
// hundred bytes.
const maxFileSize = 1 << 20

// ErrUnknownBoard is wrapped by Get's error for a board it does not know.
var ErrUnknownBoard = errors.New("boards: unknown board")

// All returns every embedded board, sorted by id. Each call parses the
// embedded files afresh: callers own the boards they get.
func All() ([]*engine.Board, error) {
	entries, err := fs.ReadDir(embedded, "data")
	if err != nil {
		return nil, fmt.Errorf("boards: %w", err)
	}
	var files []boardFile
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".board") {
			continue
		}
		name := path.Join("data", e.Name())
		src, err := embedded.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("boards: %w", err)
		}
		files = append(files, boardFile{name, src})
	}
	boards, errs := loadFiles(files)
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return boards, nil
}

// Get returns the embedded board with this id or Chinese name, a fresh copy
// on every call. An unknown board gives an error wrapping ErrUnknownBoard
// that lists the known ids.
func Get(idOrName string) (*engine.Board, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	q := strings.TrimSpace(idOrName)
	for _, b := range all {
		if b.ID == q {
			return b, nil
		}
	}
	for _, b := range all {
		if b.Name == q {
			return b, nil
		}
	}
	ids := make([]string, len(all))
	for i, b := range all {
		ids[i] = b.ID
	}
	return nil, fmt.Errorf("%w %q; known boards: %s", ErrUnknownBoard, idOrName, strings.Join(ids, ", "))
}

// LoadDir reads the venue's extra boards: every *.board file directly in
// dir (not in sub-folders), validated as Parse does, sorted by id. Two files
// may not share an id or a name; whether a venue board may replace an
// embedded one of the same id is the caller's choice. Every bad file is
// reported: the error is the one *Error, or several joined (errors.As finds
// the first).
func LoadDir(dir string) ([]*engine.Board, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("boards: %w", err)
	}
	var files []boardFile
	var errs []error
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".board") {
			continue
		}
		name := filepath.Join(dir, e.Name())
		src, err := readFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files = append(files, boardFile{name, src})
	}
	boards, bad := loadFiles(files)
	if errs = append(errs, bad...); len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return boards, nil
}

// errNotRegular is a file named *.board that is not a regular file: a
// FIFO (reading it would wait for a writer forever), a device, a socket.
var errNotRegular = errors.New("不是一般檔案（FIFO、裝置或 socket）/ not a regular file")

// notRegularError is errNotRegular for one file.
type notRegularError struct{ file string }

func (e *notRegularError) Error() string {
	return (&Error{File: e.file, Msg: errNotRegular.Error()}).Error()
}

func (e *notRegularError) Unwrap() error { return errNotRegular }

// readFile reads a board file. It opens without blocking and refuses
// anything but a regular file (errNotRegular, in an *Error): a FIFO named
// *.board never hangs the table's start.
func readFile(name string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("boards: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, &notRegularError{file: name}
	}
	src, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("boards: %w", err)
	}
	if len(src) > maxFileSize {
		return nil, &Error{File: name, Msg: fmt.Sprintf("file larger than %d bytes", maxFileSize)}
	}
	return src, nil
}

type boardFile struct {
	name string
	src  []byte
}

// loadFiles parses a set of board files, checks that ids and names are
// unique among them and sorts the boards by id.
func loadFiles(files []boardFile) ([]*engine.Board, []error) {
	var out []*engine.Board
	var errs []error
	ids := map[string]string{}   // id -> file
	names := map[string]string{} // name -> file
	for _, f := range files {
		b, at, err := parse(f.name, f.src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if other, dup := ids[b.ID]; dup {
			errs = append(errs, &Error{File: f.name, Line: at.id, Msg: fmt.Sprintf("board id %q is also the id of %s", b.ID, other)})
			continue
		}
		if other, dup := names[b.Name]; dup {
			errs = append(errs, &Error{File: f.name, Line: at.name, Msg: fmt.Sprintf("board name %q is also the name of %s", b.Name, other)})
			continue
		}
		ids[b.ID], names[b.Name] = f.name, f.name
		out = append(out, b)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func joinErrors(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// WithDir returns a board lookup that knows the embedded boards and the
// boards of dir (LoadDir): a venue's own boards, or a scenario suite's test
// boards. A board of dir may not reuse an embedded board's id or name. A
// dir that does not exist adds nothing. Each call of the lookup returns a
// fresh copy.
func WithDir(dir string) (func(string) (*engine.Board, error), error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return Get, nil
	}
	extra, err := LoadDir(dir)
	if err != nil {
		return nil, err
	}
	all, err := All()
	if err != nil {
		return nil, err
	}
	for _, x := range extra {
		for _, b := range all {
			if x.ID == b.ID || x.Name == b.Name {
				return nil, &Error{File: x.Source, Msg: fmt.Sprintf("board %s (%s) reuses the built-in board %s (%s): give it its own id and name", x.ID, x.Name, b.ID, b.Name)}
			}
		}
	}
	return func(idOrName string) (*engine.Board, error) {
		b, err := Get(idOrName)
		if err == nil || !errors.Is(err, ErrUnknownBoard) {
			return b, err
		}
		q := strings.TrimSpace(idOrName)
		for _, x := range extra {
			if x.ID == q || x.Name == q {
				c := *x
				c.Roles = append([]engine.Role(nil), x.Roles...)
				c.Nights = append([]engine.NightPlan(nil), x.Nights...)
				return &c, nil
			}
		}
		return nil, err
	}, nil
}
