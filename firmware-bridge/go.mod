module wolftable/firmware-bridge

go 1.24

require (
	github.com/creack/pty v1.1.24
	github.com/tinygo-org/pio v0.3.0
	golang.org/x/sys v0.33.0
)
