package virtual

import (
	"fmt"
	"strings"

	"wolftable/hw"
)

// ANSI select-graphic-rendition codes of the lights.
func sgr(l hw.SeatLight) string {
	code := "2" // off: dim
	switch l.Color {
	case hw.Green:
		code = "32"
	case hw.Red:
		code = "31"
	case hw.Blue:
		code = "94"
	}
	if l.Pulse {
		code += ";1"
	}
	return "\x1b[" + code + "m"
}

const reset = "\x1b[0m"

func colorWord(c hw.Color) string {
	switch c {
	case hw.Green:
		return "grn"
	case hw.Red:
		return "red"
	case hw.Blue:
		return "blu"
	}
	return "off"
}

// cellWidth is the width of one seat's column; 18 seats fit in 120 columns.
const cellWidth = 6

// drawLocked redraws the interactive table in place; t.mu must be held.
func (t *Table) drawLocked() {
	var b strings.Builder
	b.WriteString("\x1b[H")
	line := func(s string) {
		b.WriteString(s)
		b.WriteString("\x1b[K\r\n")
	}
	line(fmt.Sprintf("\x1b[1mwolftable · virtual table\x1b[0m · %d seats · %s", t.seats, t.link))
	line("")
	for _, l := range t.info {
		line(" " + l)
	}
	if len(t.info) > 0 {
		line("")
	}

	var seat, light, key, sel strings.Builder
	seat.WriteString(" seat   ")
	light.WriteString(" light  ")
	key.WriteString(" key    ")
	sel.WriteString("        ")
	for i, l := range t.lights {
		n := fmt.Sprintf("%2d", i+1)
		if l.Pulse {
			n = "[" + n + "]"
		} else {
			n = " " + n + " "
		}
		seat.WriteString(" " + sgr(l) + n + reset + " ")
		priv := " "
		if l.Private {
			priv = "*"
		}
		light.WriteString("  " + sgr(l) + colorWord(l.Color) + reset + priv)
		k := t.lastKey[i]
		if k == "" {
			k = "-"
		}
		key.WriteString(fmt.Sprintf("%-*s", cellWidth, center(k, cellWidth)))
		if i+1 == t.sel {
			sel.WriteString("  ^^  ")
		} else {
			sel.WriteString(strings.Repeat(" ", cellWidth))
		}
	}
	line(seat.String())
	line(light.String())
	line(key.String())
	line(sel.String())
	line("")
	pedal := "-"
	if t.pedal != "" {
		pedal = fmt.Sprintf("%s (%d)", t.pedal, t.presses)
	}
	line(" pedal  " + pedal)
	input := fmt.Sprintf("typing for seat %d", t.sel)
	if t.picking {
		input = "seat number: " + t.picked + "_  (Enter ends it, Esc cancels)"
	}
	line(" input  " + input)
	line(" note   " + t.status)
	line("")
	line(" keys   s+number or Tab/Shift-Tab: choose the seat · 0-9 · Enter OK · Backspace CLR")
	line("        u UP · d DOWN · w WAVE · h HAND · b BOOM")
	line("        space: pedal short · l: pedal long · p: pedal double · Ctrl-C: quit")
	if len(t.said) > 0 {
		line("")
		line(" \x1b[1mjudge\x1b[0m")
		for _, s := range t.said {
			line("   " + s)
		}
	}
	b.WriteString("\x1b[J")
	t.write(b.String())
}

// center pads s with spaces on both sides to width w.
func center(s string, w int) string {
	if len(s) >= w {
		return s
	}
	left := (w - len(s)) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-len(s)-left)
}
