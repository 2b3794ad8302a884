package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// pageBackTail is the most a page before a cursor takes after its last
// event.
const pageBackTail = len(`],"next":"9223372036854775807","prev":"9223372036854775807"}`)

// eventsBefore serves GET /v1/events?before=<cursor>: of the limit asked
// events at or before the cursor, the last ones that pass the filters
// and fit in maxEventsPage bytes, in feed order. next is the cursor
// itself, so a client that follows it reads what comes after the page;
// prev is the cursor to ask before next, to read the page before: the
// position before the page's first event read, or "0" when no event is
// stored before it. The page is an index range of the feed wherever it
// is (see Records): "before=latest" reads the head of a feed of any
// length in constant time.
func (s *server) eventsBefore(w http.ResponseWriter, r *http.Request, p eventsQuery) {
	if !p.Latest {
		end, err := s.store.FeedEnd(r.Context())
		if err == nil && p.Before > end {
			err = invalid("before", fmt.Sprintf("is past the end of the feed, %d: use latest or a cursor that a page answered", end))
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
	}
	win, err := s.readBefore(r.Context(), p)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var page bytes.Buffer
	page.WriteString(`{"events":[`)
	page.Write(bytes.Join(win.kept, []byte{','}))
	fmt.Fprintf(&page, `],"next":"%d","prev":"%d"}`, p.Before, win.prev)
	write(w, http.StatusOK, "application/json", page.Bytes())
}

// window is the end of a span of the feed: the encoded events that pass
// a page's filters, the last ones that fit in a page, and prev, the
// cursor before the first event of the span it still holds.
type window struct {
	kept  [][]byte
	seqs  []int64
	size  int
	prev  int64
	first bool // no event read yet
}

// readBefore reads the feed's span of p.Limit positions that ends at
// p.Before, in reads bounded as an ordinary page's are, keeping its end.
func (s *server) readBefore(ctx context.Context, p eventsQuery) (window, error) {
	from := max(0, p.Before-int64(p.Limit))
	win := window{first: true}
	for at := from; at < p.Before; {
		evs, err := s.store.Events(ctx, store.EventsParams{After: at, Limit: int(p.Before - at), MaxBytes: maxEventsPage})
		if err != nil || len(evs) == 0 {
			return win, err
		}
		for _, e := range evs {
			if e.Seq > p.Before {
				return win, nil
			}
			if win.first && e.Seq == from+1 {
				win.prev = from // else the feed's front is past the span's start: nothing is stored before it
			}
			win.first, at = false, e.Seq
			if err := win.add(p, e); err != nil {
				return win, err
			}
		}
	}
	return win, nil
}

// add adds e, if it passes p's filters, dropping the window's first
// events while the page would overflow (keeping e): the page before then
// starts before the first one kept.
func (win *window) add(p eventsQuery, e storetype.Event) error {
	if !p.keeps(e) {
		return nil
	}
	b, err := encodeEvent(e)
	if err != nil {
		return err
	}
	win.kept, win.seqs, win.size = append(win.kept, b), append(win.seqs, e.Seq), win.size+len(b)+1
	for len(win.kept) > 1 && len(`{"events":[`)+win.size+pageBackTail > maxEventsPage {
		win.size -= len(win.kept[0]) + 1
		win.kept, win.seqs = win.kept[1:], win.seqs[1:]
		win.prev = win.seqs[0] - 1
	}
	return nil
}
