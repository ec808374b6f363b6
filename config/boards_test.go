package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBoardsDir: game.boards_dir adds the venue's boards; a configured
// folder that is missing or holds a bad board is refused at its key with
// the file and line; the missing default folder is no error; a venue board
// whose seat count is not the table's is refused.
func TestBoardsDir(t *testing.T) {
	venue, err := filepath.Abs("../boards/testdata/venue")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse([]byte("[table]\nseats = 9\n[game]\nboard = \"九人預女獵\"\nboards_dir = \"" + venue + "\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Board()
	if err != nil || b.ID != "house-seats-9" || b.Players != 9 {
		t.Fatalf("venue board: %v %v", b, err)
	}
	cat, _ := c.Boards()
	if !cat.IsVenue("house-seats-9") || cat.IsVenue("seer-witch-hunter-idiot") {
		t.Error("IsVenue")
	}
	// seats differ from the venue board's
	_, err = Parse([]byte("[table]\nseats = 11\n[game]\nboard = \"house-seats-9\"\nboards_dir = \"" + venue + "\"\n"))
	if err == nil || !strings.Contains(err.Error(), "table.seats") || !strings.Contains(err.Error(), "兩者要相同") {
		t.Errorf("seats: %v", err)
	}
	// a configured folder that does not exist
	missing := filepath.Join(t.TempDir(), "nope")
	_, err = Parse([]byte("[game]\nboards_dir = \"" + missing + "\"\n"))
	if err == nil || !strings.Contains(err.Error(), "game.boards_dir") || !strings.Contains(err.Error(), ":2:") || !strings.Contains(err.Error(), "不存在") {
		t.Errorf("missing folder: %v", err)
	}
	// a bad board in it: its file and line
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.board"), []byte("id x\nname 壞\nplayers 40\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Parse([]byte("[game]\nboards_dir = \"" + dir + "\"\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.board:3") {
		t.Errorf("bad board: %v", err)
	}
	// the default folder may be missing (it is on the build machine)
	if _, err := os.Stat(Default().Game.BoardsDir); err != nil {
		if _, err := Parse(nil); err != nil {
			t.Errorf("defaults: %v", err)
		}
	}
}
