package config

import (
	"errors"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"wolftable/hw"
)

// sections are the configuration file's sections, in the order of the
// documentation.
var sections = []string{"table", "pedal", "gpio", "serial", "game", "voice", "journal", "console", "pedal_actions", "venue"}

// wants says, for a venue technician, what each key takes. Indexes of
// arrays are left out of the key ("gpio.expanders.address").
var wants = map[string]string{
	"table":                  "要是一個段落：[table]",
	"pedal":                  "要是一個段落：[pedal]",
	"gpio":                   "要是一個段落：[gpio]",
	"serial":                 "要是一個段落：[serial]",
	"game":                   "要是一個段落：[game]",
	"voice":                  "要是一個段落：[voice]",
	"journal":                "要是一個段落：[journal]",
	"console":                "要是一個段落：[console]",
	"pedal_actions":          "要是一個段落：[pedal_actions]",
	"table.seats":            "要是 6 到 18 之間的整數，並等於板子的人數",
	"table.mode":             `要是 "virtual"、"gpio" 或 "serial"`,
	"table.brightness":       "要是 1 到 255 之間的整數",
	"pedal.long":             `要是 100ms 到 10s 之間、帶單位的時間字串，例如 "800ms"`,
	"pedal.double":           `要是 50ms 到 2s 之間、帶單位的時間字串，例如 "300ms"`,
	"pedal.debounce":         `要是 0s 到 200ms 之間、帶單位的時間字串，例如 "20ms"`,
	"pedal.pin":              `要是腳位名稱字串，例如 "GPIO17"；"" 表示踏板不接在 Pi 上`,
	"pedal.pull":             `要是 "up"、"down" 或 "none"`,
	"pedal.active":           `要是 "low" 或 "high"`,
	"gpio.spi":               `要是 SPI 埠名稱字串，例如 "SPI0.0"`,
	"gpio.leds_per_seat":     "要是 1 到 16 之間的整數",
	"gpio.private_led":       "要是 true 或 false",
	"gpio.led_order":         "要是座位號碼的清單，每個座位寫一次，依燈串的順序",
	"gpio.i2c":               `要是 I2C 匯流排名稱字串，例如 "1"`,
	"gpio.poll":              `要是 1ms 到 50ms 之間、帶單位的時間字串，例如 "5ms"`,
	"gpio.key_debounce":      `要是 1ms 到 100ms 之間、帶單位的時間字串，例如 "10ms"`,
	"gpio.expanders":         "要是 [[gpio.expanders]] 段落，最多 8 個",
	"gpio.expanders.address": "要是 MCP23017 的位址，0x20 到 0x27，每個擴充板不同",
	"gpio.expanders.keys":    "要是腳位（A0..A7、B0..B7）對座位按鍵的表",
	"serial.port":            `要是序列埠路徑字串，例如 "/dev/ttyACM0"`,
	"serial.vid":             `要是 USB ID 的十六進位字串，例如 "2e8a"（vid 與 pid 一起寫）`,
	"serial.pid":             `要是 USB ID 的十六進位字串，例如 "000a"（vid 與 pid 一起寫）`,
	"serial.baud":            "要是 300 到 12000000 之間的整數（不可為 1200）",
	"serial.keys_per_seat":   "要是 1 到 17 之間的整數：每個座位面板的按鍵數，要與橋接器回報的相同（17 含自爆鍵；兩顆 74HC165 的面板是 16）",
	"game.board":             "要是板子的代號或名稱（`wolftable boards` 列出全部）",
	"game.deal":              `要是 "random" 或 "manual"`,
	"game.boards_dir":        `要是本店板子資料夾的路徑字串（裡面放 *.board 檔），例如 "/etc/wolftable/boards"`,
	"game.options":           `要是板子選項的表，值寫成字串，例如 "witch.self_save" = "never"`,
	"voice.pack":             `要是語音包資料夾的路徑字串；"" 為錄音室啟用的語音包，沒有則用內建語音`,
	"voice.studio_dir":       `要是絕對路徑字串，或 ""（日誌資料夾旁的 voice）`,
	"voice.volume":           "要是 0 到 1 之間的數字（0 靜音，1 原音量；不寫則為 1）",
	"voice.full_samples":     "要是 true 或 false（舊設定：已不起作用，語音一律以解碼後的原始取樣播放）",
	"voice.cache_dir":        `要是絕對路徑字串、"off"（不留解碼快取）或 ""（日誌資料夾旁的 voice-cache）`,
	"journal.dir":            "要是日誌資料夾的路徑字串，不可為空",
	"journal.resume":         "要是 true 或 false",
	"console.listen":         `要是「主機:埠」字串，例如 "127.0.0.1:8080"，或 "off"（不開主控台）`,
	"console.pin_hash":       `要是 "sha256:" 加 64 個十六進位字元，或 ""`,
	"console.hosts":          `要是主機名稱字串的清單，例如 ["table7.local"]（不含 http:// 與埠號）`,
	"console.state_dir":      `要是絕對路徑字串，或 ""（日誌資料夾旁的 console）`,
	"console.tls_listen":     `要是「主機:埠」字串、"off" 或 ""（listen 的主機，埠 8443）`,
	"console.tls_cert":       `要是 PEM 憑證檔的路徑字串（與 tls_key 一起寫，或都不寫）`,
	"console.tls_key":        `要是 PEM 金鑰檔的路徑字串（與 tls_cert 一起寫，或都不寫）`,
	"console.redirect_http":  "要是 true 或 false",
	"desk.url":               `要是總台的 NATS 位址字串，例如 "nats://192.0.2.5:4222"，或 ""（不回報）`,
	"desk.table":             "要是本桌在總台登記的桌名字串",
	"desk.creds":             "要是總台給的憑證檔路徑字串（`wolftable desk table add` 印出）",
	"pedal_actions.short":    `要是 "advance"、"repeat" 或 "pause"`,
	"pedal_actions.long":     `要是 "advance"、"repeat" 或 "pause"`,
	"pedal_actions.double":   `要是 "advance"、"repeat" 或 "pause"`,
	"venue":                  "要是一個段落：[venue]",
	"venue.script":           `要是 "hant"（繁體）或 "hans"（简体）`,
	"venue.phonetic":         `要是 "pinyin"（拼音）或 "zhuyin"（注音）`,
}

var index = regexp.MustCompile(`\[[0-9]+\]`)

// want is what key takes, in words; "" when the table has nothing.
func want(key string) string {
	k := index.ReplaceAllString(key, "")
	if strings.HasPrefix(k, "game.options.") {
		return `選項的值要寫成字串，例如 "never"`
	}
	for {
		if w, ok := wants[k]; ok {
			return w
		}
		i := strings.LastIndex(k, ".")
		if i < 0 {
			return ""
		}
		k = k[:i]
	}
}

// tomlKinds are go-toml's names of TOML values in Chinese.
var tomlKinds = map[string]string{
	"string": "字串", "integer": "整數", "float": "小數", "boolean": "true/false",
	"array": "清單", "table": "段落", "datetime": "日期時間", "date": "日期", "time": "時間",
	"inline table": "表", "array table": "[[ ]] 段落",
}

var decodeInto = regexp.MustCompile(`cannot (?:decode|store) (?:TOML )?(inline table|array table|[a-z]+)`)

// decodeError turns go-toml's error into where the user wrote it, the key
// and the problem in words: go-toml names Go types ("into struct field …
// of type float64"), which a venue technician cannot act on. A problem
// inside the table's sections is told in hw's words (tableError), with the
// key's indexes from at.
func decodeError(err error, at *hw.Positions) *Error {
	var se *toml.StrictMissingError
	if errors.As(err, &se) && len(se.Errors) > 0 {
		if inTable(se.Errors[0].Key()) {
			return tableError(hw.DecodeProblem(&se.Errors[0], true, at))
		}
		return unknownKey(&se.Errors[0])
	}
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &Error{Msg: "無法讀取設定檔 / cannot read the file"}
	}
	line, col := de.Position()
	key := strings.Join(de.Key(), ".")
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	switch {
	case inTable(de.Key()):
		return tableError(hw.DecodeProblem(de, msg == "unknown field", at))
	case msg == "unknown field":
		return unknownKey(de)
	case key == "":
		return &Error{Line: line, Column: col, Msg: "TOML 格式錯誤 / malformed TOML: " + msg}
	case strings.Contains(msg, "already exists"):
		return &Error{Line: line, Column: col, Key: key, Msg: "這個段落或鍵寫了兩次 / written twice"}
	}
	got := ""
	if m := decodeInto.FindStringSubmatch(msg); m != nil {
		if k, ok := tomlKinds[m[1]]; ok {
			got = "，這裡寫的是" + k
		}
	}
	w := want(key)
	if w == "" {
		w = "寫法不對"
	}
	return &Error{Line: line, Column: col, Key: key, Msg: w + got + " / wrong kind of value"}
}

// tableSections are the sections hw reads (hw.Sections).
var tableSections = []string{"table", "pedal", "gpio", "serial"}

// inTable: key is inside one of the table's sections, whose problems hw
// words; a section itself that is not a table ("table = 3") is the file's
// problem, told here.
func inTable(key []string) bool {
	return len(key) > 1 && slices.Contains(tableSections, key[0])
}

func unknownKey(de *toml.DecodeError) *Error {
	line, col := de.Position()
	k := de.Key()
	key := strings.Join(k, ".")
	if len(k) <= 1 {
		return &Error{Line: line, Column: col, Key: key, Msg: "不認得這個段落（可用的段落：" + strings.Join(sections, "、") + "）/ unknown section"}
	}
	section := strings.Join(k[:len(k)-1], ".")
	var known []string
	for w := range wants {
		if rest, ok := strings.CutPrefix(w, section+"."); ok && !strings.Contains(rest, ".") {
			known = append(known, rest)
		}
	}
	sort.Strings(known)
	hint := ""
	if len(known) > 0 {
		hint = "（[" + section + "] 可用的鍵：" + strings.Join(known, "、") + "）"
	}
	return &Error{Line: line, Column: col, Key: key, Msg: "不認得這個鍵" + hint + " / unknown key"}
}

// tableError is the first problem hw found in the table's sections (a
// *hw.ConfigError, with its position), the words of what the key takes
// first.
func tableError(err error) *Error {
	var he *hw.ConfigError
	if !errors.As(err, &he) {
		return &Error{Msg: "設定值不對 / " + err.Error()}
	}
	return &Error{Key: he.Key, Line: he.Line, Column: he.Column, Msg: hwMessage(he)}
}

// hwMessage is the hw package's problem with the table's sections, the
// words of what the key takes first.
func hwMessage(e *hw.ConfigError) string {
	if strings.HasPrefix(e.Msg, "unknown key") {
		return "不認得這個鍵 / " + e.Msg
	}
	w := want(e.Key)
	if w == "" {
		w = "設定值不對"
	}
	return w + " / " + e.Msg
}
