package remedy

import (
	"context"
	"log/slog"
)

// Handler passes log records on to next, adding to a record whose err,
// reason or detail names a misconfiguration a remedy attribute: what to
// do, in Chinese, for the technician reading the system log
// (journalctl -u wolftable). The record is otherwise unchanged.
func Handler(next slog.Handler) slog.Handler { return &handler{next} }

type handler struct{ next slog.Handler }

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	var add *Remedy
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "err", "error", "reason", "detail":
			if rem, ok := ForText(a.Value.String()); ok {
				add = &rem
				return false
			}
		}
		return true
	})
	if add != nil {
		r = r.Clone()
		r.AddAttrs(slog.String("remedy", add.Problem+"："+add.Fix))
	}
	return h.next.Handle(ctx, r)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler { return &handler{h.next.WithAttrs(as)} }

func (h *handler) WithGroup(name string) slog.Handler { return &handler{h.next.WithGroup(name)} }
