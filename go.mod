module wolftable

go 1.26

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/chromedp/chromedp v0.23.0 // indirect
	github.com/coreos/go-systemd/v22 v22.7.0 // indirect
	github.com/creack/pty v1.1.24 // indirect
	github.com/ebitengine/oto/v3 v3.4.0 // indirect
	github.com/ebitengine/purego v0.9.0 // indirect
	github.com/go-audio/audio v1.0.0 // indirect
	github.com/go-audio/riff v1.0.0 // indirect
	github.com/go-audio/wav v1.1.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/hajimehoshi/go-mp3 v0.3.4 // indirect
	github.com/mozillazg/go-pinyin v0.21.0 // indirect
	github.com/pelletier/go-toml/v2 v2.4.3 // indirect
	go.bug.st/serial v1.8.0 // indirect
	golang.org/x/sys v0.43.0 // indirect
	periph.io/x/conn/v3 v3.7.3 // indirect
	periph.io/x/devices/v3 v3.7.4 // indirect
	periph.io/x/host/v3 v3.8.5 // indirect
	wolftable/firmware-bridge v0.0.0-00010101000000-000000000000
)

// The seat-panel bridge firmware is a module of its own (TinyGo builds it,
// with an older Go): the host uses its protocol, core and emulator from here.
replace wolftable/firmware-bridge => ./firmware-bridge
