package journal

import (
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"wolftable/boards"
	"wolftable/engine"
)

// Summary is what Verify found.
type Summary struct {
	Path      string
	Header    Header
	Records   int // the header included
	Inputs    int
	Refused   int // inputs the engine refused (journaled refusals, and a last one)
	Started   bool
	Closed    bool   // the journal has its end record
	EndResult string // the end record's result
	Head      [32]byte
	TornTail  bool
	TornBytes int64
	// Replayed: every input replayed as it was played; Over and Winner are
	// the replayed game's.
	Replayed bool
	Over     bool
	Winner   string
}

// Verify reads a journal, checks its hash chain and replays it through the
// engine with the embedded boards. The error is the first problem (the
// Summary holds what was found before it); a torn tail is not an error.
func Verify(path string) (Summary, error) { return verify(path, embedded) }

func verify(path string, get BoardSource) (Summary, error) {
	s := Summary{Path: path}
	j, err := Read(path)
	if err != nil {
		return s, err
	}
	s.Header, s.Records, s.Head = j.Header, len(j.Records)+1, j.Head()
	s.TornTail, s.TornBytes = j.TornTail, j.TornBytes
	for _, r := range j.Records {
		switch r.Kind {
		case KindStart:
			s.Started = true
		case KindInput:
			s.Inputs++
		case KindEnd:
			s.Closed, s.EndResult = true, r.Result
		}
	}
	g, events, err := Replay(j, get)
	if err != nil {
		return s, err
	}
	for _, e := range events {
		if e.Refused != nil {
			s.Refused++
		}
	}
	s.Replayed = true
	over, w := g.Over()
	s.Over, s.Winner = over, string(w)
	return s, nil
}

// Write prints the summary as `wolftable record verify` does.
func (s *Summary) Write(w io.Writer) {
	h := &s.Header
	fmt.Fprintf(w, "file     %s\n", s.Path)
	fmt.Fprintf(w, "game     %s  board %s  seed %d  seats %d  software %s  format %d\n", h.GameID, h.Board, h.Seed, h.Seats, h.Software, h.Format)
	fmt.Fprintf(w, "created  %s\n", h.Start.Format("2006-01-02 15:04:05 -07:00"))
	fmt.Fprintf(w, "records  %d (header, %d inputs, %d refused", s.Records, s.Inputs, s.Refused)
	if s.Started {
		fmt.Fprint(w, ", start")
	}
	if s.Closed {
		fmt.Fprint(w, ", end")
	}
	fmt.Fprintln(w, ")")
	fmt.Fprintf(w, "chain    OK (head %s)\n", hex.EncodeToString(s.Head[:]))
	if s.TornTail {
		fmt.Fprintf(w, "torn     the last record was cut short (power cut during its write): %d bytes dropped; the game resumes at record %d\n", s.TornBytes, s.Records-1)
	} else {
		fmt.Fprintln(w, "torn     no")
	}
	if !s.Replayed {
		return
	}
	fmt.Fprintln(w, "replay   OK: the engine does what it did when the game was played")
	switch {
	case s.Over:
		fmt.Fprintf(w, "result   %s\n", s.Winner)
	case s.Started:
		fmt.Fprintln(w, "result   none yet (the game is not over)")
	default:
		fmt.Fprintln(w, "result   none (the game never started)")
	}
	if !s.Closed {
		fmt.Fprintln(w, "closed   no (no end record: the game can be resumed)")
	} else if s.EndResult != "" {
		fmt.Fprintf(w, "closed   yes (%s)\n", s.EndResult)
	} else {
		fmt.Fprintln(w, "closed   yes")
	}
}

// WriteRecords lists every record, one a line: index, byte offset, wall
// time, source, kind and content, and the first bytes of its chain hash.
func WriteRecords(w io.Writer, j *Journal) {
	h := &j.Header
	fmt.Fprintf(w, "%5d %8d  %s  header   %s board=%s seed=%d deal=%s\n", 0, len(Magic),
		h.Start.Format("15:04:05.000"), hex.EncodeToString(j.HeaderHash[:6]), h.Board, h.Seed, dealText(h.Deal))
	for _, r := range j.Records {
		var what string
		switch r.Kind {
		case KindInput:
			what = DescribeInput(r.Input)
		case KindRefused:
			what = fmt.Sprintf("code %d: %s", r.Code, r.Reason)
		case KindEnd:
			what = r.Result
		}
		fmt.Fprintf(w, "%5d %8d  %s  %-8s %s %-24s %s\n", r.Index, r.Offset, r.Wall.Format("15:04:05.000"),
			r.Kind, hex.EncodeToString(r.Hash[:6]), r.Source, what)
	}
}

func dealText(deal []engine.Role) string {
	parts := make([]string, len(deal))
	for i, r := range deal {
		parts[i] = fmt.Sprintf("%d:%s", i+1, r)
	}
	return strings.Join(parts, ",")
}

const commandUsage = `usage:
  wolftable record verify FILE [--records] [--boards DIR]
      check the hash chain and replay the game; exit 0 when it verifies
      (a torn last record is reported, not an error), 1 when it does not
  wolftable record show FILE [--format text|md|json] [--boards DIR]
      the game record (復盤): setup, every night's actions, every vote
      with its 票型, sheriff, deaths, exiles, penalties, result, durations
  --boards DIR   look boards up in DIR (*.board) before the embedded ones
`

// Command runs `wolftable record …`: args are what follows "record" (a
// leading "record" is skipped too). It returns the exit status: 0 done,
// 1 the journal does not verify or replay, 2 bad usage.
func Command(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "record" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, commandUsage)
		return 2
	}
	sub := args[0]
	if sub == "help" || sub == "-h" || sub == "--help" {
		fmt.Fprint(stdout, commandUsage)
		return 0
	}
	if sub != "verify" && sub != "show" {
		fmt.Fprintf(stderr, "record: unknown command %q\n%s", sub, commandUsage)
		return 2
	}
	var file, format, boardDir string
	records := false
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		value := func(name string) (string, bool) {
			if v, ok := strings.CutPrefix(a, name+"="); ok {
				return v, true
			}
			if a == name && i+1 < len(rest) {
				i++
				return rest[i], true
			}
			return "", false
		}
		if v, ok := value("--format"); ok && sub == "show" {
			format = v
			continue
		}
		if v, ok := value("--boards"); ok {
			boardDir = v
			continue
		}
		switch {
		case a == "--records" && sub == "verify":
			records = true
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "record %s: unknown or incomplete flag %s\n%s", sub, a, commandUsage)
			return 2
		case file == "":
			file = a
		default:
			fmt.Fprintf(stderr, "record %s: one file at a time\n", sub)
			return 2
		}
	}
	if file == "" {
		fmt.Fprintf(stderr, "record %s: no FILE\n%s", sub, commandUsage)
		return 2
	}
	switch format {
	case "", "text", "md", "json":
	default:
		fmt.Fprintf(stderr, "record show: unknown format %q (want text, md or json)\n", format)
		return 2
	}
	get := BoardSource(embedded)
	if boardDir != "" {
		venue, err := boards.LoadDir(boardDir)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		get = func(id string) (*engine.Board, error) {
			for _, b := range venue {
				if b.ID == id {
					c := *b
					return &c, nil
				}
			}
			return boards.Get(id)
		}
	}
	if sub == "verify" {
		s, err := verify(file, get)
		if err != nil {
			if s.Records > 0 {
				s.Write(stdout)
			}
			fmt.Fprintf(stdout, "FAILED   %v\n", err)
			fmt.Fprintln(stderr, err)
			return 1
		}
		s.Write(stdout)
		if records {
			j, err := Read(file)
			if err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
			fmt.Fprintln(stdout)
			WriteRecords(stdout, j)
		}
		return 0
	}
	j, err := Read(file)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := show(stdout, j, get, format); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if j.TornTail {
		fmt.Fprintf(stderr, "record show: %s: the last record was torn (%d bytes dropped)\n", file, j.TornBytes)
	}
	return 0
}
