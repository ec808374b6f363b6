package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"wolftable/console"
	"wolftable/desk"
	"wolftable/journal"
)

// The table's side of the seat draw (issue 29 item 3): the judge's console
// asks the desk for the table's roster (deskRosterOf), draws the seats,
// and the draw is written into the header of the game's journal, signed
// with the game: gameFromConsole for a game the judge starts, takeDraw for
// the dealt game the pedal starts. A resumed game keeps the draw of its
// header (gameSpec).

// deskRosterOf is the console's roster question to the desk; nil without
// a desk (the judge types the names).
func deskRosterOf(pub *desk.Publisher) func(context.Context) (console.DeskRoster, error) {
	if pub == nil {
		return nil
	}
	return func(ctx context.Context) (console.DeskRoster, error) {
		r, err := pub.Roster(ctx)
		if err != nil {
			return console.DeskRoster{}, err
		}
		out := console.DeskRoster{Round: r.Round, Reason: r.Reason}
		for _, p := range r.Players {
			out.Players = append(out.Players, console.Player{ID: p.ID, Name: p.Name})
		}
		return out, nil
	}
}

// gameSpec is the console's view of tg: its board, cards and the seat
// draw of its journal's header.
func gameSpec(tg *tableGame) console.GameSpec {
	spec := console.GameSpec{Board: tg.board, Deal: tg.deal, Bottom: tg.bottom, Seed: tg.seed}
	if tg.writer != nil {
		h := tg.writer.Header()
		spec.Draw, spec.DrawManual = h.Draw, h.DrawManual
	}
	return spec
}

// withRoster is cs with the desk's roster question for the seat draw.
func (cs consoleSetup) withRoster(f func(context.Context) (console.DeskRoster, error)) consoleSetup {
	cs.roster = f
	return cs
}

// takeDraw writes the console's waiting draw into the journal of the dealt
// game that starts now: the journal (its header only: the game has not
// started) is made again with the draw in its header, then the first one
// removed. A draw not of the game's seats, or a journal that cannot be
// made, leaves the game without a draw (the judge is told; the draw stays
// on the console when it was the wrong size).
func takeDraw(tg *tableGame, con *console.Server, out io.Writer) {
	if con == nil || tg.writer == nil || tg.writer.Records() != 1 {
		return
	}
	n := tg.game.Players()
	d, manual, err := con.TakeDraw(n)
	if err != nil {
		con.Notice(fmt.Sprintf("抽好的座位不是這局的 %d 人：本局沒有座位抽籤，請重新輸入名單、抽座位", n))
		fmt.Fprintf(out, "draw: %v; the game starts without a draw\n", err)
		return
	}
	if len(d) == 0 {
		return
	}
	h := tg.writer.Header().WithDraw(d, manual)
	h.GameID = "" // a new file beside the first: Create makes a new id
	old := tg.writer.Path()
	w, err := journal.Create(filepath.Dir(old), h)
	if err != nil {
		con.Notice("座位抽籤寫不進本局的日誌：本局沒有座位抽籤（詳情見系統日誌）")
		fmt.Fprintf(out, "draw: %v; the game starts without a draw\n", err)
		return
	}
	tg.writer.Close()
	if err := os.Remove(old); err != nil {
		fmt.Fprintf(out, "draw: the dealt journal without the draw stays: %v\n", err)
	}
	tg.writer = w
	fmt.Fprintf(out, "日誌：%s（含座位抽籤）\n", w.Path())
}
