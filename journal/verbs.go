package journal

import (
	"errors"
	"fmt"
	"io"
	"os"

	"wolftable/boards"
)

// The verbs of `wolftable record …`: cmd/wolftable parses the command line
// and calls one of these. Each writes what the technician reads to stdout
// (its errors to stderr) and returns the exit status: 0 done, 1 the
// journal does not verify, replay or prove its result (or the key cannot
// be made or read), 2 bad usage (a missing folder, an unknown format, a
// boards folder that cannot be read).

// VerifyOptions are `record verify`'s flags.
type VerifyOptions struct {
	// PublicKey is the key the organiser registered for the table (the
	// key itself or its file); "" is the table's own, beside DefaultKeyPath.
	PublicKey string
	// Unfinished accepts a journal without an end record (a game in
	// progress); Unsigned an end record without a signature (format 1).
	Unfinished, Unsigned bool
	// Records lists the journal's records after the summary.
	Records bool
	// Boards is a venue's boards folder beside the embedded ones ("" the
	// default venue folder when it exists).
	Boards string
}

// ShowOptions are `record show`'s flags.
type ShowOptions struct {
	Format string // "", "text", "md" or "json"
	Boards string // as VerifyOptions.Boards
}

// openBoards is the built-in boards and the venue's: dir (which must
// exist), or the default venue folder when it exists (the table's own
// lookup).
func openBoards(dir string, stderr io.Writer) (BoardSource, bool) {
	required := dir != ""
	if !required {
		dir = boards.DefaultDir
	}
	cat, err := boards.Open(dir, required)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, false
	}
	return BoardSource(cat.Get), true
}

// VerifyFile runs `record verify FILE`: file is a path, or a journal's
// file name alone (found in DefaultDir and its archive).
func VerifyFile(file string, o VerifyOptions, stdout, stderr io.Writer) int {
	file = locateFile(file)
	get, ok := openBoards(o.Boards, stderr)
	if !ok {
		return 2
	}
	p := Policy{Unfinished: o.Unfinished, Unsigned: o.Unsigned}
	if o.PublicKey != "" {
		pub, err := ReadPublicKey(o.PublicKey)
		if err != nil {
			fmt.Fprintln(stderr, "record verify: --pubkey:", err)
			return 2
		}
		p.PublicKey, p.KeySource = pub, "--pubkey"
	} else {
		p.KeySource = PublicKeyPath(DefaultKeyPath)
		if pub, err := ReadPublicKey(p.KeySource); err == nil {
			p.PublicKey = pub
		} else {
			p.KeySource = err.Error() // "公鑰 PATH：檔案不存在"
		}
	}
	s, err := verify(file, get)
	if err == nil {
		err = s.Check(p)
	}
	if s.Records > 0 {
		s.Write(stdout)
	}
	if err != nil {
		fmt.Fprintf(stdout, "驗證失敗 %s\n", Explain(err))
		fmt.Fprintf(stderr, "record verify: %s: 驗證失敗：%s\n", file, Explain(err))
		var pe *PolicyError
		if !errors.As(err, &pe) {
			fmt.Fprintln(stderr, err) // the technical detail
		}
		return 1
	}
	switch {
	case s.Signed:
		fmt.Fprintf(stdout, "驗證通過 雜湊鏈完整、重播一致，結束紀錄由本桌金鑰 %s 簽署%s\n", KeyFingerprint(s.SignedBy), paren(p.KeySource))
	case s.Closed:
		fmt.Fprintln(stdout, "驗證通過（--unsigned）雜湊鏈完整、重播一致，但結束紀錄沒有簽章：不能證明結果是本桌寫的")
	default:
		fmt.Fprintln(stdout, "驗證通過（--unfinished）雜湊鏈完整、重播一致，但沒有結束紀錄：對局未結束，不證明任何結果")
	}
	if o.Records {
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

// ShowFile runs `record show FILE`: the game record (復盤), file as for
// VerifyFile.
func ShowFile(file string, o ShowOptions, stdout, stderr io.Writer) int {
	file = locateFile(file)
	switch o.Format {
	case "", "text", "md", "json":
	default:
		fmt.Fprintf(stderr, "record show: unknown format %q (want text, md or json)\n", o.Format)
		return 2
	}
	get, ok := openBoards(o.Boards, stderr)
	if !ok {
		return 2
	}
	j, err := Read(file)
	if err != nil {
		fmt.Fprintf(stderr, "record show: %s: %s\n%v\n", file, Explain(err), err)
		return 1
	}
	if err := show(stdout, j, get, o.Format); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if j.TornTail {
		fmt.Fprintf(stderr, "record show: %s: the last record was torn (%d bytes dropped)\n", file, j.TornBytes)
	}
	return 0
}

// Keygen runs `record keygen`: it makes the table's signing key at
// keyPath ("" DefaultKeyPath) and never overwrites one.
func Keygen(keyPath string, stdout, stderr io.Writer) int {
	return keyCommand("keygen", orDefaultKey(keyPath), stdout, stderr)
}

// PrintPublicKey runs `record pubkey`: the public key of the table's key
// at keyPath ("" DefaultKeyPath), for the organiser to register.
func PrintPublicKey(keyPath string, stdout, stderr io.Writer) int {
	return keyCommand("pubkey", orDefaultKey(keyPath), stdout, stderr)
}

func orDefaultKey(keyPath string) string {
	if keyPath == "" {
		return DefaultKeyPath
	}
	return keyPath
}

// ListFolder runs `record list`: the games of dir ("" DefaultDir), newest
// first, page page of per.
func ListFolder(dir string, page, per int, stdout, stderr io.Writer) int {
	dir, ok := folder("list", dir, stderr)
	if !ok {
		return 2
	}
	return listCommand(dir, page, per, stdout, stderr)
}

// ArchiveFolder runs `record archive`: every finished journal at the top
// of dir ("" DefaultDir) moves into dir/archive/.
func ArchiveFolder(dir string, stdout, stderr io.Writer) int {
	dir, ok := folder("archive", dir, stderr)
	if !ok {
		return 2
	}
	return archiveCommand(dir, stdout, stderr)
}

// folder is dir, or DefaultDir, when it is a folder.
func folder(sub, dir string, stderr io.Writer) (string, bool) {
	if dir == "" {
		dir = DefaultDir
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "record %s: 找不到日誌資料夾 %s（請給資料夾路徑，例如 record %s %s）\n", sub, dir, sub, DefaultDir)
		return "", false
	}
	return dir, true
}
