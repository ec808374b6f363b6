package serial

import (
	"context"
	"time"

	"wolftable/firmware-bridge/protocol"
)

// DefaultProbeTimeout bounds Probe when ctx has no deadline.
const DefaultProbeTimeout = 3 * time.Second

// probeStatsWait bounds how long Probe waits for the Stats after the Hello.
const probeStatsWait = 500 * time.Millisecond

// Probe opens the bridge cfg describes, shakes hands, asks its Stats (for
// Info.LastReset) and closes it again, without touching the lights: what
// the bridge is, or why it does not answer. It waits for Hello until ctx's
// deadline, or DefaultProbeTimeout; a bridge that answers Hello but not
// StatsRequest in time is still found, its LastReset unknown. cfg.Seats and
// cfg.KeysPerSeat, if set, are checked as Open checks them.
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
	hs, err := handshake(ctx, c, &dec, wanted{seats: cfg.Seats, keys: cfg.KeysPerSeat, software: cfg.Software}, time.Until(deadline))
	if err != nil {
		return hs.info, err
	}
	return probeStats(ctx, c, &dec, hs), nil
}

// probeStats asks the bridge its Stats after the handshake and reads them
// into the Info, answering the bridge's Pings meanwhile and taking its
// version 2 Hello if one follows the first.
func probeStats(ctx context.Context, c *conn, dec *protocol.Decoder, hs handshakeResult) Info {
	info := hs.info
	c.send(&protocol.StatsRequest{})
	wait := time.NewTimer(probeStatsWait)
	defer wait.Stop()
	for p := hs.rest; ; {
		for len(p) > 0 {
			n, f, err := dec.Feed(p)
			p = p[n:]
			if err != nil || f.Type == 0 {
				continue
			}
			m, _ := f.Message()
			switch m := m.(type) {
			case *protocol.Hello:
				info.Protocol = max(info.Protocol, int(m.Protocol))
			case *protocol.Ping:
				c.send(&protocol.Pong{Nonce: m.Nonce})
			case *protocol.Stats:
				info.LastReset = m.ResetReason
				return info
			}
		}
		select {
		case r := <-c.rx:
			if r.err != nil {
				return info
			}
			p = r.data
		case <-wait.C:
			return info
		case <-ctx.Done():
			return info
		}
	}
}
