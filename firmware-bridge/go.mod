module wolftable/firmware-bridge

go 1.24

require (
	github.com/creack/pty v1.1.24
	golang.org/x/sys v0.33.0
	tinygo.org/x/drivers v0.37.0
)

require github.com/tinygo-org/pio v0.3.0 // indirect
