package console

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"wolftable/engine"
)

// noticeTable runs nothing (this file's own, so it does not lean on other tests').
type noticeTable struct{}

func (noticeTable) StartGame(context.Context, NewGame) error           { return nil }
func (noticeTable) Submit(context.Context, engine.Input, string) error { return nil }

// TestNoticeJudgeOnly: a notice reaches the judge's state, not the public one.
func TestNoticeJudgeOnly(t *testing.T) {
	s, err := New(Options{Table: noticeTable{}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := s.judgeState().Version
	s.Notice("上一局的日誌損壞")
	if st := s.judgeState(); st.Notice != "上一局的日誌損壞" || st.Version == before {
		t.Fatalf("judge state: notice %q version %d (before %d)", st.Notice, st.Version, before)
	}
	if st := s.publicState(); st.Notice == "上一局的日誌損壞" {
		t.Fatal("the public page shows the judge's notice")
	}
}
