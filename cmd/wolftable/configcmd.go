package main

import (
	"flag"
	"fmt"
	"io"

	"wolftable/config"
	"wolftable/internal/cliflag"
)

// defaultConfigPath is where the Debian package installs the config file.
const defaultConfigPath = "/etc/wolftable/config.toml"

// loadConfig reads --config (which must exist) or the default path (whose
// absence means the defaults).
func loadConfig(path string) (*config.Config, error) {
	if path != "" {
		return config.Load(path, true)
	}
	return config.Load(defaultConfigPath, false)
}

// configCheck is `wolftable config check`: the flags, then configCheckRun.
func configCheck(fs *flag.FlagSet) func(args []string, stdout, stderr io.Writer) int {
	path := fs.String("config", "", "設定檔（預設 "+defaultConfigPath+"，有的話）")
	noPaths := fs.Bool("no-paths", false, "只檢查檔案本身，不檢查它在這台機器上指到的東西（日誌資料夾、語音包、總台憑證、\n控制台狀態與位址：給另一台機器用的設定檔）")
	return func(args []string, stdout, stderr io.Writer) int {
		if len(args) > 0 {
			return 2
		}
		return configCheckRun(path, noPaths, stdout, stderr)
	}
}

// configCheckRun validates the config at path (and, unless noPaths, what
// it names on this machine) and prints what it found.
func configCheckRun(path *string, noPaths *bool, stdout, stderr io.Writer) int {
	c, err := loadConfig(*path)
	if err == nil && !*noPaths {
		err = c.CheckPaths() // the journal folder and the voice pack exist
	}
	var notes []string
	if err == nil && !*noPaths {
		notes, err = preflight(c) // what else serve refuses at start: [desk]'s credentials, the console, the journal
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	b, _ := c.Board()
	src := c.Path
	if src == "" {
		src = "（沒有設定檔：全部用預設值）"
	}
	fmt.Fprintf(stdout, "設定 %s：沒有問題\n", src)
	fmt.Fprintf(stdout, "  桌子：   %d 個座位，%s\n", c.Table.Seats, modeWords[string(c.Table.Mode)])
	fmt.Fprintf(stdout, "  板子：   %s %s，%s\n", b.ID, b.Name, dealWord(c.Game.Deal))
	if cat, err := c.Boards(); err == nil {
		if venue, err := cat.Venue(); err == nil && len(venue) > 0 {
			fmt.Fprintf(stdout, "  本店：   %s 裡有 %d 個板子\n", cat.Dir, len(venue))
		}
	}
	pack := c.Voice.Pack
	if pack == "" {
		pack = "內建語音"
	}
	fmt.Fprintf(stdout, "  語音：   %s，音量 %.2f\n", pack, c.Voice.Volume)
	fmt.Fprintf(stdout, "  日誌：   %s（%s）\n", c.Journal.Dir, map[bool]string{true: "開機時續局", false: "開機時不續局"}[c.Journal.Resume])
	fmt.Fprintf(stdout, "  主控台： %s\n", c.Console.Listen)
	if a := c.TLSAddr(); a != "" {
		cert := "自簽憑證，在 " + c.StateDirPath()
		if c.Console.TLSCert != "" {
			cert = c.Console.TLSCert
		}
		fmt.Fprintf(stdout, "  HTTPS：  %s（%s）\n", a, cert)
	}
	if c.Desk.URL != "" {
		fmt.Fprintf(stdout, "  總台：   %s，本桌桌名 %s\n", c.Desk.URL, c.Desk.Table)
	}
	for _, n := range notes {
		fmt.Fprintf(stdout, "  注意：%s\n", n)
	}
	if !*noPaths {
		fmt.Fprintln(stdout, "  硬體（座位燈、按鍵、踏板、喇叭）不在此檢查：請執行 sudo wolftable selftest")
	}
	return 0
}

// modeWords are [table] mode's values in words.
var modeWords = map[string]string{"virtual": "虛擬桌（沒有硬體）", "gpio": "Pi 的腳位（GPIO）", "serial": "座位面板橋接板（USB 序列埠）"}

// dealWord is [game] deal in words.
func dealWord(deal string) string {
	if deal == "manual" {
		return "裁判在主控台輸入發牌"
	}
	return "隨機發牌"
}

var configCommand = &cliflag.Command{
	Name: "config",
	Subcommands: []*cliflag.Command{{
		Name:       "check",
		ShortUsage: "config check [--config FILE] [--no-paths]",
		ShortHelp:  "檢查設定檔",
		Define:     configCheck,
	}},
}
