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

// takeDraw writes the console's waiting draw into the journal of the dealt
// game that starts now: the journal (header only: the game has not
// started) is written again with the draw in its header, the same game id
// and start. A draw not of the game's seats stays on the console and the
// game starts without one (the judge is told).
func takeDraw(tg *tableGame, con *console.Server, out io.Writer) error {
	if con == nil || tg.writer == nil || tg.writer.Records() != 1 {
		return nil
	}
	d, manual, err := con.TakeDraw(tg.game.Players())
	if err != nil {
		con.Notice(fmt.Sprintf("抽好的座位不是這局的 %d 人：本局沒有座位抽籤，請重新輸入名單、抽座位", tg.game.Players()))
		fmt.Fprintf(out, "draw: %v; the game starts without a draw\n", err)
		return nil
	}
	if len(d) == 0 {
		return nil
	}
	h := tg.writer.Header().WithDraw(d, manual)
	path := tg.writer.Path()
	tg.writer.Close()
	if err := os.Remove(path); err != nil {
		return err
	}
	w, err := journal.Create(filepath.Dir(path), h)
	if err != nil {
		return err
	}
	tg.writer = w
	fmt.Fprintf(out, "日誌：%s（含座位抽籤）\n", w.Path())
	return nil
}
