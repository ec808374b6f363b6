// Package hanstest holds the checks of the readers' text that the other
// packages' tests share: Traditional characters left in a Simplified
// text, the text an HTML page shows, English words where a Chinese reader
// looks.
package hanstest

import (
	"html"
	"regexp"
	"sort"
	"strings"

	"wolftable/internal/hans"
)

// Traditional is the characters of s that a Simplified text never has
// (the table's Traditional characters that are no one's Simplified
// form), each once, in order: "" for a text in Simplified.
func Traditional(s string) string {
	t := hans.Default()
	simp := map[rune]bool{}
	for _, r := range t.Chars {
		simp[r] = true
	}
	for _, p := range t.Phrases {
		for _, r := range p {
			simp[r] = true
		}
	}
	seen := map[rune]bool{}
	var b strings.Builder
	for _, r := range s {
		if _, ok := t.Chars[r]; ok && !simp[r] && !seen[r] {
			seen[r] = true
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	hidden   = regexp.MustCompile(`(?is)<script\b.*?</script>|<style\b.*?</style>|<code\b.*?</code>|<kbd\b.*?</kbd>|<!--.*?-->`)
	shownAtt = regexp.MustCompile(`(?i)\s(?:title|placeholder|aria-label|alt)="([^"]*)"`)
	tag      = regexp.MustCompile(`(?s)<[^>]*>`)
)

// Visible is the text an HTML page shows its reader: the text between its
// tags (not its scripts and styles, nor the commands it gives to type,
// in <code> or <kbd>) and its title, placeholder, aria-label and alt
// attributes, one piece a line.
func Visible(page string) string {
	page = hidden.ReplaceAllString(page, " ")
	var b strings.Builder
	for _, m := range shownAtt.FindAllStringSubmatch(page, -1) {
		b.WriteString(html.UnescapeString(m[1]) + "\n")
	}
	for _, piece := range tag.Split(page, -1) {
		if p := strings.TrimSpace(html.UnescapeString(piece)); p != "" {
			b.WriteString(p + "\n")
		}
	}
	return b.String()
}

var (
	token    = regexp.MustCompile(`[A-Za-z0-9_.'’/-]+`)
	flagged  = regexp.MustCompile(`(^|[\s（(])--[a-z][a-z-]*([ =][A-Za-z0-9.:]+)?`)
	letters  = regexp.MustCompile(`[A-Za-z]{2,}`)
	command  = regexp.MustCompile("`[^`]*`")
	codeLike = regexp.MustCompile(`[0-9_./]|[a-z]-[a-z]|^[0-9a-f]{4}$`)
)

// Readers' words that are English everywhere: the names of things a
// technician types or sees on the device.
var common = []string{"PIN", "HTTPS", "HTTP", "URL", "CSV", "JSON", "ID", "LAN", "USB", "NATS", "TLS", "SHA",
	"wolftable", "sudo", "systemctl", "journalctl", "Pi", "PK", "ALSA", "GPIO", "SPI", "I2C", "MCP23017", "WS2812",
	"Opus", "WAV", "WebM", "Ogg", "zip", "MD", "Markdown", "wtj", "md", "txt", "OK", "BOOM", "UP", "DOWN", "FIFO", "CPU", "RSS", "LED",
	"MVP", "SVP", "CRC", "Excel", "UTF", "NKEY", "TOML", "QR", "CA", "DNS", "IP", "Wi-Fi", "WiFi", "tmux"}

// English is the English words of s (two letters or more) but the
// common names of things (PIN, HTTPS, wolftable…), codes (a word with a
// digit, a dot, a slash or an underscore: a path, a key; a group of
// four hex digits of a fingerprint; an
// id-like-this; a `command`; a --flag and its value) and allow, each
// once, sorted.
func English(s string, allow ...string) []string {
	ok := map[string]bool{}
	for _, w := range append(append([]string(nil), common...), allow...) {
		ok[strings.ToLower(w)] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, tok := range token.FindAllString(flagged.ReplaceAllString(command.ReplaceAllString(s, " "), " "), -1) {
		if codeLike.MatchString(tok) {
			continue
		}
		for _, w := range letters.FindAllString(tok, -1) {
			if !ok[strings.ToLower(w)] && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	sort.Strings(out)
	return out
}
