// Command mktable writes internal/hans/tw2s.txt: the Traditional →
// Simplified conversion of every Han character and phrase of the
// project's reader-facing files (hans.SourceFiles), taken from OpenCC's
// tw2s conversion (Taiwan standard → Simplified).
//
// It runs the opencc command (OpenCC 1.1, Debian's opencc and
// libopencc-data) once for all the characters and once for the phrases of
// OpenCC's phrase dictionaries that occur in the texts, and keeps a phrase
// only where converting it character by character would be wrong. Run it
// with `go generate ./internal/hans` after adding words (TestCoverage
// says when); regenerating an up-to-date table changes nothing.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"wolftable/internal/hans"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("mktable: ")
	out := flag.String("o", "tw2s.txt", "the file to write")
	root := flag.String("root", "../..", "the module's root")
	data := flag.String("data", "/usr/share/opencc", "OpenCC's data folder")
	flag.Parse()
	text, err := texts(*root)
	if err != nil {
		log.Fatal(err)
	}
	chars := hanOf(text)
	simp, err := opencc(chars)
	if err != nil {
		log.Fatal(err)
	}
	cmap := map[string]string{}
	var lines, same []string
	for i, c := range chars {
		if simp[i] != c {
			cmap[c] = simp[i]
			lines = append(lines, c+"\t"+simp[i])
		} else {
			same = append(same, c)
		}
	}
	phrases, err := phrasesIn(*data, text)
	if err != nil {
		log.Fatal(err)
	}
	psimp, err := opencc(phrases)
	if err != nil {
		log.Fatal(err)
	}
	var plines []string
	for i, p := range phrases {
		if psimp[i] != charwise(p, cmap) {
			plines = append(plines, p+"\t"+psimp[i])
		}
	}
	if err := os.WriteFile(*out, render(plines, lines, same), 0o644); err != nil {
		log.Fatal(err)
	}
}

// texts is every reader-facing file's text, one after another.
func texts(root string) (string, error) {
	files, err := hans.SourceFiles(root)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", err
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// hanOf is the Han characters of s, each once, sorted.
func hanOf(s string) []string {
	seen := map[rune]bool{}
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			seen[r] = true
		}
	}
	var l []string
	for r := range seen {
		l = append(l, string(r))
	}
	slices.Sort(l)
	return l
}

// opencc converts each of words with `opencc -c tw2s.json`.
func opencc(words []string) ([]string, error) {
	cmd := exec.Command("opencc", "-c", "tw2s.json")
	cmd.Stdin = strings.NewReader(strings.Join(words, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("opencc: %v (install Debian's opencc and libopencc-data)", err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(got) != len(words) {
		return nil, fmt.Errorf("opencc gave %d lines for %d", len(got), len(words))
	}
	return got, nil
}

// phrasesIn is the phrases of OpenCC's phrase dictionaries that occur in
// text, sorted.
func phrasesIn(data, text string) ([]string, error) {
	tmp, err := os.MkdirTemp("", "mktable")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	seen := map[string]bool{}
	for _, d := range []string{"TSPhrases", "TWVariantsRevPhrases"} {
		txt := filepath.Join(tmp, d+".txt")
		cmd := exec.Command("opencc_dict", "-i", filepath.Join(data, d+".ocd2"), "-o", txt, "-f", "ocd2", "-t", "text")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("opencc_dict %s: %v %s", d, err, out)
		}
		b, err := os.ReadFile(txt)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			p, _, _ := strings.Cut(line, "\t")
			if len([]rune(p)) > 1 && strings.Contains(text, p) {
				seen[p] = true
			}
		}
	}
	var l []string
	for p := range seen {
		l = append(l, p)
	}
	slices.Sort(l)
	return l, nil
}

// charwise is p converted character by character.
func charwise(p string, cmap map[string]string) string {
	var b strings.Builder
	for _, r := range p {
		if s, ok := cmap[string(r)]; ok {
			b.WriteString(s)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

const header = `# tw2s.txt: the project's words, Traditional (Taiwan) → Simplified Chinese.
#
# Made by internal/hans/internal/mktable (go generate ./internal/hans) from
# OpenCC's tw2s conversion, OpenCC 1.1 (https://github.com/BYVoid/OpenCC),
# whose dictionaries are licensed under the Apache License, Version 2.0
# (http://www.apache.org/licenses/LICENSE-2.0); this file is derived from
# them. Do not edit: add words to the project and generate it again.
#
# TRADITIONAL<TAB>SIMPLIFIED: a phrase (where character by character is
# wrong), then a character; =CHARS: characters written alike in both.
`

func render(phrases, chars, same []string) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("\n# phrases\n")
	for _, l := range phrases {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n# characters\n")
	for _, l := range chars {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n# alike\n")
	for len(same) > 0 {
		n := min(len(same), 40)
		b.WriteString("=" + strings.Join(same[:n], "") + "\n")
		same = same[n:]
	}
	return b.Bytes()
}
