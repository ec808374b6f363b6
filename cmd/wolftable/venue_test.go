package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/console"
	"wolftable/engine"
)

const (
	venueDir  = "../../boards/testdata/venue"
	brokenDir = "../../boards/testdata/venue-broken"
)

// TestBoardsCheck: `boards check DIR` passes a good venue folder (exit 0)
// and names the file and line of every problem of a broken one (exit 1).
func TestBoardsCheck(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"boards", "check", venueDir}, &out, &errb); code != 0 {
		t.Fatalf("good folder: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "3 個板子全部可用") {
		t.Errorf("good folder:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"boards", "check", brokenDir}, &out, &errb); code != 1 {
		t.Fatalf("broken folder: exit %d", code)
	}
	for _, at := range []string{"unknown-role.board:4:", "wrong-count.board:4:", "builtin-id.board:2:", "builtin-name.board:3:",
		"bad-step.board:5:", "bad-option.board:6:", "no-night.board:4:", "dup-b.board:1:", "no-step.board:4:",
		"thief-one-extra.board:6:", "bottom-no-thief.board:5:"} {
		if !strings.Contains(errb.String(), at) {
			t.Errorf("broken folder: %s not reported in\n%s", at, errb.String())
		}
	}
	if !strings.Contains(out.String(), "11 個問題") {
		t.Errorf("broken folder summary:\n%s", out.String())
	}
	if code := run([]string{"boards", "check", filepath.Join(t.TempDir(), "none")}, &out, &errb); code != 1 {
		t.Errorf("missing folder: exit %d", code)
	}
}

// TestBoardsListVenue: `boards` lists the built-in boards and the venue's,
// marked 〔本店〕, from --dir or from the config's game.boards_dir; `show`
// finds a venue board.
func TestBoardsListVenue(t *testing.T) {
	abs, _ := filepath.Abs(venueDir)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[table]\nseats = 7\n[game]\nboard = \"house-seats-7\"\nboards_dir = \""+abs+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"boards", "--dir", venueDir}, {"boards", "--config", cfg}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		for _, l := range strings.Split(out.String(), "\n") {
			venue := strings.HasPrefix(l, "house-seats-")
			if venue != strings.HasSuffix(l, "〔本店〕") {
				t.Errorf("%v: marked wrong: %q", args, l)
			}
		}
		if !strings.Contains(out.String(), "house-seats-11") || !strings.Contains(out.String(), "seer-witch-hunter-idiot") {
			t.Errorf("%v:\n%s", args, out.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"boards", "show", "九人預女獵", "--dir", venueDir}, &out, &errb); code != 0 || !strings.Contains(out.String(), "（9 人）") || !strings.Contains(out.String(), "本店板子") {
		t.Errorf("show: %d %s %s", code, out.String(), errb.String())
	}
	// config check: a broken configured folder names the key and the files
	broken, _ := filepath.Abs(brokenDir)
	if err := os.WriteFile(cfg, []byte("[game]\nboards_dir = \""+broken+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"config", "check", "--config", cfg, "--no-paths"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "game.boards_dir") || !strings.Contains(errb.String(), "unknown-role.board:4") {
		t.Errorf("config check: %d %s", code, errb.String())
	}
}

// TestSimSeats: `sim --bots` plays venue boards of 7, 9 and 11 seats to a
// result, both sides winning over a few seeds.
func TestSimSeats(t *testing.T) {
	for _, id := range []string{"house-seats-7", "house-seats-9", "house-seats-11"} {
		wins := map[string]int{}
		for seed := 1; seed <= 16 && (wins["好人"] == 0 || wins["狼人"] == 0); seed++ {
			var out, errb bytes.Buffer
			code := run([]string{"sim", "--bots", "--no-tui", "--voice", "off", "--speed", "5000", "--boards-dir", venueDir, "--board", id, "--seed", fmt.Sprint(seed)}, &out, &errb)
			if code != 0 {
				t.Fatalf("%s seed %d: exit %d\n%s", id, seed, code, errb.String())
			}
			r := resultLine(out.Bytes())
			if r == "" {
				t.Fatalf("%s seed %d: no result line\n%s", id, seed, lastLines(out.String(), 10))
			}
			wins[r]++
		}
		if wins["好人"] == 0 || wins["狼人"] == 0 {
			t.Errorf("%s: 16 seeds did not reach both results: %v", id, wins)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"sim", "--bots", "--no-tui", "--boards-dir", filepath.Join(t.TempDir(), "none"), "--board", "house-seats-7"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "不存在") {
		t.Errorf("missing --boards-dir: %d %s", code, errb.String())
	}
}

// TestServeCrashResumeVenue9: `wolftable serve` on a 9-seat virtual table
// whose board is a venue board (game.boards_dir), killed and restarted
// (crashResume): the resumed journal finds the venue board through the
// same lookup, and the game is the uninterrupted one. (A 9-seat game is
// short: at a slower speed than the 12-seat test it outlives the kills.)
func TestServeCrashResumeVenue9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	venue, err := filepath.Abs(venueDir)
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBinary(t)
	crashResume(t, bin, []string{"serve", "--once", "--bots", "--mute", "--speed", "40", "--seed", "21", "--clock", "20:00"},
		func(dir string) []string {
			conf := filepath.Join(t.TempDir(), "config.toml")
			body := fmt.Sprintf("[table]\nmode = \"virtual\"\nseats = 9\n[game]\nboard = \"house-seats-9\"\nboards_dir = %q\n[journal]\ndir = %q\n[console]\nlisten = \"off\"\n", venue, dir)
			if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			return []string{"--config", conf}
		})
}

// TestRecordSevenSeats: the 復盤 of a game on a 7-seat venue board lists
// seven seats, and `record verify` proves it with the venue folder.
func TestRecordSevenSeats(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"sim", "--bots", "--no-tui", "--voice", "off", "--speed", "5000", "--seed", "4", "--boards-dir", venueDir,
		"--board", "house-seats-7", "--journal", dir}, &out, &errb); code != 0 {
		t.Fatalf("sim: exit %d\n%s", code, errb.String())
	}
	files := journalFiles(dir)
	if len(files) != 1 {
		t.Fatalf("journals: %v", files)
	}
	out.Reset()
	if code := run([]string{"record", "show", files[0], "--format", "md", "--boards", venueDir}, &out, &errb); code != 0 {
		t.Fatalf("record show: exit %d\n%s", code, errb.String())
	}
	md := out.String()
	if !strings.Contains(md, "七人預女獵（house-seats-7），7 人，桌 7 座") || !strings.Contains(md, "| 7號 |") || strings.Contains(md, "| 8號 |") {
		t.Errorf("the 復盤 of a 7-seat game:\n%s", md)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"record", "verify", files[0], "--pubkey", filepath.Join(filepath.Dir(dir), "table.pub"), "--boards", venueDir}, &out, &errb); code != 0 {
		t.Errorf("record verify: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// TestResumeOtherSeats: an unfinished game on a 7-seat venue board is
// resumed through the venue lookup on a 7-seat table, and refused, in
// words, on a table configured for 12 seats.
func TestResumeOtherSeats(t *testing.T) {
	cat, err := boards.Open(venueDir, true)
	if err != nil {
		t.Fatal(err)
	}
	b7, _ := cat.Get("house-seats-7")
	dir := t.TempDir()
	deal, bottom := engine.DealCards(b7, 3)
	tg, err := newOrResumed(dir, false, b7, 3, deal, bottom, 7, 1, io.Discard, cat.Get)
	if err != nil {
		t.Fatal(err)
	}
	tg.close()
	b12, _ := cat.Get("seer-witch-hunter-idiot")
	deal, bottom = engine.DealCards(b12, 4)
	if _, err := newOrResumed(dir, true, b12, 4, deal, bottom, 12, 1, io.Discard, cat.Get); err == nil || !strings.Contains(err.Error(), "是 7 人局，這張桌子設定為 12 個座位") {
		t.Errorf("a 7-seat game on a 12-seat table: %v", err)
	}
	g12, err := engine.New(engine.Config{Board: b12, Deal: deal, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gameFromConsole(t.TempDir(), console.NewGame{Spec: console.GameSpec{Board: b12, Deal: deal, Seed: 4}, Game: g12}, 7); err == nil || !strings.Contains(err.Error(), "這張桌子有 7 個座位") {
		t.Errorf("a console game of 12 on 7 seats: %v", err)
	}
	tg, err = newOrResumed(dir, true, b12, 4, deal, bottom, 7, 1, io.Discard, cat.Get)
	if err != nil || tg.board.ID != "house-seats-7" || tg.game.Players() != 7 {
		t.Fatalf("resume on 7 seats: %v", err)
	}
	tg.close()
}

// TestVenueRolesBoard is issue 15's acceptance for venue boards: a venue
// folder with a 10-seat board of 熊, 野孩子, 混血兒 and 隱狼 passes `boards
// check` (the board has no night line: the loader's default order) and
// plays to a result under the bots. A role missing from the engine or a
// default night order that breaks fails it: nothing here is skipped.
func TestVenueRolesBoard(t *testing.T) {
	const dir = "../../boards/testdata/venue-roles"
	for _, name := range []string{"熊", "野孩子", "混血兒", "隱狼"} {
		if _, ok := engine.LookupRole(name); !ok {
			t.Fatalf("the role %s is not in the engine's role table", name)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"boards", "check", dir}, &out, &errb); code != 0 {
		t.Fatalf("boards check %s (its board has no night line: the loader's default order): exit %d\n%s%s", dir, code, out.String(), errb.String())
	}
	results := map[string]int{}
	for seed := 1; seed <= 20; seed++ {
		out.Reset()
		errb.Reset()
		if code := run([]string{"sim", "--bots", "--no-tui", "--voice", "off", "--speed", "5000", "--boards-dir", dir,
			"--board", "house-ten-roles", "--seed", fmt.Sprint(seed)}, &out, &errb); code != 0 {
			t.Fatalf("seed %d: exit %d\n%s", seed, code, errb.String())
		}
		r := resultLine(out.Bytes())
		if r == "" {
			t.Fatalf("seed %d: no result\n%s", seed, lastLines(out.String(), 10))
		}
		results[r]++
	}
	t.Logf("20 games: %v", results)
}
