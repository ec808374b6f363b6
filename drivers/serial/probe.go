package serial

import (
	"context"
	"time"

	"wolftable/firmware-bridge/protocol"
)

// DefaultProbeTimeout bounds Probe when ctx has no deadline.
const DefaultProbeTimeout = 3 * time.Second

// Probe opens the bridge cfg describes, shakes hands and closes it again,
// without touching the lights: what the bridge is, or why it does not
// answer. It waits for Hello until ctx's deadline, or DefaultProbeTimeout.
// cfg.Seats, if set, is checked as Open checks it.
func Probe(ctx context.Context, cfg Config) (Info, error) {
	cfg.WaitLink = 0
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Info{}, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultProbeTimeout)
		defer cancel()
	}
	deadline, _ := ctx.Deadline()
	path := cfg.Port
	if path == "" {
		if path, err = findBridge(cfg.VID, cfg.PID, cfg.Logger); err != nil {
			return Info{}, err
		}
	}
	c, err := openPort(path, cfg.Baud)
	if err != nil {
		return Info{}, err
	}
	defer c.close()
	var dec protocol.Decoder
	hs, err := handshake(ctx, c, &dec, cfg.Seats, cfg.Software, time.Until(deadline))
	return hs.info, err
}
