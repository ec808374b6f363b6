package boards

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDirBroken: a broken venue folder reports every bad file with its
// line, for eleven kinds of problem, and keeps the good board.
func TestCheckDirBroken(t *testing.T) {
	dir := filepath.Join("testdata", "venue-broken")
	good, errs := CheckDir(dir)
	if len(good) != 2 || good[0].ID != "house-dup" || good[1].ID != "house-ok" {
		t.Errorf("good boards: %v", good)
	}
	want := map[string]string{ // file:line -> problem
		"unknown-role.board:4": `unknown role "dragon"`,
		"wrong-count.board:4":  "roles",
		"builtin-id.board:2":   "內建板子的 id",
		"builtin-name.board:3": "內建板子 seer-witch-hunter-idiot 的名字",
		"bad-step.board:5":     "hurry",
		"bad-option.board:6":   "witch.self_save",
		"no-night.board:4":     "no place in seed 004's night order",
		"dup-b.board:1":        "與 " + filepath.Join(dir, "dup-a.board") + ":1 重複",
		"no-step.board:":       "witch",
		// rules-more.md I2: a 盜賊 board deals seats+2 cards, any other seats
		"thief-one-extra.board:6": "13 cards for 12 players: a board with 盜賊 (thief) deals two bottom cards, 14 cards",
		"bottom-no-thief.board:5": "12 cards for 10 players: only a board with 盜賊 (thief) has bottom cards",
	}
	got := map[string]bool{}
	for _, err := range errs {
		var be *Error
		if !errors.As(err, &be) {
			t.Errorf("not a *Error: %v", err)
			continue
		}
		key := fmt.Sprintf("%s:%d", filepath.Base(be.File), be.Line)
		found := false
		for k, msg := range want {
			if strings.HasPrefix(key, k) && strings.Contains(be.Error(), msg) {
				got[k], found = true, true
			}
		}
		if !found {
			t.Errorf("unexpected: %v", err)
		}
		if be.Line == 0 {
			t.Errorf("no line: %v", err)
		}
	}
	for k, msg := range want {
		if !got[k] {
			t.Errorf("%s (%s) not reported; got %v", k, msg, errs)
		}
	}
	if _, err := Open(dir, true); err == nil || !strings.Contains(err.Error(), "unknown-role.board:4") {
		t.Errorf("Open: %v", err)
	}
}

// TestCatalog: the venue boards join the built-in ones, marked, found by
// id and name, fresh on every call; a missing default folder adds nothing,
// a missing required one is an error.
func TestCatalog(t *testing.T) {
	c, err := Open(filepath.Join("testdata", "venue"), true)
	if err != nil {
		t.Fatal(err)
	}
	all, err := c.All()
	if err != nil {
		t.Fatal(err)
	}
	builtin, _ := All()
	if len(all) != len(builtin)+3 {
		t.Fatalf("%d boards, want %d built-in + 3", len(all), len(builtin))
	}
	for _, n := range []int{7, 9, 11} {
		id := fmt.Sprintf("house-seats-%d", n)
		b, err := c.Get(id)
		if err != nil || b.Players != n || !c.IsVenue(id) {
			t.Errorf("%s: %v %v", id, b, err)
			continue
		}
		b.Roles[0] = "villager"
		again, _ := c.Get(b.Name)
		if again.Roles[0] != "werewolf" {
			t.Errorf("%s: not a fresh copy", id)
		}
	}
	if b, err := c.Get("預女獵愚"); err != nil || c.IsVenue(b.ID) {
		t.Errorf("built-in: %v %v", b, err)
	}
	if _, err := c.Get("nope"); !errors.Is(err, ErrUnknownBoard) || !strings.Contains(err.Error(), "house-seats-7") {
		t.Errorf("unknown: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "none")
	if c, err := Open(missing, false); err != nil || c.IsVenue("house-seats-7") {
		t.Errorf("missing default: %v", err)
	}
	if _, err := Open(missing, true); err == nil || !strings.Contains(err.Error(), "不存在") {
		t.Errorf("missing configured: %v", err)
	}
	// a file that cannot be read
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub.board"), 0o755); err != nil {
		t.Fatal(err)
	}
	if c, err := Open(dir, true); err != nil || len(c.venue) != 0 {
		t.Errorf("a folder named .board is skipped: %v", err)
	}
}

// TestVenueDocExample: the complete example of docs/boards.md is a valid
// venue board.
func TestVenueDocExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/boards.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## 完整範例")
	if !ok {
		t.Fatal("docs/boards.md has no 完整範例 section")
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	src, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("no example block")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "example.board"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	good, errs := CheckDir(dir)
	if len(errs) > 0 || len(good) != 1 || good[0].Players != 9 {
		t.Fatalf("the documented example: %v %v", good, errs)
	}
}
