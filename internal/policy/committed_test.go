package policy

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxTracked is the largest file the repository tracks without a line in
// allowed-files.txt. The voice clips are small files each; their total is
// held by the default pack's own test.
const maxTracked = 1 << 20

// magics are the first bytes of compiled programs, objects and archives.
var magics = []struct {
	prefix []byte
	what   string
}{
	{[]byte("\x7fELF"), "an ELF program or object"},
	{[]byte("MZ"), "a Windows program"},
	{[]byte{0xcf, 0xfa, 0xed, 0xfe}, "a Mach-O program"},
	{[]byte{0xce, 0xfa, 0xed, 0xfe}, "a Mach-O program"},
	{[]byte{0xca, 0xfe, 0xba, 0xbe}, "a Mach-O universal program or a Java class"},
	{[]byte("!<arch>\n"), "an ar archive (a compiled Go package or C library)"},
	{[]byte("\x00asm"), "a WebAssembly module"},
	{[]byte("UF2\n"), "a UF2 firmware image"},
}

// repoRoot is the module's root, two folders up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	return root
}

// trackedFile is one entry of git's index.
type trackedFile struct {
	path string
	mode string // 100644, 100755, 120000 (a symbolic link), 160000 (a submodule)
}

// tracked lists git's index of the repository at root.
func tracked(t *testing.T, root string) []trackedFile {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, ".git")); os.IsNotExist(err) {
		// A source archive: no index, so nothing is tracked to check.
		t.Skip("not a git checkout: no tracked files")
	}
	cmd := exec.Command("git", "ls-files", "--stage", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files in a git checkout: %v", err)
	}
	var files []trackedFile
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, path, ok := strings.Cut(string(rec), "\t")
		if !ok {
			t.Fatalf("git ls-files: unexpected line %q", rec)
		}
		files = append(files, trackedFile{path: path, mode: strings.Fields(meta)[0]})
	}
	if len(files) == 0 {
		t.Fatal("git ls-files listed no files")
	}
	return files
}

// allowed reads allowed-files.txt: path → reason.
func allowed(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("allowed-files.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	list := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		path, why, _ := strings.Cut(line, " ")
		if strings.TrimSpace(why) == "" {
			t.Errorf("allowed-files.txt:%d: %s has no reason", n, path)
		}
		list[path] = why
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return list
}

// problem says what is wrong with a tracked file, or "".
func problem(root string, f trackedFile) (string, error) {
	if f.mode == "120000" || f.mode == "160000" {
		return "", nil // a link or a submodule holds no bytes of its own
	}
	full := filepath.Join(root, f.path)
	st, err := os.Lstat(full)
	if os.IsNotExist(err) {
		return "", nil // deleted in the work tree, not yet committed
	}
	if err != nil {
		return "", err
	}
	if st.Size() > maxTracked {
		return "is over 1 MB", nil
	}
	head := make([]byte, 8)
	fh, err := os.Open(full)
	if err != nil {
		return "", err
	}
	n, _ := fh.Read(head)
	fh.Close()
	head = head[:n]
	for _, m := range magics {
		if bytes.HasPrefix(head, m.prefix) {
			return "is " + m.what, nil
		}
	}
	if f.mode == "100755" && !bytes.HasPrefix(head, []byte("#!")) {
		return "is executable without a #! line", nil
	}
	return "", nil
}

// TestNoCommittedBuildOutputs: nothing built is committed. A build output
// tracked by mistake (a 32 MB wolftable-desk was, once) costs every clone
// its size for ever.
func TestNoCommittedBuildOutputs(t *testing.T) {
	root := repoRoot(t)
	allow := allowed(t)
	seen := map[string]bool{}
	for _, f := range tracked(t, root) {
		seen[f.path] = true
		what, err := problem(root, f)
		if err != nil {
			t.Errorf("%s: %v", f.path, err)
			continue
		}
		if what != "" && allow[f.path] == "" {
			t.Errorf("%s %s: remove it from git (and add its path to .gitignore), or give it a line in internal/policy/allowed-files.txt saying why it must be tracked", f.path, what)
		}
	}
	for path := range allow {
		if !seen[path] {
			t.Errorf("allowed-files.txt names %s, which is not tracked: remove the line", path)
		}
	}
}

// TestProblemSeesBuildOutputs: the check itself recognises what it must
// refuse, so the test above cannot pass by seeing nothing.
func TestProblemSeesBuildOutputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), data, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("prog", append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 100)...), 0o755)
	write("lib.a", []byte("!<arch>\n__.PKGDEF"), 0o644)
	write("big.bin", make([]byte, maxTracked+1), 0o644)
	write("noshebang", []byte("echo hi\n"), 0o755)
	write("script", []byte("#!/bin/sh\necho hi\n"), 0o755)
	write("text.go", []byte("package x\n"), 0o644)
	for _, c := range []struct {
		f    trackedFile
		want bool
	}{
		{trackedFile{"prog", "100755"}, true},
		{trackedFile{"lib.a", "100644"}, true},
		{trackedFile{"big.bin", "100644"}, true},
		{trackedFile{"noshebang", "100755"}, true},
		{trackedFile{"script", "100755"}, false},
		{trackedFile{"text.go", "100644"}, false},
	} {
		what, err := problem(dir, c.f)
		if err != nil {
			t.Fatal(err)
		}
		if (what != "") != c.want {
			t.Errorf("%s: problem %q, want a problem: %v", c.f.path, what, c.want)
		}
	}
}
