package console

import (
	"wolftable/engine"
	"wolftable/script"
)

// OptionChoice is one value of an option, as the board file writes it
// and in words.
type OptionChoice struct {
	Value string `json:"value"`
	Text  string `json:"text"`
}

// optionInfo is option k for the new-game form: its name and its values
// in words (an on/off option: true and false, as the board's options
// read them; an enum, night.pace or a sheriff's weight: engine.OptionValues).
// A number option has no values: the judge types it.
func optionInfo(k string) OptionInfo {
	info := OptionInfo{Key: k, Name: script.OptionName(k), Doc: engine.OptionDoc(k)}
	values := engine.OptionValues(k)
	if values == nil && script.OptionBool(k) {
		values = []string{"true", "false"}
	}
	for _, v := range values {
		info.Values = append(info.Values, OptionChoice{Value: v, Text: script.OptionValueText(k, v)})
	}
	return info
}
