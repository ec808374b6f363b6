package main

import (
	"io"

	"wolftable/internal/cliflag"
)

// recordCommand is `wolftable record …`: the game journals.
var recordCommand = &cliflag.Command{
	Name: "record",
	ShortUsage: "record verify FILE [--pubkey KEY|FILE] [--unfinished] [--unsigned]\n" +
		"record show FILE [--format text|md|json]\nrecord list [DIR] [--page N] [--per N]\nrecord archive [DIR]\n" +
		"record keygen | pubkey [--key FILE]\nrecord resend [--config FILE] [--journal DIR] [FILE...]",
	ShortHelp: "`verify`：驗證對局日誌能否證明結果（雜湊鏈、重播、由本桌金鑰簽署的結束紀錄）；\n" +
		"`show`：日誌的復盤，附指紋；`list`：本桌的對局，新的在前，一次一頁；`archive`：把已結束的日誌\n" +
		"移入 DIR/archive/（每次啟動都會做）；`keygen`、`pubkey`：本桌的簽章金鑰，與交主辦登記的公鑰；\n" +
		"`resend`：總台拒收的紀錄修正後重送（每個選項：`wolftable record help`）",
	Exec: func(args []string, stdout, stderr io.Writer) int {
		if len(args) > 0 && args[0] == "resend" {
			return cmdRecordResend(args[1:], stdout, stderr)
		}
		return recordArgs(args, stdout, stderr)
	},
}
