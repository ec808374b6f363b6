package config

import (
	"fmt"

	"wolftable/internal/hans"
)

// Venue is the [venue] section: how the venue reads Chinese.
//
//	[venue]
//	script = "hant"        # hant (繁體) | hans (简体): every page, the studio, the commands' output
//	phonetic = "pinyin"    # pinyin (xuǎn shǒu) | zhuyin (ㄒㄩㄢˇ ㄕㄡˇ): the studio's reading aids
type Venue struct {
	// Script is the venue's script; "" = hant, the words as written.
	Script hans.Script `toml:"script"`
	// Phonetic is the studio's reading aid of a line: "pinyin" with tone
	// marks or "zhuyin" (注音符號); "" = pinyin.
	Phonetic string `toml:"phonetic"`
}

// validateVenue checks [venue].
func (c *Config) validateVenue() error {
	if _, err := hans.ParseScript(string(c.Venue.Script)); err != nil {
		return &Error{Key: "venue.script", Msg: fmt.Sprintf("%q 不行：%s / want hant or hans", c.Venue.Script, want("venue.script"))}
	}
	switch c.Venue.Phonetic {
	case "", "pinyin", "zhuyin":
	default:
		return &Error{Key: "venue.phonetic", Msg: fmt.Sprintf("%q 不行：%s / want pinyin or zhuyin", c.Venue.Phonetic, want("venue.phonetic"))}
	}
	return nil
}

// ScriptOf is the venue's script of the config file at path, for the
// commands' output: hant when the file is missing or cannot be read (the
// command that needs the file says why).
func ScriptOf(path string) hans.Script {
	c, err := Load(path, false)
	if err != nil || c.Venue.Script != hans.Simplified {
		return hans.Traditional
	}
	return hans.Simplified
}
