package boards

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWithDir(t *testing.T) {
	dir := t.TempDir()
	// a missing folder adds nothing
	get, err := WithDir(filepath.Join(dir, "none"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := get("seer-witch-hunter-idiot"); err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(mustEmbedded(t, "seer-witch-hunter-idiot")), "id       seer-witch-hunter-idiot", "id       house-swhi", 1)
	src = strings.Replace(src, "name     預女獵愚", "name     本店預女獵愚", 1)
	if err := os.WriteFile(filepath.Join(dir, "house.board"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	get, err = WithDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"house-swhi", "本店預女獵愚", "seer-witch-hunter-idiot"} {
		if _, err := get(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	if _, err := get("nope"); !errors.Is(err, ErrUnknownBoard) {
		t.Errorf("unknown board: %v", err)
	}
	// a folder board may not reuse a built-in id
	if err := os.WriteFile(filepath.Join(dir, "dup.board"), mustEmbedded(t, "wolfking-guard"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WithDir(dir); err == nil || !strings.Contains(err.Error(), "reuses the built-in board wolfking-guard") {
		t.Errorf("duplicate id: %v", err)
	}
}

func mustEmbedded(t *testing.T, id string) []byte {
	t.Helper()
	b, err := embedded.ReadFile("data/" + id + ".board")
	if err != nil {
		t.Fatal(err)
	}
	return b
}
