package doclinks

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository, two levels above this package.
const root = "../.."

// documents are the Markdown files a user of a fresh clone reads.
func documents(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "deploy/README.md", "selftest/README.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md")
	}
	for _, d := range docs {
		rel, err := filepath.Rel(root, d)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

var (
	fence    = regexp.MustCompile("(?ms)^[ \t]*(```|~~~).*?^[ \t]*(```|~~~)[ \t]*$")
	inline   = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refDef   = regexp.MustCompile(`(?m)^[ \t]{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$`)
	codeSpan = regexp.MustCompile("`([^`\\s]+)`")
	mdPath   = regexp.MustCompile(`^[A-Za-z0-9_.\-/]+\.md$`)
	scheme   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*:`)
)

// link is a reference from a document to a path.
type link struct {
	target string
	line   int
	span   bool // a path written in a code span (`docs/design.md`), not a link
}

// links returns the relative link targets of a Markdown text: inline links
// and images, reference definitions, and code spans that name a .md file.
// Fenced code blocks are skipped (examples, not links); URLs with a scheme,
// absolute paths and pure #anchors are not relative links.
func links(text string) []link {
	blank := fence.ReplaceAllStringFunc(text, func(s string) string {
		return strings.Repeat("\n", strings.Count(s, "\n"))
	})
	var out []link
	lineOf := func(off int) int { return strings.Count(blank[:off], "\n") + 1 }
	add := func(target string, off int, span bool) {
		if target == "" || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "/") || scheme.MatchString(target) {
			return
		}
		if i := strings.IndexAny(target, "#?"); i >= 0 {
			target = target[:i]
		}
		out = append(out, link{target: target, line: lineOf(off), span: span})
	}
	for _, m := range inline.FindAllStringSubmatchIndex(blank, -1) {
		add(blank[m[2]:m[3]], m[0], false)
	}
	for _, m := range refDef.FindAllStringSubmatchIndex(blank, -1) {
		add(blank[m[2]:m[3]], m[0], false)
	}
	for _, m := range codeSpan.FindAllStringSubmatchIndex(blank, -1) {
		if p := blank[m[2]:m[3]]; mdPath.MatchString(p) {
			add(p, m[0], true)
		}
	}
	return out
}

// resolve finds a link's file: relative to the document's folder, or, for a
// path in a code span, also relative to the repository's root. It returns
// the path relative to the root, and whether it stays inside the
// repository and exists.
func resolve(doc string, l link) (string, bool) {
	try := []string{filepath.Join(filepath.Dir(doc), l.target)}
	if l.span {
		try = append(try, l.target)
	}
	for _, p := range try {
		p = filepath.Clean(p)
		if p == ".." || strings.HasPrefix(p, "../") {
			continue // outside the repository
		}
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			return p, true
		}
	}
	return try[0], false
}

// TestLinksResolve: every relative link of the documents names a file or
// folder of the repository.
func TestLinksResolve(t *testing.T) {
	for _, doc := range documents(t) {
		src, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range links(string(src)) {
			n++
			if p, ok := resolve(doc, l); !ok {
				t.Errorf("%s:%d: %q does not resolve to a file of the repository (%s)", doc, l.line, l.target, p)
			}
		}
		if doc == "README.md" && n < 5 {
			t.Errorf("README.md: only %d relative links found; the link parser is broken", n)
		}
	}
}

// TestNoSharedFolder: no document mentions the private ../shared folder, in
// a link, a code span or prose.
func TestNoSharedFolder(t *testing.T) {
	for _, doc := range documents(t) {
		src, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "../shared") {
				t.Errorf("%s:%d: points into ../shared, which is not in the repository: %s", doc, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// TestLinkParser pins what links finds, so that a parser that silently
// finds nothing cannot pass TestLinksResolve.
func TestLinkParser(t *testing.T) {
	text := "See [design](docs/design.md#data-flow) and ![x](img/a.png \"t\").\n" +
		"Web [site](https://example.com), [top](#top), [abs](/etc/x).\n" +
		"Code `../shared/docs/rules.md` and `wolftable boards`.\n" +
		"```\n[not](a/link.md)\n```\n" +
		"[ref]: deploy/README.md\n"
	got := links(text)
	want := []link{
		{"docs/design.md", 1, false},
		{"img/a.png", 1, false},
		{"deploy/README.md", 7, false},
		{"../shared/docs/rules.md", 3, true},
	}
	if len(got) != len(want) {
		t.Fatalf("links: got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("link %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, ok := resolve("README.md", link{target: "../shared/docs/design.md", span: true}); ok {
		t.Error("a path outside the repository resolved")
	}
	if _, ok := resolve("docs/x.md", link{target: "../README.md"}); !ok {
		t.Error("docs/x.md → ../README.md did not resolve")
	}
}
