package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"wolftable/journal"
)

// recordUsage is `wolftable record help`.
const recordUsage = `用法：
  wolftable record verify FILE [--pubkey KEY|FILE] [--unfinished] [--unsigned] [--records] [--boards DIR]
      檢查雜湊鏈、結束紀錄的簽章（以本桌公鑰核對：預設
      ` + "`" + `/var/lib/wolftable/table.pub` + "`" + `，或 --pubkey 給的、主辦為本桌登記的公鑰），
      並重播整局；日誌能證明其結果時結束碼為 0，不能時為 1。沒有結束紀錄的
      日誌不通過，除非加 --unfinished（進行中的對局）；未簽章的結束紀錄
      （格式 1 的日誌）不通過，除非加 --unsigned。加 --records 另列出每筆紀錄
  wolftable record show FILE [--format text|md|json] [--boards DIR]
      對局的復盤：設定、每夜的行動、每次投票與票型、警長、死亡、放逐、
      判罰、結果、各段時長，以及日誌的指紋
  wolftable record keygen [--key FILE]
      產生本桌的簽章金鑰（預設 /var/lib/wolftable/table.key，權限 0600，
      table.pub 在旁）；已有金鑰時絕不覆寫
  wolftable record pubkey [--key FILE]
      印出本桌的公鑰，交主辦登記
` + recordFolderUsage + `  --boards DIR   場地的板子資料夾（*.board），與內建板子並用
                 （存在時預設 /etc/wolftable/boards）
`

const recordFolderUsage = `  wolftable record list [DIR] [--page N] [--per N]
      本桌的對局，新的在前，一次一頁（預設一頁 20 局；DIR 預設
      ` + journal.DefaultDir + `）：開始時間、板子、結果、簽章、總台的回覆與
      日誌路徑。進行中與待續的對局在 DIR 最上層；已結束的在 DIR/archive/
  wolftable record archive [DIR]
      把 DIR 最上層每個已結束的日誌移入 DIR/archive/YYYY-MM/（` + "`serve` 與 `sim`" + `
      每次啟動、每局結束都會做；用於舊版留下上千個日誌的資料夾）。不刪除任何檔案
  ` + "`" + `record show` + "`" + ` 與 ` + "`" + `record verify` + "`" + ` 只給檔名也找得到日誌：在
  ` + journal.DefaultDir + ` 與其封存中尋找
`

// recordArgs runs `wolftable record …` but resend: args are what follows
// "record" (a leading "record" is skipped too); it parses them and calls
// journal's verbs. It returns the exit status: 0 done, 1 the journal does
// not verify, replay or prove its result (or the key cannot be made or
// read), 2 bad usage.
func recordArgs(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "record" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, recordUsage)
		return 2
	}
	sub := args[0]
	if sub == "help" || sub == "-h" || sub == "--help" {
		fmt.Fprint(stdout, recordUsage)
		return 0
	}
	if sub == "list" || sub == "archive" {
		return recordFolderArgs(sub, args[1:], stdout, stderr)
	}
	if sub != "verify" && sub != "show" && sub != "keygen" && sub != "pubkey" {
		fmt.Fprintf(stderr, "record：沒有 %q 這個指令\n%s", sub, recordUsage)
		return 2
	}
	return recordFileArgs(sub, args[1:], stdout, stderr)
}

// recordFileArgs runs `record verify|show|keygen|pubkey` with rest, what
// follows the verb.
func recordFileArgs(sub string, rest []string, stdout, stderr io.Writer) int {
	var file, keyPath string
	var vo journal.VerifyOptions
	var so journal.ShowOptions
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		value := func(name string) (string, bool) {
			if v, ok := strings.CutPrefix(a, name+"="); ok {
				return v, true
			}
			if a == name && i+1 < len(rest) {
				i++
				return rest[i], true
			}
			return "", false
		}
		if v, ok := value("--format"); ok && sub == "show" {
			so.Format = v
			continue
		}
		if v, ok := value("--boards"); ok && (sub == "show" || sub == "verify") {
			so.Boards, vo.Boards = v, v
			continue
		}
		if v, ok := value("--pubkey"); ok && sub == "verify" {
			vo.PublicKey = v
			continue
		}
		if v, ok := value("--key"); ok && (sub == "keygen" || sub == "pubkey") {
			keyPath = v
			continue
		}
		switch {
		case a == "--records" && sub == "verify":
			vo.Records = true
		case a == "--unfinished" && sub == "verify":
			vo.Unfinished = true
		case a == "--unsigned" && sub == "verify":
			vo.Unsigned = true
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "record %s：不明或不完整的選項 %s\n%s", sub, a, recordUsage)
			return 2
		case file == "" && (sub == "verify" || sub == "show"):
			file = a
		case sub == "keygen" || sub == "pubkey":
			fmt.Fprintf(stderr, "record %s：只接受 --key FILE，不接受其他參數\n", sub)
			return 2
		default:
			fmt.Fprintf(stderr, "record %s：一次只能一個檔案\n", sub)
			return 2
		}
	}
	switch sub {
	case "keygen":
		return journal.Keygen(keyPath, stdout, stderr)
	case "pubkey":
		return journal.PrintPublicKey(keyPath, stdout, stderr)
	}
	if file == "" {
		fmt.Fprintf(stderr, "record %s：沒有給檔案（FILE）\n%s", sub, recordUsage)
		return 2
	}
	if sub == "verify" {
		return journal.VerifyFile(file, vo, stdout, stderr)
	}
	return journal.ShowFile(file, so, stdout, stderr)
}

// recordFolderArgs runs `record list` and `record archive`.
func recordFolderArgs(sub string, args []string, stdout, stderr io.Writer) int {
	dir, page, per := "", 1, 20
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, v, hasValue := strings.Cut(a, "=")
		if (name == "--page" || name == "--per") && sub == "list" {
			if !hasValue && i+1 < len(args) {
				i++
				v, hasValue = args[i], true
			}
			n, err := strconv.Atoi(v)
			if !hasValue || err != nil || n < 1 || n > 1000 {
				fmt.Fprintf(stderr, "record list：%s 要 1 到 1000 的數字\n", name)
				return 2
			}
			if name == "--page" {
				page = n
			} else {
				per = n
			}
			continue
		}
		switch {
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(stderr, "record %s：不明或不完整的選項 %s\n%s", sub, a, recordUsage)
			return 2
		case dir == "":
			dir = a
		default:
			fmt.Fprintf(stderr, "record %s：一次只能一個資料夾\n", sub)
			return 2
		}
	}
	if sub == "archive" {
		return journal.ArchiveFolder(dir, stdout, stderr)
	}
	return journal.ListFolder(dir, page, per, stdout, stderr)
}
