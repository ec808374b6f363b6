package main

import (
	"fmt"
	"io"
	"strings"

	"wolftable/boards"
	"wolftable/engine"
	"wolftable/internal/cliflag"
)

func composition(b *engine.Board) string {
	var parts []string
	count := map[engine.Role]int{}
	var order []engine.Role
	for _, r := range b.Roles {
		if count[r] == 0 {
			order = append(order, r)
		}
		count[r]++
	}
	for _, r := range order {
		if count[r] > 1 {
			parts = append(parts, fmt.Sprintf("%d%s", count[r], r.Name()))
		} else {
			parts = append(parts, r.Name())
		}
	}
	return strings.Join(parts, " ")
}

// boardsUsage is the boards command's usage.
const boardsUsage = `用法：
      wolftable boards [--config FILE] [--dir DIR]       列出板子（內建的與本店的）
      wolftable boards show ID [--config FILE] [--dir DIR]  一個板子的夜晚順序與選項
      wolftable boards check DIR                           檢查本店的板子資料夾`

// cmdBoards lists the boards the table knows: the built-in ones and the
// venue's (game.boards_dir of the config, or --dir), marked 本店; `show`
// gives one board's night order; `check DIR` validates a venue folder and
// names the file, line and problem of every bad board (exit 1).
func cmdBoards(args []string, stdout, stderr io.Writer) int {
	if len(args) >= 1 && args[0] == "check" {
		if len(args) != 2 {
			fmt.Fprintln(stderr, boardsUsage)
			return 2
		}
		return boardsCheck(args[1], stdout, stderr)
	}
	show := len(args) >= 1 && args[0] == "show"
	if show {
		args = args[1:]
	}
	fs := cliflag.New("boards", boardsUsage+"\n", stderr)
	path := fs.String("config", "", "設定檔（預設 "+defaultConfigPath+"，有的話）：用它的 game.boards_dir")
	dir := fs.String("dir", "", "本店的板子資料夾（取代設定檔的 game.boards_dir）")
	pos, err := cliflag.Interspersed(fs, args)
	if err != nil {
		return 2
	}
	if (show && len(pos) != 1) || (!show && len(pos) != 0) {
		fmt.Fprintln(stderr, boardsUsage)
		return 2
	}
	cat, err := boardCatalog(*path, *dir)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if show {
		b, err := cat.Get(pos[0])
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		showBoard(stdout, b)
		if cat.IsVenue(b.ID) {
			fmt.Fprintf(stdout, "來源：本店板子 %s\n", b.Source)
		}
		return 0
	}
	all, err := cat.All()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "%-24s %-10s %-7s %s\n", "編號", "名稱", "人數", "配置")
	venue := 0
	for _, b := range all {
		mark := ""
		if cat.IsVenue(b.ID) {
			mark = "  〔本店〕"
			venue++
		}
		fmt.Fprintf(stdout, "%-24s %-10s %-7d %s%s\n", b.ID, b.Name, b.Players, composition(b), mark)
	}
	if venue > 0 {
		fmt.Fprintf(stdout, "本店板子：%d 個，來自 %s\n", venue, cat.Dir)
	}
	return 0
}

// boardCatalog is the boards of --dir (which must exist), or of the
// config's game.boards_dir.
func boardCatalog(path, dir string) (*boards.Catalog, error) {
	if dir != "" {
		return boards.Open(dir, true)
	}
	c, err := loadConfig(path)
	if err != nil {
		return nil, err
	}
	return c.Boards()
}

// boardsCheck validates a venue folder: every problem as FILE:LINE: what,
// then a summary; exit 1 on any problem.
func boardsCheck(dir string, stdout, stderr io.Writer) int {
	good, skipped, errs := boards.CheckDirSkipped(dir)
	for _, b := range good {
		fmt.Fprintf(stdout, "ok   %s  %s %s（%d 人）\n", b.Source, b.ID, b.Name, b.Players)
	}
	for _, sk := range skipped {
		fmt.Fprintf(stdout, "略過 %s\n", sk)
	}
	for _, err := range errs {
		fmt.Fprintln(stderr, err)
	}
	if len(errs) > 0 {
		fmt.Fprintf(stdout, "%s：%d 個板子可用，%d 個問題 / %d good, %d problems\n", dir, len(good), len(errs), len(good), len(errs))
		return 1
	}
	fmt.Fprintf(stdout, "%s：%d 個板子全部可用 / %d boards, all good\n", dir, len(good), len(good))
	return 0
}

func showBoard(w io.Writer, b *engine.Board) {
	fmt.Fprintf(w, "%s  %s（%d 人）\n", b.ID, b.Name, b.Players)
	fmt.Fprintf(w, "配置：%s\n", composition(b))
	if n := b.Bottom(); n > 0 {
		fmt.Fprintf(w, "底牌：座位之外 %d 張\n", n)
	}
	for _, p := range b.Nights {
		span := fmt.Sprintf("第 %d 夜", p.From)
		switch {
		case p.To == 0:
			span = fmt.Sprintf("第 %d 夜起", p.From)
		case p.To != p.From:
			span = fmt.Sprintf("第 %d–%d 夜", p.From, p.To)
		}
		fmt.Fprintf(w, "%s：\n", span)
		for i, s := range p.Steps {
			r, _ := s.Kind.Role()
			name := r.Name()
			if s.Kind == engine.StepWolves {
				name = "狼人"
			}
			extra := ""
			if s.Hurry > 0 {
				extra += fmt.Sprintf("，剩 %d 秒時催促", s.Hurry)
			}
			if s.Mark != "" {
				extra += fmt.Sprintf("，%s請舉手示意", s.Mark.Name())
			}
			fmt.Fprintf(w, "  %d. %-14s %3d 秒%s\n", i+1, name+"（"+string(s.Kind)+"）", s.Seconds, extra)
		}
	}
	if b.Preset != "" {
		fmt.Fprintf(w, "預設規則組：%s（rules-more.md E0.1）\n", b.Preset)
	}
	fmt.Fprintln(w, "選項：")
	for _, k := range engine.OptionNames() {
		v, _ := b.Options.Get(k)
		fmt.Fprintf(w, "  %-28s %s\n", k, v)
	}
}

var boardsCommand = &cliflag.Command{
	Name:       "boards",
	ShortUsage: "boards [--config FILE] [--dir DIR]\nboards show ID [--config FILE] [--dir DIR]\nboards check DIR",
	ShortHelp: "列出板子（編號、名稱、人數、配置；〔本店〕＝本店自己的板子）；\n" +
		"`show`：一個板子的夜晚順序、各步秒數與選項；\n" +
		"`check`：檢查本店的板子資料夾（每個問題附檔名與行號）",
	Exec: cmdBoards,
}
