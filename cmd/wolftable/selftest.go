package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"strings"
	"time"
	"wolftable/hw/virtual"

	"wolftable/internal/cliflag"
	"wolftable/selftest"
)

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// cmdSelftest is `wolftable selftest`: the technician's test of the table
// (see selftest/README.md). It parses the flags; selftest.RunTable runs
// the test.
func cmdSelftest(args []string, stdout, stderr io.Writer) int {
	o, code := selftestArgs(args, stderr)
	if code >= 0 {
		return code
	}
	return selftest.RunTable(o, selftest.Env{
		Stdin:         os.Stdin,
		Stdout:        stdout,
		Stderr:        stderr,
		Software:      "wolftable " + version,
		DefaultConfig: defaultConfigPath,
		Table:         []virtual.Option{tableScript(stdout)},
	})
}

// selftestArgs parses selftest's command line; code is -1 when it is
// good, else the exit status (help, or a usage error said on stderr).
func selftestArgs(args []string, stderr io.Writer) (o selftest.TableOptions, code int) {
	fs := cliflag.New("wolftable selftest", selftest.Usage, stderr)
	fs.StringVar(&o.Config, "config", "", "設定檔")
	var reports, faults multiFlag
	fs.Var(&reports, "report", "另把報告寫入 FILE（.json：JSON）")
	fs.DurationVar(&o.Soak, "soak", 10*time.Second, "連線耐久測試的時間")
	fs.DurationVar(&o.Wait, "wait", selftest.DefaultWait, "每個提示等技術人員多久")
	only := fs.String("only", "", "只測這些項目")
	fs.BoolVar(&o.Emulate, "emulate", false, "以機器人技術人員檢測橋接板模擬器")
	fs.Var(&faults, "fault", "模擬桌的一個故障")
	fs.IntVar(&o.Seats, "seats", 0, "模擬桌的座位數（預設依設定檔）")
	fs.BoolVar(&o.SystemSpeaker, "system-speaker", false, "模擬檢測改用本機的音效裝置播放")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, 0
		}
		return o, 2
	}
	if fs.NArg() > 0 {
		return o, selftest.UsageError(stderr, "多了參數 %q", fs.Arg(0))
	}
	if o.Soak < 0 || o.Wait <= 0 {
		return o, selftest.UsageError(stderr, "--soak 要 0 或以上，--wait 要大於 0")
	}
	if *only != "" {
		for _, c := range strings.Split(*only, ",") {
			o.Only = append(o.Only, strings.TrimSpace(c))
		}
	}
	for _, s := range faults {
		f, err := selftest.ParseFault(s)
		if err != nil {
			return o, selftest.UsageError(stderr, "%v", err)
		}
		o.Faults = append(o.Faults, f)
	}
	o.Reports = reports
	return o, -1
}

var selftestCommand = &cliflag.Command{
	Name:       "selftest",
	ShortUsage: "selftest [--config F] [--report F] | --emulate [--fault KIND:SEAT[:KEY]]...",
	ShortHelp:  "技術人員的硬體自我檢測（`wolftable selftest -h`）",
	Exec:       cmdSelftest,
}
