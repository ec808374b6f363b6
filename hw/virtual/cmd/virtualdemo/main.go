// Command virtualdemo runs the virtual table on the terminal with a toy
// game loop, to try the keyboard and the drawing by hand (and for the tmux
// test of hw/virtual):
//
//   - every seat starts green, seat 1 pulses (the speaker);
//   - a seat's OK toggles its light between green and red;
//   - HAND toggles it blue;
//   - the pedal's short press passes the pulse to the next seat, a long
//     press sets every light back to green, a double press turns the
//     speaker's light off.
//
// Ctrl-C (or the end of the input in the plain style) quits.
//
//	go run ./hw/virtual/cmd/virtualdemo [-seats 12] [-plain]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"wolftable/hw"
	"wolftable/hw/virtual"
)

func main() {
	seats := flag.Int("seats", 12, "number of seats (6..18)")
	plain := flag.Bool("plain", false, "plain line-oriented style even on a terminal")
	flag.Parse()
	if err := run(*seats, *plain); err != nil {
		fmt.Fprintln(os.Stderr, "virtualdemo:", err)
		os.Exit(1)
	}
}

func run(seats int, plain bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := []virtual.Option{virtual.WithSeats(seats)}
	if plain {
		opts = append(opts, virtual.WithStyle(virtual.Plain))
	}
	table, err := virtual.OpenTerminal(os.Stdin, os.Stdout, opts...)
	if err != nil {
		return err
	}
	defer table.Close()

	lights := make([]hw.SeatLight, seats)
	for i := range lights {
		lights[i].Color = hw.Green
	}
	speaker := 0
	lights[speaker].Pulse = true
	if err := table.SetLights(lights); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-table.Events():
			if !ok {
				return nil
			}
			switch ev.Kind {
			case hw.EventLink:
				if !ev.Link.Up {
					return nil // the input ended
				}
				continue
			case hw.EventKey:
				if ev.Key.Edge != hw.Down {
					continue
				}
				l := &lights[ev.Key.Seat-1]
				switch ev.Key.Key {
				case hw.KeyOK:
					if l.Color == hw.Red {
						l.Color = hw.Green
					} else {
						l.Color = hw.Red
					}
				case hw.KeyHand:
					if l.Color == hw.Blue {
						l.Color = hw.Green
					} else {
						l.Color = hw.Blue
					}
				default:
					continue
				}
			case hw.EventPedal:
				switch ev.Pedal {
				case hw.PedalShort:
					lights[speaker].Pulse = false
					speaker = (speaker + 1) % seats
					lights[speaker].Pulse = true
				case hw.PedalLong:
					for i := range lights {
						lights[i].Color = hw.Green
					}
				case hw.PedalDouble:
					lights[speaker].Color = hw.Off
				}
			}
			if err := table.SetLights(lights); err != nil {
				return err
			}
		}
	}
}
