package main

import (
	"fmt"
	"io"
	"strings"

	"wolftable/boards"
	"wolftable/engine"
)

func composition(b *engine.Board) string {
	var parts []string
	count := map[engine.Role]int{}
	var order []engine.Role
	for _, r := range b.Roles {
		if count[r] == 0 {
			order = append(order, r)
		}
		count[r]++
	}
	for _, r := range order {
		if count[r] > 1 {
			parts = append(parts, fmt.Sprintf("%d%s", count[r], r.Name()))
		} else {
			parts = append(parts, r.Name())
		}
	}
	return strings.Join(parts, " ")
}

func cmdBoards(args []string, stdout, stderr io.Writer) int {
	if len(args) >= 1 && args[0] == "show" {
		if len(args) != 2 {
			fmt.Fprintln(stderr, "usage: wolftable boards show ID")
			return 2
		}
		b, err := boards.Get(args[1])
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		showBoard(stdout, b)
		return 0
	}
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: wolftable boards [show ID]")
		return 2
	}
	all, err := boards.All()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "%-24s %-10s %-7s %s\n", "ID", "NAME", "PLAYERS", "COMPOSITION")
	for _, b := range all {
		fmt.Fprintf(stdout, "%-24s %-10s %-7d %s\n", b.ID, b.Name, b.Players, composition(b))
	}
	return 0
}

func showBoard(w io.Writer, b *engine.Board) {
	fmt.Fprintf(w, "%s  %s  (%d players)\n", b.ID, b.Name, b.Players)
	fmt.Fprintf(w, "composition: %s\n", composition(b))
	if n := b.Bottom(); n > 0 {
		fmt.Fprintf(w, "bottom:      %d cards beyond the seats (底牌)\n", n)
	}
	for _, p := range b.Nights {
		span := fmt.Sprintf("night %d", p.From)
		switch {
		case p.To == 0:
			span = fmt.Sprintf("nights %d+", p.From)
		case p.To != p.From:
			span = fmt.Sprintf("nights %d-%d", p.From, p.To)
		}
		fmt.Fprintf(w, "%s:\n", span)
		for i, s := range p.Steps {
			r, _ := s.Kind.Role()
			name := r.Name()
			if s.Kind == engine.StepWolves {
				name = "狼人"
			}
			extra := ""
			if s.Hurry > 0 {
				extra += fmt.Sprintf(", hurry at %d s", s.Hurry)
			}
			if s.Mark != "" {
				extra += fmt.Sprintf(", %s請舉手示意", s.Mark.Name())
			}
			fmt.Fprintf(w, "  %d. %-14s %3d s%s\n", i+1, name+" ("+string(s.Kind)+")", s.Seconds, extra)
		}
	}
	if b.Preset != "" {
		fmt.Fprintf(w, "preset: %s (rules-more.md E0.1)\n", b.Preset)
	}
	fmt.Fprintln(w, "options:")
	for _, k := range engine.OptionNames() {
		v, _ := b.Options.Get(k)
		fmt.Fprintf(w, "  %-28s %s\n", k, v)
	}
}
