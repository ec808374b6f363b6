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

// colorWord spells a light's colour for terminals without colour.
func colorWord(c hw.Color) string {
	switch c {
	case hw.Green:
		return "綠"
	case hw.Red:
		return "紅"
	case hw.Blue:
		return "藍"
	}
	return "暗"
}

// keyWords are the seat keys as the judge's console names them.
var keyWords = map[string]string{"CLR": "清除", "UP": "▲", "DOWN": "▼", "WAVE": "擺手", "HAND": "舉手", "BOOM": "自爆"}

func keyWord(k string) string {
	if w, ok := keyWords[k]; ok {
		return w
	}
	return k
}

// pedalWords are the pedal's presses in Chinese.
var pedalWords = map[string]string{"short": "短按", "long": "長按", "double": "雙擊"}

// cellWidth is the width of one seat's column; 18 seats fit in 120 columns.
const cellWidth = 6

// drawLocked redraws the interactive table in place; t.mu must be held.
// The words are Traditional Chinese: the venue's technician and the judge
// read them (doc.go).
func (t *Table) drawLocked() {
	var b strings.Builder
	b.WriteString("\x1b[H")
	line := func(s string) {
		b.WriteString(s)
		b.WriteString("\x1b[K\r\n")
	}
	line(fmt.Sprintf("\x1b[1mwolftable · 虛擬桌子\x1b[0m · %d 個座位 · %s", t.seats, t.link))
	line("")
	for _, l := range t.info {
		line(" " + l)
	}
	if len(t.info) > 0 {
		line("")
	}

	var seat, light, key, sel strings.Builder
	seat.WriteString(" 座位   ")
	light.WriteString(" 燈號   ")
	key.WriteString(" 按鍵   ")
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
		light.WriteString("  " + sgr(l) + colorWord(l.Color) + reset + priv + " ")
		k := t.lastKey[i]
		if k == "" {
			k = "-"
		}
		key.WriteString(center(keyWord(k), cellWidth))
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
		pedal = fmt.Sprintf("%s（第 %d 次）", pedalWords[t.pedal], t.presses)
	}
	line(" 踏板   " + pedal)
	input := fmt.Sprintf("正在替 %d 號輸入", t.sel)
	if t.picking {
		input = "座位號碼：" + t.picked + "_（Enter 確定，Esc 取消）"
	}
	line(" 輸入   " + input)
	line(" 提示   " + t.status)
	line("")
	line(" 操作   s＋號碼 或 Tab／Shift-Tab：選座位 · 0-9：號碼鍵 · Enter：OK · Backspace：清除")
	line("        u：▲ 拇指向上 · d：▼ 拇指向下 · w：擺手 · h：舉手 · b：自爆")
	line("        空白鍵：踏板短按 · l：踏板長按 · p：踏板雙擊 · Ctrl-C：結束")
	if len(t.said) > 0 {
		line("")
		line(" \x1b[1m法官\x1b[0m")
		for _, s := range t.said {
			line("   " + s)
		}
	}
	b.WriteString("\x1b[J")
	t.write(b.String())
}

// width is s's width on a terminal: East Asian wide characters take two
// columns.
func width(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x1100 && (r <= 0x115f || r >= 0x2e80 && r <= 0xa4cf || r >= 0xac00 && r <= 0xd7a3 || r >= 0xf900 && r <= 0xfaff || r >= 0xfe30 && r <= 0xfe4f || r >= 0xff00 && r <= 0xff60 || r >= 0xffe0 && r <= 0xffe6) {
			n++
		}
	}
	return n
}

// center pads s with spaces on both sides to width w.
func center(s string, w int) string {
	n := width(s)
	if n >= w {
		return s
	}
	left := (w - n) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-n-left)
}
