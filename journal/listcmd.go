package journal

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"wolftable/boards"
)

// DefaultDir is an installed table's journals folder (config's
// [journal] dir).
const DefaultDir = "/var/lib/wolftable/journals"

// bloatedFolder is the size of a folder's own entry list (ext4: its
// blocks) past which record archive suggests rebuilding it.
const bloatedFolder = 64 << 10

func archiveCommand(dir string, stdout, stderr io.Writer) int {
	t, err := ArchiveFinished(dir, func(n int) {
		if n%500 == 0 {
			fmt.Fprintf(stdout, "已歸檔 %d 局…\n", n)
		}
	})
	if err != nil {
		fmt.Fprintln(stderr, "record archive:", err)
		return 1
	}
	fmt.Fprintf(stdout, "已把 %d 局已結束的日誌移入 %s（未結束或損壞的日誌留在原處）\n", len(t.Archived), filepath.Join(dir, ArchiveDir))
	if fi, err := os.Stat(dir); err == nil && fi.Size() > bloatedFolder {
		// ext4 never shrinks a directory: the start still reads the room
		// thousands of names took (0.5 ms for 10,000 on the build machine)
		fmt.Fprintf(stdout, "提示：%s 曾放過上千個檔案，資料夾本身不會縮小；要讓開局再快一點，可在停止 wolftable 服務後執行：\n"+
			"  mv %[1]s %[1]s.old && mkdir %[1]s && mv %[1]s.old/* %[1]s/ && rmdir %[1]s.old（並保留原本的擁有者與權限）\n", dir)
	}
	for _, e := range t.Failed {
		fmt.Fprintf(stderr, "record archive: 未歸檔：%v\n", e)
	}
	if len(t.Failed) > 0 {
		return 1
	}
	return 0
}

func listCommand(dir string, page, per int, stdout, stderr io.Writer) int {
	p, err := List(dir, page, per)
	if err != nil {
		fmt.Fprintln(stderr, "record list:", err)
		return 1
	}
	cat, _ := boards.Open(boards.DefaultDir, false)
	if len(p.Games) == 0 {
		fmt.Fprintf(stdout, "第 %d 頁：沒有日誌\n", page)
	}
	for _, g := range p.Games {
		fmt.Fprintln(stdout, listLine(g, cat, dir))
	}
	switch {
	case p.More:
		fmt.Fprintf(stdout, "第 %d 頁（每頁 %d 局）；下一頁：wolftable record list %s --page %d --per %d\n", page, per, dir, page+1, per)
	case len(p.Games) > 0:
		fmt.Fprintf(stdout, "第 %d 頁（每頁 %d 局），最後一頁\n", page, per)
	}
	return 0
}

// listLine is one game of record list.
func listLine(g Listed, cat *boards.Catalog, dir string) string {
	path := g.Path
	if rel, err := filepath.Rel(dir, g.Path); err == nil {
		path = rel
	}
	if g.Err != nil {
		return fmt.Sprintf("%-16s  %s  %s", "?", "日誌無法讀取："+Explain(g.Err), path)
	}
	board := g.Header.Board
	if cat != nil {
		if b, err := cat.Get(board); err == nil {
			board = b.Name + "（" + b.ID + "）"
		}
	}
	state := resultText(g.Result)
	switch {
	case !g.Finished && !g.Archived:
		state = "未結束（進行中或待續局）"
	case !g.Finished:
		state = "未結束"
	}
	var marks []string
	if g.Finished {
		marks = append(marks, map[bool]string{true: "已簽章", false: "未簽章"}[g.Signed])
	}
	switch {
	case g.Refused:
		marks = append(marks, "總台拒收")
	case g.Sent:
		marks = append(marks, "已送總台")
	case g.Queued:
		marks = append(marks, "待送總台")
	}
	return fmt.Sprintf("%s  %s  %s  %s  %s  %s", g.Header.Start.Format("2006-01-02 15:04"), g.Header.GameID, board, state,
		strings.Join(marks, "、"), path)
}

// locateFile is FILE as record show and verify take it: a path, or a
// journal's file name alone, found in DefaultDir or its archive.
func locateFile(file string) string {
	if _, err := os.Stat(file); !errors.Is(err, fs.ErrNotExist) || filepath.Base(file) != file {
		return file
	}
	if p, ok := Locate(DefaultDir, file); ok {
		return p
	}
	return file
}
