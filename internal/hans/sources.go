package hans

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// readerExts are the kinds of file whose Chinese reaches a reader: the
// programs' strings, the pages, their scripts and styles, the boards'
// names, the config's comments.
var readerExts = map[string]bool{".go": true, ".html": true, ".js": true, ".css": true, ".board": true, ".toml": true}

// skipDirs are folders whose Chinese no reader of a venue sees: build
// outputs, tests' data and the bridge's firmware (it shows lights, no
// words).
var skipDirs = map[string]bool{".git": true, "bin": true, "testdata": true, "node_modules": true, "firmware-bridge": true}

// SourceFiles lists the files under the module's root whose Chinese a
// reader sees (every .go file but tests, the pages, scripts, styles,
// boards and configs), as paths relative to root, sorted. The table's
// generator (internal/mktable) and its coverage test read the same list.
func SourceFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skipDirs[rel] || skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if readerExts[filepath.Ext(rel)] && !strings.HasSuffix(rel, "_test.go") {
			files = append(files, rel)
		}
		return nil
	})
	return files, err
}
