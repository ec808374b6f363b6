package journal

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"wolftable/boards"
	"wolftable/engine"
)

// bottomBoard is boards/testdata's board with two bottom cards, and a
// board source that knows it besides the embedded boards.
func bottomBoard(t testing.TB) (*engine.Board, BoardSource) {
	t.Helper()
	const path = "../boards/testdata/bottom-cards.board"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	if b.Bottom() != 2 {
		t.Fatalf("%s: %d bottom cards, want 2", path, b.Bottom())
	}
	get := func(id string) (*engine.Board, error) {
		if id == b.ID {
			c := *b
			c.Roles = append([]engine.Role(nil), b.Roles...)
			return &c, nil
		}
		return boards.Get(id)
	}
	return b, get
}

// TestBottomCardsJournal: a game on a board with bottom cards is journaled
// in format 3 with its bottom cards in the header; the journal reads,
// verifies and replays to the live game's effects, and the summary, the
// record listing and the 復盤 in every format show the bottom cards.
func TestBottomCardsJournal(t *testing.T) {
	b, get := bottomBoard(t)
	for _, seed := range []uint64{1, 2, 3} {
		p := playJournalOn(t, t.TempDir(), b, seed, true)
		_, bottom := engine.DealCards(b, seed)
		j, err := Read(p.path)
		if err != nil {
			t.Fatal(err)
		}
		h := j.Header
		if h.Format != 3 || !slices.Equal(h.Bottom, bottom) || len(h.Deal) != 12 {
			t.Fatalf("seed %d: header format %d, bottom %v, %d seats; want 3, %v, 12", seed, h.Format, h.Bottom, len(h.Deal), bottom)
		}
		if got := replayStreamFrom(t, j, get); !bytes.Equal(got, p.live) {
			t.Fatalf("seed %d: the replay differs from the live game", seed)
		}
		s, err := verify(p.path, get)
		if err != nil || !s.Replayed || !s.Closed || !s.Signed || s.Winner != p.winner {
			t.Fatalf("seed %d: verify %+v: %v", seed, s, err)
		}
		if err := s.Check(Policy{PublicKey: testKey.Public().(ed25519.PublicKey)}); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		names := bottom[0].Name() + "、" + bottom[1].Name()
		var sum strings.Builder
		s.Write(&sum)
		if !strings.Contains(sum.String(), "底牌     "+names+"\n") {
			t.Fatalf("seed %d: the summary does not show the bottom cards %s:\n%s", seed, names, sum.String())
		}
		var recs strings.Builder
		WriteRecords(&recs, j)
		if !strings.Contains(recs.String(), " bottom="+string(bottom[0])+","+string(bottom[1])+"\n") {
			t.Fatalf("seed %d: the record listing does not show the bottom cards:\n%.300s", seed, recs.String())
		}
		for _, f := range []string{"text", "md"} {
			var out strings.Builder
			if err := show(&out, j, get, f); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "底牌") || !strings.Contains(out.String(), names) {
				t.Fatalf("seed %d: %s 復盤 without the bottom cards %s:\n%.600s", seed, f, names, out.String())
			}
		}
		var out bytes.Buffer
		if err := show(&out, j, get, "json"); err != nil {
			t.Fatal(err)
		}
		var rv struct {
			Bottom []CardReview `json:"bottom"`
		}
		if err := json.Unmarshal(out.Bytes(), &rv); err != nil {
			t.Fatal(err)
		}
		if len(rv.Bottom) != 2 || rv.Bottom[0].Role != string(bottom[0]) || rv.Bottom[1].Name != bottom[1].Name() || rv.Bottom[0].Camp == "" {
			t.Fatalf("seed %d: json bottom %+v, want %v", seed, rv.Bottom, bottom)
		}
	}
}

// TestNoBottomCardsNoLine: a 復盤 of a game without bottom cards
// has no 底牌 line and no "bottom" key.
func TestNoBottomCardsNoLine(t *testing.T) {
	p := playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 4, true)
	j, err := Read(p.path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"text", "md", "json"} {
		var out strings.Builder
		if err := Show(&out, j, f); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "底牌") || strings.Contains(out.String(), `"bottom"`) {
			t.Fatalf("%s 復盤 of a game without bottom cards shows them", f)
		}
	}
}

// format2Journal is a journal written by the code before format 3 (a signed
// bot game on 預女獵愚, seed 5), checked in.
const format2Journal = "testdata/format2-seer-witch-hunter-idiot-5.wtj"

// TestFormat2JournalStillVerifies: a journal written before format 3 still
// reads, verifies with its signature and replays; and a header without
// bottom cards is still written byte for byte as that code wrote it.
func TestFormat2JournalStillVerifies(t *testing.T) {
	s, err := Verify(format2Journal)
	if err != nil || !s.Replayed || !s.Closed || !s.Signed || s.Header.Format != 2 || len(s.Header.Bottom) != 0 {
		t.Fatalf("verify %+v: %v", s, err)
	}
	if err := s.Check(Policy{PublicKey: testKey.Public().(ed25519.PublicKey)}); err != nil {
		t.Fatal(err)
	}
	if s.Winner != s.EndResult || s.Winner == "" {
		t.Fatalf("winner %q, end record %q", s.Winner, s.EndResult)
	}
	data := readFile(t, format2Journal)
	j := mustLoad(t, data)
	var text strings.Builder
	if err := Show(&text, j, "text"); err != nil || strings.Contains(text.String(), "底牌") {
		t.Fatalf("show: %v\n%.300s", err, text.String())
	}
	// The header frame as this code writes it now is the old one.
	h := j.Header
	h.Format = 0
	w, err := Create(t.TempDir(), h)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	n := len(Magic) + 8 + int(binary.BigEndian.Uint32(data[len(Magic):])) + 32
	if got := readFile(t, w.Path()); !bytes.Equal(got, data[:n]) {
		t.Fatalf("the header is no longer written as format 2 wrote it (%d bytes, want %d)", len(got), n)
	}
}

// TestHeaderBottomRules: bottom cards need format 3; at most two; none is
// a valid format 3 header; every cut of a format 3 header's bottom list is
// refused.
func TestHeaderBottomRules(t *testing.T) {
	h := referenceHeader()
	h.Bottom = []engine.Role{"villager", "werewolf"}
	if _, err := Create(t.TempDir(), h); err == nil || !strings.Contains(err.Error(), "need format 3") {
		t.Fatalf("format 1 header with bottom cards: %v", err)
	}
	h.Format = 0
	w, err := Create(t.TempDir(), h)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	j, err := Read(w.Path())
	if err != nil || j.Header.Format != 3 || !slices.Equal(j.Header.Bottom, h.Bottom) {
		t.Fatalf("format 3 round trip: %+v, %v", j, err)
	}
	h.Bottom = append(h.Bottom, "seer")
	if _, err := Create(t.TempDir(), h); err == nil || !strings.Contains(err.Error(), "3 bottom cards") {
		t.Fatalf("three bottom cards: %v", err)
	}
	h.Bottom, h.Format = nil, 3
	body := encodeHeader(nil, &h)
	if got, err := decodeHeader(body); err != nil || got.Format != 3 || len(got.Bottom) != 0 {
		t.Fatalf("format 3 without bottom cards: %+v, %v", got, err)
	}
	h.Bottom = []engine.Role{"villager", "werewolf"}
	body = encodeHeader(nil, &h)
	plain := len(encodeHeader(nil, &Header{Format: 2, Software: h.Software, GameID: h.GameID, Board: h.Board,
		Options: h.Options, Nights: h.Nights, Seed: h.Seed, Deal: h.Deal, Seats: h.Seats, Start: h.Start}))
	for cut := plain; cut < len(body); cut++ {
		if _, err := decodeHeader(body[:cut]); err == nil {
			t.Fatalf("a header cut at byte %d of %d decodes", cut, len(body))
		}
	}
	over := append(append([]byte(nil), body[:plain]...), 3)
	for range 3 {
		over = appendString(over, "villager")
	}
	if _, err := decodeHeader(over); err == nil {
		t.Fatal("a header with three bottom cards decodes")
	}
	// A format 3 body in a format 2 header: trailing bytes, refused.
	two := encodeHeader(nil, &Header{Format: 2, Software: h.Software, GameID: h.GameID, Board: h.Board,
		Options: h.Options, Nights: h.Nights, Seed: h.Seed, Deal: h.Deal, Seats: h.Seats, Start: h.Start})
	if _, err := decodeHeader(append(two, body[plain:]...)); err == nil {
		t.Fatal("a format 2 header with a bottom list decodes")
	}
}
