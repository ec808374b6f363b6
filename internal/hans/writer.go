package hans

import (
	"io"
	"os"
	"unicode/utf8"
)

// Writer writes what it is given in Simplified to the writer under it. A
// character cut between two writes is held until the next; Flush writes
// what is held.
type Writer struct {
	w    io.Writer
	tail []byte
}

// NewWriter is w in the script: w itself for Traditional, a *Writer for
// Simplified.
func NewWriter(w io.Writer, sc Script) io.Writer {
	if sc != Simplified {
		return w
	}
	return &Writer{w: w}
}

// Write converts p (and what an earlier write held) up to its last whole
// character.
func (w *Writer) Write(p []byte) (int, error) {
	data := p
	if len(w.tail) > 0 {
		data = append(w.tail, p...)
		w.tail = nil
	}
	k := cut(data)
	if k < len(data) {
		w.tail = append([]byte(nil), data[k:]...)
	}
	if k == 0 {
		return len(p), nil
	}
	if _, err := io.WriteString(w.w, String(string(data[:k]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held (an unfinished character, as it is).
func (w *Writer) Flush() error {
	if len(w.tail) == 0 {
		return nil
	}
	t := w.tail
	w.tail = nil
	_, err := w.w.Write(t)
	return err
}

// cut is the length of data without an unfinished character at its end.
func cut(data []byte) int {
	for back := 1; back <= utf8.UTFMax && back <= len(data); back++ {
		i := len(data) - back
		if utf8.RuneStart(data[i]) {
			if utf8.FullRune(data[i:]) {
				return len(data)
			}
			return i
		}
	}
	return len(data)
}

// Unwrap is the writer under w.
func (w *Writer) Unwrap() io.Writer { return w.w }

// File is the file under w (w itself, or under a *Writer), for a command
// that asks whether its output is a terminal.
func File(w io.Writer) (*os.File, bool) {
	if hw, ok := w.(*Writer); ok {
		w = hw.w
	}
	f, ok := w.(*os.File)
	return f, ok
}
