package boards

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"wolftable/engine"
)

// Format writes a board in the file format. For a board that passes
// Validate, Parse(b.Source, Format(b)) gives back an equal board. Options
// are written only where they differ from engine.DefaultOptions (with the
// board's preset applied, when it has one).
func Format(b *engine.Board) []byte {
	var w bytes.Buffer
	fmt.Fprintf(&w, "id       %s\n", b.ID)
	fmt.Fprintf(&w, "name     %s\n", b.Name)
	fmt.Fprintf(&w, "players  %d\n", b.Players)
	w.WriteString("roles   ")
	for i := 0; i < len(b.Roles); {
		j := i
		for j < len(b.Roles) && b.Roles[j] == b.Roles[i] {
			j++
		}
		w.WriteString(" " + string(b.Roles[i]))
		if j-i > 1 {
			w.WriteString("*" + strconv.Itoa(j-i))
		}
		i = j
	}
	w.WriteString("\n")
	if b.Win == engine.WinTown {
		w.WriteString("win      屠城\n")
	}
	for _, p := range b.Nights {
		steps := make([]string, len(p.Steps))
		for i, s := range p.Steps {
			steps[i] = formatStep(s)
		}
		fmt.Fprintf(&w, "night %-4s %s\n", nightSpec(p), strings.Join(steps, " "))
	}
	if nightWithoutWolves(b) >= 0 {
		w.WriteString("allow    " + allowNoWolves + "\n") // what Parse needs to take it back
	}
	def := engine.DefaultOptions()
	if b.Preset != "" {
		fmt.Fprintf(&w, "preset %s\n", b.Preset)
		_, _ = def.ApplyPreset(b.Preset) // Validate checked the name
	}
	for _, key := range engine.OptionNames() {
		v, _ := b.Options.Get(key)
		if d, _ := def.Get(key); v != d {
			fmt.Fprintf(&w, "option %s %s\n", key, v)
		}
	}
	return w.Bytes()
}

// formatStep writes a step as KIND/SECONDS[/hurry=S][/mark=ROLE].
func formatStep(s engine.Step) string {
	t := string(s.Kind) + "/" + strconv.Itoa(s.Seconds)
	if s.Hurry != 0 {
		t += "/hurry=" + strconv.Itoa(s.Hurry)
	}
	if s.Mark != "" {
		t += "/mark=" + string(s.Mark)
	}
	if s.OpenOnly {
		t += "/open"
	}
	for _, p := range strings.Fields(s.Lines) {
		t += "/line=" + p
	}
	return t
}
