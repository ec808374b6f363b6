package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"wolftable/boards"
	"wolftable/engine"
	"wolftable/internal/cliflag"
	"wolftable/scenario"
)

func cmdScenario(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: wolftable scenario run FILE [--json] | check DIR|FILE...")
		return 2
	}
	switch args[0] {
	case "run":
		fs := cliflag.New("scenario run", usage, stderr)
		json := fs.Bool("json", false, "JSON lines instead of the transcript")
		pos, err := cliflag.Interspersed(fs, args[1:])
		if err != nil {
			return 2
		}
		if len(pos) != 1 {
			fmt.Fprintln(stderr, "usage: wolftable scenario run FILE [--json] (one file at a time)")
			return 2
		}
		file, asJSON := pos[0], *json
		res, perr := runFile(file)
		if perr != nil {
			if asJSON {
				fmt.Fprintf(stdout, "{\"type\":\"error\",\"line\":%d,\"message\":%q}\n", lineOf(perr), perr.Error())
			}
			fmt.Fprintln(stderr, perr)
			return 2
		}
		if asJSON {
			scenario.WriteJSON(stdout, res)
		} else {
			scenario.WriteTranscript(stdout, res)
		}
		if res.Err != nil {
			fmt.Fprintf(stderr, "%s:%d: %s\n", file, res.Err.Line, res.Err.Msg)
		}
		for _, f := range res.Failures {
			fmt.Fprintf(stderr, "%s:%d: expect failed: %s\n", file, f.Line, f.Msg)
		}
		return res.ExitStatus()
	case "check":
		pos, err := cliflag.Interspersed(cliflag.New("scenario check", usage, stderr), args[1:])
		if err != nil {
			return 2
		}
		files, err := collect(pos)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		passed, failed := 0, 0
		for _, f := range files {
			ok, msg := checkFile(f)
			if ok {
				passed++
				fmt.Fprintf(stdout, "ok    %s\n", f)
			} else {
				failed++
				fmt.Fprintf(stdout, "FAIL  %s: %s\n", f, msg)
			}
		}
		fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
		if failed > 0 {
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "scenario: unknown subcommand %q\n", args[0])
	return 2
}

func lineOf(err error) int {
	if pe, ok := err.(*scenario.ParseError); ok {
		return pe.Line
	}
	return 0
}

func runFile(file string) (*scenario.Result, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	f, err := scenario.Parse(file, src)
	if err != nil {
		return nil, err
	}
	get, err := lookupFor(file)
	if err != nil {
		return nil, err
	}
	return scenario.Run(f, get), nil
}

// lookupFor finds boards for a scenario file: the built-in ones and those of
// the nearest folder named testboards in the file's folder or up to two
// folders above it (scenarios/testboards for scenarios/roles/x.wolf).
func lookupFor(file string) (func(string) (*engine.Board, error), error) {
	dir := filepath.Dir(file)
	for i := 0; i < 3; i++ {
		tb := filepath.Join(dir, "testboards")
		if st, err := os.Stat(tb); err == nil && st.IsDir() {
			return boards.WithDir(tb)
		}
		dir = filepath.Dir(dir)
	}
	return boards.Get, nil
}

// checkFile runs one file. A file whose first line is
// "# reject-line: N REASON" must be refused at line N for that reason
// (scenario.Reject); every other file must pass.
func checkFile(file string) (bool, string) {
	src, err := os.ReadFile(file)
	if err != nil {
		return false, err.Error()
	}
	want, isReject, err := scenario.ParseReject(src)
	if err != nil {
		return false, err.Error()
	}
	if isReject {
		f, perr := scenario.Parse(file, src)
		var res *scenario.Result
		if perr == nil {
			get, err := lookupFor(file)
			if err != nil {
				return false, err.Error()
			}
			res = scenario.Run(f, get)
		}
		if err := want.Check(perr, res); err != nil {
			return false, err.Error()
		}
		return true, ""
	}
	res, err := runFile(file)
	if err != nil {
		return false, err.Error()
	}
	if res.Err != nil {
		return false, fmt.Sprintf("line %d: %s", res.Err.Line, res.Err.Msg)
	}
	if len(res.Failures) > 0 {
		var m []string
		for _, f := range res.Failures {
			m = append(m, fmt.Sprintf("line %d: %s", f.Line, f.Msg))
		}
		return false, strings.Join(m, "; ")
	}
	return true, ""
}

func collect(args []string) ([]string, error) {
	if len(args) == 0 {
		return nil, errors.New("usage: wolftable scenario check DIR|FILE [DIR|FILE …]")
	}
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".wolf") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

var scenarioCommand = &cliflag.Command{
	Name:       "scenario",
	ShortUsage: "scenario run FILE [--json]\nscenario check DIR|FILE...",
	ShortHelp:  "`run`：執行一個劇本，印出過程紀錄（或 --json：每行一筆 JSON）；\n`check`：執行每個 .wolf 檔，最後一行總結 `N passed, M failed`（給程式讀）",
	Exec:       cmdScenario,
}
