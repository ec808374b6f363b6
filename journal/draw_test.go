package journal

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// drawOf is a seat draw of n seats: seat i is player P0i, named 選手0i,
// in reverse: seat 1 has the last player.
func drawOf(n int) []Drawn {
	d := make([]Drawn, n)
	for i := range d {
		d[i] = Drawn{Seat: i + 1, PlayerID: fmt.Sprintf("P%02d", n-i), Name: fmt.Sprintf("選手%02d", n-i)}
	}
	return d
}

// TestDrawJournal: a header with a seat draw is written in format 4, reads
// back with its draw, verifies with its signature, and the summary and
// the 復盤 name the players by seat; a journal without one stays format 2
// (TestFormat2JournalStillVerifies checks the bytes).
func TestDrawJournal(t *testing.T) {
	h := referenceHeader()
	h.Format = 0
	h = h.WithDraw(drawOf(12), true)
	if h.Format != 4 {
		t.Fatalf("a header with a draw: format %d, want 4", h.Format)
	}
	w, err := Create(t.TempDir(), h)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	j, err := Read(w.Path())
	if err != nil || j.Header.Format != 4 || !j.Header.DrawManual || len(j.Header.Draw) != 12 || j.Header.Draw[4] != h.Draw[4] {
		t.Fatalf("round trip: %+v, %v", j.Header, err)
	}
	j = mustLoad(t, readFile(t, playDrawn(t, drawOf(12)).path))
	var text strings.Builder
	if err := Show(&text, j, "text"); err != nil || !strings.Contains(text.String(), "1號 選手12、2號 選手11") {
		t.Fatalf("the 復盤 does not name the seats: %v\n%.400s", err, text.String())
	}
	var js bytes.Buffer
	if err := Show(&js, j, "json"); err != nil {
		t.Fatal(err)
	}
	var rv Review
	if err := json.Unmarshal(js.Bytes(), &rv); err != nil || rv.Deal[11].Player != "選手01" || rv.Deal[11].PlayerID != "P01" {
		t.Fatalf("json seats %+v: %v", rv.Deal, err)
	}
	plain := referenceHeader()
	plain.Format = 0
	if plain = plain.WithDraw(nil, false); plain.Format != 2 {
		t.Fatalf("a header without a draw: format %d, want 2", plain.Format)
	}
}

// TestDrawSigned: a played game with a draw verifies with the table's
// key; the same journal with one drawn name changed, its chain hashes
// recomputed, is refused: the signature covers the draw.
func TestDrawSigned(t *testing.T) {
	p := playDrawn(t, drawOf(12))
	s, err := Verify(p.path)
	if err != nil || !s.Signed || len(s.Header.Draw) != 12 {
		t.Fatalf("verify %+v: %v", s, err)
	}
	if err := s.Check(Policy{PublicKey: testKey.Public().(ed25519.PublicKey)}); err != nil {
		t.Fatal(err)
	}
	var sum strings.Builder
	s.Write(&sum)
	if !strings.Contains(sum.String(), "座位     1號 選手12、2號 選手11、") || !strings.Contains(sum.String(), "（桌上隨機抽）") {
		t.Fatalf("summary:\n%s", sum.String())
	}
	data := readFile(t, p.path)
	i := bytes.Index(data, []byte("選手11"))
	if i < 0 {
		t.Fatal("the name is not in the file")
	}
	forged := append([]byte(nil), data...)
	copy(forged[i:], "選手13") // seat 2 renamed, the same length
	forged = rechain(t, forged, 0)
	if _, err := Load(bytes.NewReader(forged)); err == nil {
		t.Fatal("a journal whose draw was rewritten loads: the signature does not cover the draw")
	}
}

// playDrawn is playJournal's 預女獵愚 game, seed 3, with the seat draw d
// in its header.
func playDrawn(t *testing.T, d []Drawn) *played {
	t.Helper()
	old := testHeaderHook
	testHeaderHook = func(h Header) Header { return h.WithDraw(d, false) }
	defer func() { testHeaderHook = old }()
	return playJournal(t, t.TempDir(), "seer-witch-hunter-idiot", 3, true)
}

// TestHeaderDrawRules: a draw needs format 4, covers every seat once in
// order, names each seat, and a player id at most once; a draw that
// breaks one is refused when written and when read; every cut of a
// format 4 header's draw is refused.
func TestHeaderDrawRules(t *testing.T) {
	base := referenceHeader().WithDraw(drawOf(12), false)
	bad := map[string]func(h *Header){
		"format 3":     func(h *Header) { h.Format = 3 },
		"short":        func(h *Header) { h.Draw = h.Draw[:11] },
		"seat order":   func(h *Header) { h.Draw[3].Seat, h.Draw[4].Seat = 5, 4 },
		"seat twice":   func(h *Header) { h.Draw[4].Seat = 4 },
		"no name":      func(h *Header) { h.Draw[2].Name = "" },
		"player twice": func(h *Header) { h.Draw[7].PlayerID = h.Draw[1].PlayerID },
		"long id":      func(h *Header) { h.Draw[0].PlayerID = strings.Repeat("x", 65) },
		"manual only":  func(h *Header) { h.Draw = nil; h.DrawManual = true },
	}
	for name, f := range bad {
		h := base
		h.Draw = append([]Drawn(nil), base.Draw...)
		f(&h)
		if err := h.check(); err == nil {
			t.Errorf("%s: the header checks", name)
		}
		if h.Format >= 4 {
			if _, err := decodeHeader(encodeHeader(nil, &h)); err == nil {
				t.Errorf("%s: the header decodes", name)
			}
		}
	}
	h := base
	h.Draw[3].PlayerID, h.Draw[5].PlayerID = "", "" // typed names without ids
	body := encodeHeader(nil, &h)
	if got, err := decodeHeader(body); err != nil || got.Draw[3].Name != h.Draw[3].Name {
		t.Fatalf("a draw with names only: %+v, %v", got.Draw, err)
	}
	three := h
	three.Format, three.Draw = 3, nil
	plain := len(encodeHeader(nil, &three))
	for cut := plain; cut < len(body); cut++ {
		if _, err := decodeHeader(body[:cut]); err == nil {
			t.Fatalf("a header cut at byte %d of %d decodes", cut, len(body))
		}
	}
	flag := append([]byte(nil), body...)
	flag[plain] = 2
	if _, err := decodeHeader(flag); err == nil {
		t.Fatal("a manual flag of 2 decodes")
	}
}
