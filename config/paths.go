package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"wolftable/audio/pack"
)

// KeyLine is the line of data (1-based) where the dotted key ("journal.dir",
// "voice.volume") is set, or 0 when the file does not set it (a default).
// data must be a document Parse accepted; anything it cannot read is 0.
func KeyLine(data []byte, key string) (line int) {
	data = bytes.TrimPrefix(data, utf8BOM)
	defer func() {
		if recover() != nil { // the unstable parser on a document it refuses
			line = 0
		}
	}()
	p := unstable.Parser{}
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = table[:0]
			it := e.Key()
			for it.Next() {
				table = append(table, string(it.Node().Data))
			}
		case unstable.KeyValue:
			parts := append([]string(nil), table...)
			it := e.Key()
			var first *unstable.Node
			for it.Next() {
				if first == nil {
					first = it.Node()
				}
				parts = append(parts, string(it.Node().Data))
			}
			if strings.Join(parts, ".") == key && first != nil {
				return p.Shape(first.Raw).Start.Line
			}
		}
	}
	return 0
}

// CheckPaths checks what Parse cannot see in the text: that the journal
// folder exists and is a folder, and that a configured voice pack is a
// folder holding a readable pack. `wolftable config check` runs it; the
// errors are *Error with the key and, when the file sets it, its line.
func (c *Config) CheckPaths() error {
	fail := func(key, msg string) error { return c.Problem(key, msg) }
	if msg := dirProblem(c.Journal.Dir); msg != "" {
		return fail("journal.dir", fmt.Sprintf("日誌資料夾 %s %s（遊戲日誌寫在這裡：請先建立它，並讓 wolftable 使用者可寫入）", c.Journal.Dir, msg))
	}
	if c.Voice.Pack != "" {
		if msg := dirProblem(c.Voice.Pack); msg != "" {
			return fail("voice.pack", fmt.Sprintf("語音包 %s %s（留空 \"\" 則用內建語音）", c.Voice.Pack, msg))
		}
		l, err := pack.List(os.DirFS(c.Voice.Pack))
		if err != nil {
			return fail("voice.pack", fmt.Sprintf("語音包 %s 無法讀取：%v", c.Voice.Pack, err))
		}
		if len(l.Clips) == 0 {
			return fail("voice.pack", fmt.Sprintf("%s 不是語音包：裡面沒有任何音檔（`wolftable voice check %s` 列出問題；留空 \"\" 則用內建語音）", c.Voice.Pack, c.Voice.Pack))
		}
	}
	return nil
}

// Problem is an *Error about key found outside the text (a file it
// names, an address in use): with the line of the file that sets it, or
// saying that the file does not (the value is the default).
func (c *Config) Problem(key, msg string) *Error {
	var data []byte
	if c.Path != "" {
		data, _ = os.ReadFile(c.Path)
	}
	line := KeyLine(data, key)
	if line == 0 {
		msg += "（設定檔沒有寫這個鍵：這是預設值）"
	}
	return &Error{Path: c.Path, Key: key, Line: line, Msg: msg}
}

// dirProblem says in Chinese what is wrong with dir as a folder, "" if nothing.
func dirProblem(dir string) string {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "不存在"
	case errors.Is(err, fs.ErrPermission):
		return "無法讀取（權限不足：請以 sudo 執行檢查）"
	case err != nil:
		return "無法讀取：" + err.Error()
	case !fi.IsDir():
		return "不是資料夾"
	}
	return ""
}
