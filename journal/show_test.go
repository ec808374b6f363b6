package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"wolftable/boards"
	"wolftable/engine"
)

// TestReview: the review of a whole game holds every record entry of the
// replay, phases that tile the game's wall time, every seat's fate, and
// prints in the three formats.
func TestReview(t *testing.T) {
	for _, board := range boardIDs(t) {
		p := playJournal(t, t.TempDir(), board, 21, true)
		j, err := Read(p.path)
		if err != nil {
			t.Fatal(err)
		}
		rv, err := NewReview(j, boards.Get)
		if err != nil {
			t.Fatal(err)
		}
		_, events, _ := Replay(j, boards.Get)
		records, deaths := 0, 0
		for _, e := range events {
			if e.Effect.Kind == engine.EffRecord && e.Effect.Record.Type != engine.RecPhase {
				records++
				if e.Effect.Record.Type == engine.RecDeath {
					deaths++
				}
			}
		}
		entries, votes := 0, 0
		for i, ph := range rv.Phases {
			entries += len(ph.Entries)
			if i > 0 && !rv.Phases[i-1].End.Equal(ph.Start) {
				t.Fatalf("%s: phase %s ends at %v, %s starts at %v", board, rv.Phases[i-1].Phase, rv.Phases[i-1].End, ph.Phase, ph.Start)
			}
			if ph.Seconds < 0 || ph.End.Before(ph.Start) {
				t.Fatalf("%s: phase %s: %d s", board, ph.Phase, ph.Seconds)
			}
			for _, e := range ph.Entries {
				if e.Type == "vote" {
					votes++
					halves := 0
					for _, x := range e.Tally {
						halves += x.Halves
					}
					// the sheriff's ballot adds up to (sheriff.weight - 1) votes
					b, _ := boards.Get(board)
					extra := int(2*(b.Options.SheriffWeight-1) + 0.5)
					if counted := countedVotes(e); halves < 2*counted || halves > 2*counted+extra {
						t.Fatalf("%s: tally %d half-votes for %d counted ballots", board, halves, counted)
					}
				}
			}
		}
		if entries != records || rv.Result != p.winner || rv.Ended == nil || rv.Started == nil || rv.Seconds == nil || !rv.Closed {
			t.Fatalf("%s: %d entries of %d records, result %q (%q)", board, entries, records, rv.Result, p.winner)
		}
		if last := rv.Phases[len(rv.Phases)-1]; !last.End.Equal(*rv.Ended) || !rv.Phases[0].Start.Equal(*rv.Started) {
			t.Fatalf("%s: phases span %v..%v, the game %v..%v", board, rv.Phases[0].Start, last.End, rv.Started, rv.Ended)
		}
		out := 0
		for _, s := range rv.Deal {
			if s.Out {
				out++
			}
		}
		if out == 0 || deaths == 0 {
			t.Fatalf("%s: nobody out", board)
		}

		var text, md, js bytes.Buffer
		for f, w := range map[string]*bytes.Buffer{"text": &text, "md": &md, "json": &js} {
			if err := Show(w, j, f); err != nil {
				t.Fatal(err)
			}
		}
		for _, want := range []string{"復盤 " + rv.Game, "第1夜", "第1天", rv.BoardName, resultText(rv.Result), "座位", "票型"} {
			if !strings.Contains(text.String(), want) {
				t.Fatalf("%s: text has no %q:\n%s", board, want, text.String())
			}
		}
		if strings.Count(text.String(), "票型") != votes || strings.Count(md.String(), "票型") != votes {
			t.Fatalf("%s: %d votes, text shows %d", board, votes, strings.Count(text.String(), "票型"))
		}
		for _, want := range []string{"# 復盤", "## 座位", "| 座位 | 身份 |", "## 第1夜"} {
			if !strings.Contains(md.String(), want) {
				t.Fatalf("%s: markdown has no %q", board, want)
			}
		}
		var back Review
		if err := json.Unmarshal(js.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		if back.Game != rv.Game || back.Seed != rv.Seed || len(back.Phases) != len(rv.Phases) || back.Result != rv.Result || len(back.Deal) != len(rv.Deal) {
			t.Fatalf("%s: JSON review differs", board)
		}
	}
}

func countedVotes(e Entry) int {
	in := map[int]bool{}
	for _, x := range e.Tally {
		in[x.Seat] = true
	}
	n := 0
	for _, v := range e.Votes {
		if in[v.Target] {
			n++
		}
	}
	return n
}

// TestVoteText: the 票型 groups voters by the seat they voted for and
// shows the sheriff's 1.5 as half-votes.
func TestVoteText(t *testing.T) {
	e := Entry{Type: "vote", Kind: "exile", Day: 2, Sheriff: 5,
		Votes: []VoteEntry{{1, 3}, {2, 3}, {4, 0}, {5, 6}, {7, 6}, {8, 9}},
		Tally: []TallyEntry{{3, 4, 2}, {6, 5, 2.5}}}
	title, sub := voteText(e)
	if title != "放逐投票（第2天）票型 ｜ 計票：3號 2票，6號 2.5票" {
		t.Fatalf("title %q", title)
	}
	want := []string{"3號 ← 1、2　2票", "6號 ← 5(警)、7　2.5票", "棄票：4、8（投9號，不計）"}
	if strings.Join(sub, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(sub, "\n"), strings.Join(want, "\n"))
	}
	if duration(3723) != "1小時02分03秒" || duration(59) != "0分59秒" {
		t.Fatal(duration(3723), duration(59))
	}
}

// TestReviewUnfinished: a game cut off mid-way shows what was played so far.
func TestReviewUnfinished(t *testing.T) {
	p := playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 5, false)
	data := readFile(t, p.path)
	offs := frames(t, data)
	j := mustLoad(t, data[:offs[len(offs)/2]+7])
	rv, err := NewReview(j, boards.Get)
	if err != nil {
		t.Fatal(err)
	}
	if rv.Result != "" || rv.Ended != nil || rv.Closed || !rv.TornTail || len(rv.Phases) == 0 {
		t.Fatalf("unfinished review: %+v", rv)
	}
	if last := rv.Phases[len(rv.Phases)-1]; !last.End.Equal(j.Records[len(j.Records)-1].Wall) {
		t.Fatal("the last phase does not end at the last record")
	}
	var text bytes.Buffer
	if err := rv.Write(&text, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "尚無結果") || !strings.Contains(text.String(), "末筆寫入中斷") {
		t.Fatalf("text:\n%s", text.String())
	}
	if err := Show(&text, j, "pdf"); err == nil {
		t.Fatal("unknown format accepted")
	}
}

// TestUnfinished lists the journals to resume, newest first, and the
// damaged ones with their error.
func TestUnfinished(t *testing.T) {
	dir := t.TempDir()
	b, _ := boards.Get("seer-witch-hunter-idiot")
	mk := func(id string, start time.Time, recs ...Record) string {
		h := HeaderFor(b, engine.Deal(b, 1), 1, 12, start, "t")
		h.GameID = id
		w, err := Create(dir, h)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if err := w.Append(r); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		return w.Path()
	}
	in := InputRecord(base, "seat-1", engine.SeatTarget(1, 2))
	mk("done", base, StartRecord(base, "pedal"), EndRecord(base, "console", ""))
	older := mk("older", base.Add(-time.Hour), StartRecord(base, "pedal"), in)
	newer := mk("newer", base.Add(time.Hour), StartRecord(base, "pedal"))
	torn := mk("torn", base, StartRecord(base, "pedal"), in)
	data := readFile(t, torn)
	os.WriteFile(torn, data[:len(data)-3], 0o644)
	bad := mk("bad", base.Add(-2*time.Hour), StartRecord(base, "pedal"), in)
	data = readFile(t, bad)
	data[len(Magic)+40] ^= 1
	os.WriteFile(bad, data, 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(dir, "old.wtj"), 0o755)

	list, err := Unfinished(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range list {
		got = append(got, filepath.Base(e.Path))
		switch e.Path {
		case torn:
			if !e.TornTail || e.Records != 1 || e.Err != nil {
				t.Fatalf("torn: %+v", e)
			}
		case bad:
			if asCorrupt(e.Err) == nil || asCorrupt(e.Err).Index != 0 {
				t.Fatalf("damaged: %+v", e)
			}
		case older:
			if e.Records != 2 || e.Header.GameID != "older" {
				t.Fatalf("older: %+v", e)
			}
		}
	}
	// newest first; the damaged one by its modification time (now, newest)
	want := []string{filepath.Base(bad), filepath.Base(newer), filepath.Base(torn), filepath.Base(older)}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("Unfinished: %v\nwant %v", got, want)
	}
	if _, err := Unfinished(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing folder listed")
	}
}

// TestCommand: `wolftable record verify|show`, the verbs (their command
// line is cmd/wolftable's TestRecordArgs).
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	p := playJournal(t, dir, "wolfking-guard", 13, true)
	verify := func(file string, o VerifyOptions) (int, string, string) {
		var out, errw bytes.Buffer
		code := VerifyFile(file, o, &out, &errw)
		return code, out.String(), errw.String()
	}
	showf := func(file string, o ShowOptions) (int, string, string) {
		var out, errw bytes.Buffer
		code := ShowFile(file, o, &out, &errw)
		return code, out.String(), errw.String()
	}
	code, out, _ := verify(p.path, VerifyOptions{PublicKey: testPub})
	if code != 0 || !strings.Contains(out, "雜湊鏈   完整") || !strings.Contains(out, "斷尾     無") || !strings.Contains(out, "結果     "+p.winner) ||
		!strings.Contains(out, "驗證通過") {
		t.Fatalf("verify: %d\n%s", code, out)
	}
	code, out, _ = verify(p.path, VerifyOptions{PublicKey: testPub, Records: true})
	if code != 0 || !strings.Contains(out, "  end      ") || !strings.Contains(out, " header ") {
		t.Fatalf("verify --records: %d\n%s", code, out)
	}
	for _, f := range []string{"text", "md", "json"} {
		code, out, _ = showf(p.path, ShowOptions{Format: f})
		if code != 0 || len(out) < 500 {
			t.Fatalf("show --format %s: %d\n%s", f, code, out)
		}
	}
	// a torn journal (here: its end record torn) verifies as unfinished
	// with --unfinished, and says so; without it, it proves nothing
	data := readFile(t, p.path)
	torn := filepath.Join(dir, "torn.wtj")
	os.WriteFile(torn, data[:len(data)-9], 0o644)
	code, out, _ = verify(torn, VerifyOptions{Unfinished: true})
	if code != 0 || !strings.Contains(out, "斷尾     有：最後一筆紀錄寫到一半就斷電") {
		t.Fatalf("verify torn: %d\n%s", code, out)
	}
	if code, out, _ = verify(torn, VerifyOptions{PublicKey: testPub}); code != 1 || !strings.Contains(out, "日誌沒有結束紀錄") {
		t.Fatalf("verify torn without --unfinished: %d\n%s", code, out)
	}
	// a damaged one does not
	data[len(data)/2] ^= 0x10
	bad := filepath.Join(dir, "bad.wtj")
	os.WriteFile(bad, data, 0o644)
	code, out, errs := verify(bad, VerifyOptions{PublicKey: testPub})
	if code != 1 || !strings.Contains(out, "驗證失敗") || !strings.Contains(errs, "record ") {
		t.Fatalf("verify damaged: %d\n%s\n%s", code, out, errs)
	}
	if code, _, _ := showf(bad, ShowOptions{}); code != 1 {
		t.Fatalf("show damaged: %d", code)
	}
	// venue boards: a folder without the board falls back to the embedded ones
	if code, _, errs := verify(p.path, VerifyOptions{PublicKey: testPub, Boards: t.TempDir()}); code != 0 {
		t.Fatalf("--boards: %d %s", code, errs)
	}
	// bad options: an unknown format, a boards folder that is not there
	missing := filepath.Join(dir, "missing")
	for what, code := range map[string]int{
		"show --format pdf":       first(showf(p.path, ShowOptions{Format: "pdf"})),
		"show --boards missing":   first(showf(p.path, ShowOptions{Boards: missing})),
		"verify --boards missing": first(verify(p.path, VerifyOptions{PublicKey: testPub, Boards: missing})),
	} {
		if code != 2 {
			t.Errorf("%s: exit %d, want 2", what, code)
		}
	}
	if code, _, errs := verify(filepath.Join(dir, "missing.wtj"), VerifyOptions{}); code != 1 || errs == "" {
		t.Fatalf("missing file: %d", code)
	}
}

func first(code int, _, _ string) int { return code }

// TestVerifySummary: Verify's summary of a journal without a start.
func TestVerifySummary(t *testing.T) {
	b, _ := boards.Get("seer-witch-hunter-idiot")
	w, err := Create(t.TempDir(), HeaderFor(b, engine.Deal(b, 1), 1, 12, base, "t"))
	if err != nil {
		t.Fatal(err)
	}
	w.Append(InputRecord(base, "clock", engine.Clock(20, 15)))
	w.Close()
	s, err := Verify(w.Path())
	if err != nil || s.Started || s.Inputs != 1 || s.Records != 2 || !s.Replayed || s.Over {
		t.Fatalf("%+v %v", s, err)
	}
	var out bytes.Buffer
	s.Write(&out)
	if !strings.Contains(out.String(), "對局沒有開始") {
		t.Fatal(out.String())
	}
	if _, err := Verify(filepath.Join(t.TempDir(), "x.wtj")); err == nil || errors.Is(err, ErrNoHeader) {
		t.Fatalf("missing file: %v", err)
	}
}

// TestReviewNamesTheCardAsTheBoard (rules-more.md I10): on a 白痴 board
// (idiot.name baichi) the 復盤 says 白痴 for the reveal, a new card and the
// thief's pick; without the option 愚者.
func TestReviewNamesTheCardAsTheBoard(t *testing.T) {
	entries := []Entry{
		{Type: string(engine.RecReveal), Seat: 6, Role: string(engine.Idiot)},
		{Type: string(engine.RecRole), Seat: 1, Role: string(engine.Idiot)},
		{Type: string(engine.RecAction), Kind: string(engine.ActionThief), By: 1, Role: string(engine.Villager), Result: "愚者"},
	}
	for _, tt := range []struct {
		opts map[string]string
		want []string
	}{
		{map[string]string{"idiot.name": "baichi"}, []string{"6號 翻牌：白痴", "1號 身份改為：白痴", "拿底牌：村民（埋牌：白痴）"}},
		{map[string]string{}, []string{"6號 翻牌：愚者", "1號 身份改為：愚者", "拿底牌：村民（埋牌：愚者）"}},
	} {
		rv := &Review{Options: tt.opts}
		for i, e := range entries {
			if got := rv.entryLine(e).text; !strings.Contains(got, tt.want[i]) {
				t.Errorf("%v: %q, want %q", tt.opts, got, tt.want[i])
			}
		}
	}
}

// TestReviewSpeaksChinese: the 復盤 of a game on every board says each of
// its entries in the judge's words (recordtext): no entry line has Latin
// letters (but the judge's "PK") or '=', the shape of a record's fields
// (every 禁言長老 game's 復盤 once printed "silence  seat=2 by=0
// target=0"). recordtext's own test renders a record of every type.
func TestReviewSpeaksChinese(t *testing.T) {
	debug := regexp.MustCompile(`[A-Za-z=]`)
	types := map[string]bool{}
	for _, board := range boardIDs(t) {
		p := playJournal(t, t.TempDir(), board, 21, true)
		j, err := Read(p.path)
		if err != nil {
			t.Fatal(err)
		}
		rv, err := NewReview(j, boards.Get)
		if err != nil {
			t.Fatal(err)
		}
		for _, ph := range rv.Phases {
			for _, e := range ph.Entries {
				types[e.Type] = true
			}
			for _, l := range rv.lines(ph.Entries) {
				for _, s := range append([]string{l.text}, l.sub...) {
					if s == "" || debug.MatchString(strings.ReplaceAll(s, "PK", "")) {
						t.Errorf("%s, %s: %q is not the judge's words", board, ph.Phase, s)
					}
				}
			}
		}
	}
	if !types[string(engine.RecSilence)] || !types[string(engine.RecAction)] || !types[string(engine.RecVote)] {
		t.Errorf("the games had only the record types %v: not a test of the 禁言長老's silence, the actions and the votes", types)
	}
}
