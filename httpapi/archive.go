package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// archiveRequest is the body of POST /v1/archive; every field is
// optional.
type archiveRequest struct {
	Before *time.Time `json:"before"`
	DryRun bool       `json:"dry_run"`
}

// decodeArchive reads the body of POST /v1/archive at now. before
// defaults to now less after, the server's --archive-after; with none (0)
// it is required. It may not be after now nor before the Unix epoch.
func decodeArchive(body []byte, now time.Time, after time.Duration) (store.ArchiveParams, error) {
	req, err := decodeJSON[archiveRequest](body)
	if err != nil {
		return store.ArchiveParams{}, err
	}
	p := store.ArchiveParams{Now: now, DryRun: req.DryRun}
	switch {
	case req.Before != nil:
		p.Before = truncate(*req.Before)
	case after > 0:
		p.Before = now.Add(-after)
	default:
		return p, invalid("before", "is required: the server archives nothing by itself (--archive-after 0)")
	}
	if p.Before.After(now) || p.Before.Before(time.Unix(0, 0)) {
		return p, invalid("before", "must be between 1970-01-01T00:00:00Z and now")
	}
	return p, nil
}

// archiveJSON answers POST /v1/archive: what moved to the archive and
// what was pruned, or would have been in a dry run.
type archiveJSON struct {
	Before    string `json:"before"`
	DryRun    bool   `json:"dry_run"`
	Coupons   int64  `json:"coupons"`
	Orders    int64  `json:"orders"`
	Reminders int64  `json:"reminders"`
}

// archive serves POST /v1/archive: one archive run now, as the engine's
// periodic one (see store.DB.Archive), answered once it is done. Runs
// beside the engine's are safe: each batch takes rows no other holds. An
// Idempotency-Key is checked but records nothing: a retry runs again and
// moves only what is left.
func (s *server) archive(w http.ResponseWriter, r *http.Request) {
	var p store.ArchiveParams
	mutate(s, w, r, http.StatusOK, func(ctx context.Context, _ *store.Idempotency, body []byte, now time.Time) (storetype.Archived, error) {
		var err error
		if p, err = decodeArchive(body, now, s.archiveAfter); err != nil {
			return storetype.Archived{}, err
		}
		a, err := s.store.Archive(ctx, p)
		if err == nil && !p.DryRun {
			// An operation leaves no event: the log records who ran it.
			s.log.InfoContext(ctx, "httpapi: archive run", slog.Time("before", p.Before), slog.Int64("coupons", a.Coupons),
				slog.Int64("orders", a.Orders), slog.Int64("reminders", a.Reminders), slog.String("actor", store.Actor(ctx)))
		}
		return a, err
	}, func(a storetype.Archived, _ time.Time) archiveJSON {
		return archiveJSON{Before: formatTime(p.Before), DryRun: p.DryRun, Coupons: a.Coupons, Orders: a.Orders, Reminders: a.Reminders}
	})
}
