package selftest

import "strings"

// The prompts' words (the technician reads them while testing).

// lightWords are a lights walk's steps and an LED's colours in Chinese.
var lightWords = map[string]string{"red": "紅", "green": "綠", "blue": "藍", "off": "滅", "private": "私人指示燈"}

// zhWalk is a lights walk in Chinese: 紅、綠、藍、滅、私人指示燈.
func zhWalk(steps []lightStep) string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = lightWords[s.name]
	}
	return strings.Join(out, "、")
}

// zhLight is a step of a lights walk, or a colour an LED showed, in
// Chinese; a colour of no name (rgb(…)) as it is.
func zhLight(name string) string {
	if w, ok := lightWords[name]; ok {
		return w
	}
	return name
}

// zhPedalName is a pedal press, by its English name, in Chinese.
func zhPedalName(p string) string {
	switch p {
	case "long":
		return "長按"
	case "double":
		return "雙擊"
	}
	return "短按"
}

// zhStuck says why a key looks stuck.
func zhStuck(why string) string {
	switch why {
	case "closed at start":
		return "一開始就是接通的"
	case "down at start":
		return "一開始就按著"
	case "never released":
		return "一直沒放開"
	}
	return why
}

// zhPedalNames are pedal presses, by their English names, in Chinese.
func zhPedalNames(ps []string) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = zhPedalName(p)
	}
	return strings.Join(out, "、")
}

// capWords are a bridge's options (its Hello's capabilities) in words.
func capWords(caps []string) string {
	words := map[string]string{"private-led": "私人指示燈", "pedal": "踏板"}
	var out []string
	for _, c := range caps {
		if w, ok := words[c]; ok {
			c = w
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return "無"
	}
	return strings.Join(out, "、")
}

// modeWord is a table's mode ([table] mode) in words; the report's
// JSON keeps the config's value.
func modeWord(mode string) string {
	switch mode {
	case "serial":
		return "座位面板橋接板（USB 序列埠）"
	case "gpio":
		return "Pi 的腳位（GPIO）"
	case "virtual":
		return "虛擬桌"
	}
	return mode
}
