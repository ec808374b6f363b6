package desk_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"wolftable/desk"
	"wolftable/desk/desktest"
)

// excel is a registry as Excel's 「CSV UTF-8」 saves it: the BOM, CRLF,
// a header row, a quoted name with a comma, an empty club.
const excel = "\ufeff編號,名字,俱樂部,暱稱\r\n" +
	"P001,王小明,台北狼人殺社,小明\r\n" +
	"P002,\"陳,大文\",,\r\n" +
	"P003,林美玲,高雄桌遊,\r\n" +
	"\r\n" +
	"P004,張志豪\r\n"

// TestPlayersCSVFromExcel (issue 29 item 1): Excel's file (BOM, CRLF)
// loads every player, with the BOM not in the first id and no \r in the
// last field.
func TestPlayersCSVFromExcel(t *testing.T) {
	got, bad := desk.ParsePlayersCSV([]byte(excel))
	if len(bad) > 0 {
		t.Fatalf("bad lines in a good file: %v", bad)
	}
	want := []desk.Player{{"P001", "王小明", "台北狼人殺社", "小明"}, {"P002", "陳,大文", "", ""}, {"P003", "林美玲", "高雄桌遊", ""}, {"P004", "張志豪", "", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("players:\n%+v\nwant\n%+v", got, want)
	}
}

// TestPlayersCSVBadLines: every bad line is reported with its number
// (counted as Excel shows them, blank lines too), and none is dropped in
// silence: the good lines and the bad ones are every line of players.
func TestPlayersCSVBadLines(t *testing.T) {
	file := strings.Join([]string{
		"\ufeffP001,王小明,台北,", // 1 good
		"P002",               // 2 one field
		"P003,,俱樂部",          // 3 no name
		"P 4,李四",             // 4 a bad id
		"P001,王小明二",          // 5 the id again
		"",                   // 6 blank
		"P005,\"林\"美玲,,",     // 7 a quote in the middle
		"P006,\xff\xfe,,",    // 8 not UTF-8
		"P007,a,b,c,d",       // 9 five fields
		"P008,趙六,," + "\r",   // 10 good
		"P009,\"未結束的引號,,",    // 11 an open quote
	}, "\r\n")
	got, bad := desk.ParsePlayersCSV([]byte(file))
	var lines []int
	for _, e := range bad {
		lines = append(lines, e.Line)
		if e.Reason == "" {
			t.Errorf("line %d: no reason", e.Line)
		}
	}
	if want := []int{2, 3, 4, 5, 7, 8, 9, 11}; !reflect.DeepEqual(lines, want) {
		t.Errorf("bad lines %v, want %v (%v)", lines, want, bad)
	}
	if len(got) != 2 || got[0].ID != "P001" || got[1].ID != "P008" {
		t.Errorf("good players %+v, want P001 and P008", got)
	}
	if msg := bad.Error(); !strings.Contains(msg, "第 5 行") || !strings.Contains(msg, "第 1 行已經出現過") {
		t.Errorf("the message does not name the lines: %s", msg)
	}
}

// TestImportPlayersAllOrNothing: a file with a bad line imports nobody
// and leaves the registry as it was; the fixed file imports; a second
// import updates by id and removes nobody.
func TestImportPlayersAllOrNothing(t *testing.T) {
	data := t.TempDir()
	if _, _, err := desk.ImportPlayers(data, []byte(excel)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(data, desk.PlayersFile))
	_, _, err := desk.ImportPlayers(data, []byte("P001,王大明,,\nP010\nP011,新人,,\n"))
	if le, ok := err.(desk.LineErrors); !ok || len(le) != 1 || le[0].Line != 2 {
		t.Fatalf("a file with line 2 bad: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(data, desk.PlayersFile)); string(after) != string(before) {
		t.Fatalf("a refused import changed the registry:\n%s", after)
	}
	added, updated, err := desk.ImportPlayers(data, []byte("P001,王大明,,\nP011,新人,,\n"))
	if err != nil || added != 1 || updated != 1 {
		t.Fatalf("import: +%d ~%d %v, want +1 ~1", added, updated, err)
	}
	list, _ := desk.ReadPlayers(data)
	if len(list) != 5 || list[0].Name != "王大明" || list[4].ID != "P011" {
		t.Fatalf("registry: %+v", list)
	}
}

// TestStandingsByName (issue 29 item 1): players.csv names who sat where
// by player id; the games and the standings give the registry's name
// (and id); a name changed in the registry while the store is open is
// the name shown at once; a seat players.csv does not name stays
// table/seat, and an older file's name is shown as written.
func TestStandingsByName(t *testing.T) {
	data := registered(t)
	if _, _, err := desk.ImportPlayers(data, []byte(excel)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "players.csv"), []byte("\ufeff桌名,座位,選手編號\r\nT1,1,P001\r\nT1,2,P002\r\nT1,3,老王\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := desk.OpenStore(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := desktest.Play(t, t.TempDir(), "seer-witch-hunter-idiot", 5, key(1), 0)
	b, _ := os.ReadFile(path)
	if _, err := s.Ingest(desk.Subject("T1", desk.KindRecord), "", filepath.Base(path), b); err != nil {
		t.Fatal(err)
	}
	seats := s.Games()[0].Seats
	if seats[0].Player != "王小明" || seats[0].PlayerID != "P001" || seats[1].Player != "陳,大文" || seats[2].Player != "老王" || seats[3].Player != "T1/4" {
		t.Fatalf("seats: %+v", seats[:4])
	}
	pack, _ := desk.LoadPack("default")
	names := map[string]string{}
	for _, r := range desk.Standings(pack, s.Games()) {
		names[r.Player] = r.PlayerID
	}
	if id, ok := names["王小明"]; !ok || id != "P001" {
		t.Fatalf("standings: %v", names)
	}
	time.Sleep(10 * time.Millisecond) // a new modification time
	if err := desk.PutPlayer(data, desk.Player{ID: "P001", Name: "王曉明"}); err != nil {
		t.Fatal(err)
	}
	if n := s.Games()[0].Seats[0].Player; n != "王曉明" {
		t.Fatalf("after the registry's change: %q", n)
	}
	re, err := s.Recompute()
	if err != nil || re[0].Seats[0].Player != "王曉明" {
		t.Fatalf("recompute: %v %+v", err, re)
	}
}

// TestSeatMapBadLine: a bad players.csv line stops the desk's start with
// the file and the line's number (the players would be miscounted).
func TestSeatMapBadLine(t *testing.T) {
	data := registered(t)
	os.WriteFile(filepath.Join(data, "players.csv"), []byte("T1,1,P001\r\nT1,x,P002\r\nT1,1,P003\r\n"), 0o644)
	_, err := desk.OpenStore(data, nil)
	if err == nil || !strings.Contains(err.Error(), "第 2 行") || !strings.Contains(err.Error(), "第 3 行") {
		t.Fatalf("OpenStore: %v", err)
	}
}

// FuzzPlayersCSV: whatever bytes a registry file holds, the parser never
// panics, every player it gives passes Check, no id twice, and no line is
// lost: each countable line (not blank, not a comment, not the header) is
// a player or a bad line, reported once, with its number. The seed corpus
// is testdata/fuzz/FuzzPlayersCSV.
func FuzzPlayersCSV(f *testing.F) {
	f.Add([]byte(excel))
	f.Add([]byte("P1,a\nP1,b\n\"x\ny\",z\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		players, bad := desk.ParsePlayersCSV(b)
		ids := map[string]bool{}
		for _, p := range players {
			if err := p.Check(); err != nil {
				t.Fatalf("accepted %+v: %v", p, err)
			}
			if ids[p.ID] {
				t.Fatalf("id %s twice", p.ID)
			}
			ids[p.ID] = true
		}
		lines := strings.Split(strings.TrimPrefix(string(b), "\ufeff"), "\n")
		seen := map[int]bool{}
		for _, e := range bad {
			if e.Line < 1 || e.Line > len(lines) || seen[e.Line] || e.Reason == "" {
				t.Fatalf("bad line %+v of %d lines (%v)", e, len(lines), bad)
			}
			seen[e.Line] = true
		}
		countable := 0
		for _, l := range lines {
			if l = strings.TrimSpace(strings.TrimSuffix(l, "\r")); l != "" && !strings.HasPrefix(l, "#") {
				countable++
			}
		}
		// the header row is the one line neither a player nor a bad line
		if d := countable - len(players) - len(bad); d != 0 && d != 1 {
			t.Fatalf("%d countable lines, %d players, %d bad: lines lost", countable, len(players), len(bad))
		}
	})
}

// FuzzSeatMap: players.csv's parser never panics, and every line is a
// seat or a bad line.
func FuzzSeatMap(f *testing.F) {
	f.Add([]byte("\ufeff桌名,座位,選手編號\r\nT1,1,P001\r\nT1,2,P002\r\n"))
	f.Add([]byte("T1,1,P1\nT1,1,P2\nT2,0,P3\nT3,19,x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, bad := desk.ParseSeatMap(b)
		countable := 0
		for _, l := range strings.Split(strings.TrimPrefix(string(b), "\ufeff"), "\n") {
			if l = strings.TrimSpace(strings.TrimSuffix(l, "\r")); l != "" && !strings.HasPrefix(l, "#") {
				countable++
			}
		}
		if d := countable - len(m) - len(bad); d != 0 && d != 1 {
			t.Fatalf("%d lines, %d seats, %d bad", countable, len(m), len(bad))
		}
	})
}

// TestPutPlayerConcurrent: forty players added at once (two operators'
// pages) are all in the registry: no edit lost to another's write.
func TestPutPlayerConcurrent(t *testing.T) {
	data := t.TempDir()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := desk.PutPlayer(data, desk.Player{ID: fmt.Sprintf("P%02d", i), Name: fmt.Sprintf("選手%d", i)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if list, _ := desk.ReadPlayers(data); len(list) != 40 {
		t.Fatalf("%d players in the registry, want 40", len(list))
	}
}
