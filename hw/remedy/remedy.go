package remedy

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

// Remedy is what is wrong and what to do, in Chinese.
type Remedy struct {
	Problem string // what is wrong: "SPI 沒有開啟"
	Fix     string // what to do, with the commands
}

// Port is a USB serial device the machine has (for a bridge whose USB IDs
// are not the config's).
type Port struct {
	Name     string // /dev/ttyACM0
	VID, PID string // hex
	Product  string
}

// Ports lists the machine's USB serial devices; a test or a caller may
// replace it. nil lists none.
var Ports func() ([]Port, error) = listPorts

// For returns the remedy for err; ok is false when none is known.
func For(err error) (Remedy, bool) {
	if err == nil {
		return Remedy{}, false
	}
	r, ok := ForText(err.Error())
	if !ok && errors.Is(err, fs.ErrPermission) {
		return permission(""), true
	}
	return r, ok
}

// Explain is err as the technician reads it: the remedy's sentence, then
// the raw error (原始錯誤); the raw error alone when no remedy is known.
func Explain(err error) string {
	if err == nil {
		return ""
	}
	r, ok := For(err)
	if !ok {
		return err.Error()
	}
	return r.With(err.Error())
}

// ExplainText is Explain for an error already turned into text (a link's
// reason, a check's detail).
func ExplainText(s string) string {
	r, ok := ForText(s)
	if !ok {
		return s
	}
	return r.With(s)
}

// With is the remedy's sentence followed by the raw error.
func (r Remedy) With(raw string) string {
	return r.Problem + "：" + r.Fix + "（原始錯誤：" + raw + "）"
}

// rule is one misconfiguration: when its text (lower case) matches, what
// to say. The first rule that matches speaks.
type rule struct {
	match func(low string) bool
	say   func(raw string) Remedy
}

// anyOf matches a text holding one of subs.
func anyOf(subs ...string) func(string) bool {
	return func(s string) bool {
		for _, x := range subs {
			if strings.Contains(s, x) {
				return true
			}
		}
		return false
	}
}

// both matches a text both a and b match.
func both(a, b func(string) bool) func(string) bool {
	return func(s string) bool { return a(s) && b(s) }
}

// onDevice matches a text naming a device under prefix.
func onDevice(prefix string) func(string) bool {
	return func(s string) bool { return devicePath(s, prefix) != "" }
}

func fixed(r Remedy) func(string) Remedy { return func(string) Remedy { return r } }

var rules = []rule{
	{anyOf("spireg: no port found", "spireg: can't open unknown port"), fixed(Remedy{
		"SPI 沒有開啟，或設定檔的 SPI 埠名稱不對（座位燈接在 SPI 上）",
		"執行 sudo raspi-config nonint do_spi 0 後重新開機；已開啟的話，ls /dev/spidev* 列出可用的埠，設定檔 [gpio] spi 寫 SPI0.0 代表 /dev/spidev0.0"})},
	{anyOf("i2creg: no bus found", "i2creg: can't open unknown bus"), fixed(Remedy{
		"I2C 沒有開啟，或設定檔的 I2C 匯流排名稱不對（座位按鍵的擴充板接在 I2C 上）",
		"執行 sudo raspi-config nonint do_i2c 0 後重新開機；已開啟的話，ls /dev/i2c-* 列出可用的匯流排，設定檔 [gpio] i2c 寫 1 代表 /dev/i2c-1"})},
	{anyOf("permission denied", "operation not permitted"), permission},
	{both(anyOf("snd_pcm_open"), anyOf("no such file", "no such device", "unknown pcm")), fixed(Remedy{
		"找不到音效裝置（喇叭）",
		"接上喇叭或 USB 音效卡後重新啟動（sudo systemctl restart wolftable）；用 Pi 內建的耳機孔要在 /boot/firmware/config.txt 寫 dtparam=audio=on 並重新開機；aplay -l 應列出音效卡"})},
	{both(anyOf("snd_pcm_open"), anyOf("busy")), fixed(Remedy{
		"音效裝置被其他程式占用",
		"sudo fuser -v /dev/snd/* 列出占用的程式（例如 PulseAudio、PipeWire 或另一個 wolftable），停掉它後重新啟動 wolftable"})},
	{anyOf("no bridge found with usb id"), noBridge},
	{both(onDevice("/dev/tty"), anyOf("busy")), func(raw string) Remedy {
		p := devicePath(raw, "/dev/tty")
		return Remedy{"序列埠 " + p + " 被其他程式占用",
			"sudo fuser -v " + p + " 列出占用的程式（常見的是 ModemManager：sudo systemctl disable --now ModemManager，或另一個 wolftable），停掉它後重新啟動 wolftable"}
	}},
	{both(onDevice("/dev/tty"), anyOf("not found", "no such file")), func(raw string) Remedy {
		p := devicePath(raw, "/dev/tty")
		return Remedy{"序列埠 " + p + " 不存在（座位面板橋接板沒接上，或設定檔的埠不對）",
			"接上橋接板（換一條能傳資料的 USB 線：有些線只能充電）；ls /dev/ttyACM* /dev/ttyUSB* 列出現有的序列埠，設定檔 [serial] port 寫它，或不寫 port 讓 wolftable 依 USB ID 尋找"}
	}},
}

// ForText is For for an error's text.
func ForText(s string) (Remedy, bool) {
	low := strings.ToLower(s)
	for _, r := range rules {
		if r.match(low) {
			return r.say(s), true
		}
	}
	return Remedy{}, false
}

// groups are the device groups of the daemon's user (deploy/systemd's
// SupplementaryGroups), by the device's path.
var groups = []struct{ prefix, group, what string }{
	{"/dev/spidev", "spi", "SPI（座位燈）"},
	{"/dev/i2c-", "i2c", "I2C（座位按鍵）"},
	{"/dev/gpiomem", "gpio", "GPIO（踏板）"},
	{"/dev/gpiochip", "gpio", "GPIO（踏板）"},
	{"/sys/class/gpio", "gpio", "GPIO（踏板）"},
	{"/dev/tty", "dialout", "序列埠（座位面板橋接板）"},
	{"/dev/serial", "dialout", "序列埠（座位面板橋接板）"},
	{"/dev/snd", "audio", "音效裝置（喇叭）"},
}

// permission: the daemon's user may not open a device.
func permission(raw string) Remedy {
	low := strings.ToLower(raw)
	group, what, dev := "", "這個裝置", ""
	for _, g := range groups {
		if p := devicePath(raw, g.prefix); p != "" {
			group, what, dev = g.group, g.what, p
			break
		}
	}
	if group == "" && strings.Contains(low, "snd_pcm_open") {
		group, what = "audio", "音效裝置（喇叭）"
	}
	if group == "" {
		return Remedy{"沒有權限開啟" + what, "確認 wolftable 使用者在該裝置的群組裡（ls -l 看群組），sudo adduser wolftable 群組 後重新啟動 wolftable"}
	}
	if dev != "" {
		what += " " + dev
	}
	return Remedy{"wolftable 使用者沒有權限使用" + what,
		fmt.Sprintf("執行 sudo adduser wolftable %s，再 sudo systemctl restart wolftable（在終端機以自己的帳號執行時，把 wolftable 換成你的帳號並重新登入）", group)}
}

var devRE = regexp.MustCompile(`(?i)(/dev/[a-z0-9_./:-]+|/sys/class/gpio[a-z0-9_./-]*)`)

// devicePath is the first device path in s starting with prefix (lower
// case; the path is returned as s writes it), without trailing
// punctuation; "" when there is none.
func devicePath(s, prefix string) string {
	for _, m := range devRE.FindAllString(s, -1) {
		m = strings.TrimRight(m, ".:")
		if strings.HasPrefix(strings.ToLower(m), prefix) {
			return m
		}
	}
	return ""
}

var usbIDRE = regexp.MustCompile(`(?i)usb id ([0-9a-f]{4}):([0-9a-f]{4})`)

// noBridge: no serial port has the config's USB IDs; the ports the machine
// has say whether the bridge is another model or not plugged in.
func noBridge(raw string) Remedy {
	want := "設定的 USB ID"
	if m := usbIDRE.FindStringSubmatch(raw); m != nil {
		want = "USB ID " + strings.ToUpper(m[1]+":"+m[2])
	}
	var ports []Port
	if Ports != nil {
		ports, _ = Ports()
	}
	sort.Slice(ports, func(i, j int) bool { return ports[i].Name < ports[j].Name })
	if len(ports) == 0 {
		return Remedy{"找不到 " + want + " 的座位面板橋接板，這台 Pi 也沒有任何 USB 序列裝置",
			"接上橋接板（換一條能傳資料的 USB 線：有些線只能充電）；sudo dmesg | tail 看 Pi 是否認得它"}
	}
	var seen []string
	for _, p := range ports {
		s := fmt.Sprintf("%s（USB ID %s:%s", p.Name, strings.ToUpper(p.VID), strings.ToUpper(p.PID))
		if p.Product != "" {
			s += "，" + p.Product
		}
		seen = append(seen, s+"）")
	}
	p := ports[0]
	return Remedy{"找不到 " + want + " 的座位面板橋接板；這台 Pi 上的 USB 序列裝置：" + strings.Join(seen, "、"),
		fmt.Sprintf("若其中之一就是橋接板（另一款板子或韌體），在設定檔 [serial] 寫 vid = %q 與 pid = %q（或 port = %q），再重新啟動 wolftable；都不是的話，請接上橋接板",
			strings.ToLower(p.VID), strings.ToLower(p.PID), p.Name)}
}
