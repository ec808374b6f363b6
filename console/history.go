package console

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"

	"wolftable/boards"
	"wolftable/engine"
	"wolftable/journal"
)

// The judge's history (歷史對局): the page /history and, behind the
// judge's session,
//
//	GET /api/judge/history?page=N&per=M   one page of the table's games, newest first
//	GET /api/judge/history/{name}         a game's 復盤 (?format=text|md|json), or its journal (?format=wtj)
//
// from the journals folder (Options.Journals): the game in progress and
// one to resume at its top, finished games in its archive (journal.List
// reads only the page's journals, so a season of games costs a page what
// a day's does). A journal holds the deal: the history is the judge's only.

// HistoryPage is GET /api/judge/history.
type HistoryPage struct {
	Page  int         `json:"page"`
	Per   int         `json:"per"`
	More  bool        `json:"more"`
	Games []GameEntry `json:"games"`
}

// GameEntry is one game of the history.
type GameEntry struct {
	Name      string    `json:"name"` // the journal's file name: /api/judge/history/{name}
	Game      string    `json:"game"`
	Start     time.Time `json:"start"`
	Board     string    `json:"board"`
	BoardName string    `json:"board_name"`
	Finished  bool      `json:"finished"`
	Result    string    `json:"result"` // 好人 狼人 …; "" unfinished or no result
	Signed    bool      `json:"signed"`
	Desk      string    `json:"desk"`            // sent, refused, queued or ""
	Error     string    `json:"error,omitempty"` // the journal does not read: why, in the judge's words
}

const (
	historyPer    = 20
	historyPerMax = 100
)

func (s *Server) getHistory(w http.ResponseWriter, r *http.Request, _ []byte) {
	if s.opt.Journals == "" {
		writeError(w, http.StatusNotFound, "no_history", "這張桌子沒有設定日誌資料夾，沒有歷史對局")
		return
	}
	page, per := 1, historyPer
	for _, q := range []struct {
		name string
		dst  *int
		max  int
	}{{"page", &page, 1 << 20}, {"per", &per, historyPerMax}} {
		if v := r.URL.Query().Get(q.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > q.max {
				writeError(w, http.StatusBadRequest, "bad_page", fmt.Sprintf("%s 要是 1 到 %d 的數字", q.name, q.max))
				return
			}
			*q.dst = n
		}
	}
	p, err := journal.List(s.opt.Journals, page, per)
	if err != nil {
		s.log.Error("console: the history", "err", err)
		writeError(w, http.StatusInternalServerError, "history", "讀不到日誌資料夾")
		return
	}
	names := s.boardNames()
	out := HistoryPage{Page: p.Page, Per: p.Per, More: p.More, Games: []GameEntry{}}
	for _, g := range p.Games {
		e := GameEntry{Name: g.Name, Game: g.Header.GameID, Start: g.Header.Start, Board: g.Header.Board,
			BoardName: names[g.Header.Board], Finished: g.Finished, Result: g.Result, Signed: g.Signed}
		switch {
		case g.Refused:
			e.Desk = "refused"
		case g.Sent:
			e.Desk = "sent"
		case g.Queued:
			e.Desk = "queued"
		}
		if g.Err != nil {
			e.Error = journal.Explain(g.Err)
		}
		out.Games = append(out.Games, e)
	}
	writeJSON(w, http.StatusOK, out)
}

// getHistoryGame serves one game of the history: its 復盤, or its journal.
func (s *Server) getHistoryGame(w http.ResponseWriter, r *http.Request, _ []byte) {
	path, ok := "", false
	if s.opt.Journals != "" {
		path, ok = journal.Locate(s.opt.Journals, r.PathValue("name"))
	}
	if !ok {
		writeError(w, http.StatusNotFound, "no_game", "沒有這一局的日誌")
		return
	}
	format := r.URL.Query().Get("format")
	if format == "wtj" {
		b, err := os.ReadFile(path)
		if err != nil {
			writeError(w, http.StatusNotFound, "no_game", "沒有這一局的日誌")
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="`+r.PathValue("name")+`"`)
		_, _ = w.Write(b)
		return
	}
	types := map[string]string{"": "text/plain", "text": "text/plain", "md": "text/markdown", "json": "application/json"}
	ctype, known := types[format]
	if !known {
		writeError(w, http.StatusBadRequest, "bad_format", "格式要是 text、md、json 或 wtj")
		return
	}
	j, err := journal.Read(path)
	var buf bytes.Buffer
	if err == nil {
		var rv *journal.Review
		if rv, err = journal.NewReview(j, s.boardSource()); err == nil {
			err = rv.Write(&buf, format)
		}
	}
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "bad_journal", "這一局的日誌無法讀出復盤："+journal.Explain(err))
		return
	}
	w.Header().Set("Content-Type", ctype+"; charset=utf-8")
	_, _ = w.Write(buf.Bytes())
}

// boardNames are the boards' names by id (the console's boards).
func (s *Server) boardNames() map[string]string {
	names := map[string]string{}
	if list, err := s.opt.Boards(); err == nil {
		for _, b := range list {
			names[b.ID] = b.Name
		}
	}
	return names
}

// boardSource finds a journal's board among the console's (the venue's
// included), else the built-in ones.
func (s *Server) boardSource() journal.BoardSource {
	return func(id string) (*engine.Board, error) {
		if list, err := s.opt.Boards(); err == nil {
			for _, b := range list {
				if b.ID == id {
					return b, nil
				}
			}
		}
		return boards.Get(id)
	}
}
