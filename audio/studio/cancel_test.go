package studio

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
)

// endsAfter is a context that ends after its Err has answered nil n times:
// a game that starts between two clips of an import, deterministically.
type endsAfter struct {
	context.Context
	n atomic.Int32
}

func (e *endsAfter) Err() error {
	if e.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func (e *endsAfter) Done() <-chan struct{} { return nil }

// TestImportCancelled (issue 27 item 4): an import whose context ends (the
// console's table starting a game) stops between two clips: the clips
// saved before are in the result, the rest and the pack.txt are not
// taken, the error is ErrCancelled; over the API it answers 409 cancelled
// and an upload cut by it saves nothing. Before the fix the import ran to
// its end (all three clips and the name taken).
func TestImportCancelled(t *testing.T) {
	arch := zipOf(t, map[string][]byte{
		"pack.txt":                  []byte("name: 匯入\nlanguage: zh-TW\n"),
		"line.game.over.void.1.wav": goodTake(t, "line.game.over.void.1"),
		"seat.3.wav":                goodTake(t, "seat.3"),
		"seat.4.wav":                goodTake(t, "seat.4"),
	})
	s := openStudio(t, t.TempDir(), Options{})
	ctx := &endsAfter{Context: context.Background()}
	ctx.n.Store(2) // the check at the start, the one before the first clip
	res, err := s.ImportContext(ctx, bytes.NewReader(arch), int64(len(arch)))
	if !errors.Is(err, ErrCancelled) || len(res.Clips) != 1 || res.Name != "" {
		t.Fatalf("cancelled after the first clip: %v, %+v", err, res)
	}
	if l := s.List(); l.Recorded != 1 || l.Name == "匯入" {
		t.Errorf("after the cancelled import: %d recorded, name %q", l.Recorded, l.Name)
	}

	other := openStudio(t, t.TempDir(), Options{})
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequestWithContext(gone, "POST", "/api/judge/voice/import", bytes.NewReader(arch))
	w := httptest.NewRecorder()
	other.Handler().ServeHTTP(w, r)
	if w.Code != 409 || !bytes.Contains(w.Body.Bytes(), []byte(`"cancelled"`)) || other.List().Recorded != 0 {
		t.Errorf("an import over the API after the game started: %d %s, %d recorded", w.Code, w.Body, other.List().Recorded)
	}
	r = httptest.NewRequestWithContext(gone, "PUT", "/api/judge/voice/clips/seat.3", bytes.NewReader(goodTake(t, "seat.3")))
	w = httptest.NewRecorder()
	other.Handler().ServeHTTP(w, r)
	if w.Code != 409 || other.List().Recorded != 0 {
		t.Errorf("a take over the API after the game started: %d %s", w.Code, w.Body)
	}

	full := openStudio(t, t.TempDir(), Options{})
	res, err = full.ImportContext(context.Background(), bytes.NewReader(arch), int64(len(arch)))
	if err != nil || !slices.Equal(res.Clips, []string{"line.game.over.void.1", "seat.3", "seat.4"}) || res.Name != "匯入" {
		t.Errorf("an import left alone: %v %+v", err, res)
	}
}
