package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: the file gets the data and the mode, an existing file is
// replaced, a failed write leaves the old file and no temporary file.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	if err := Write(p, []byte("one"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "two" || fi.Mode().Perm() != 0o600 {
		t.Errorf("%q %v", b, fi.Mode())
	}
	if err := Write(filepath.Join(dir, "missing", "b"), []byte("x"), 0o600); err == nil {
		t.Error("a write into a missing folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want the one file", len(entries))
	}
}
