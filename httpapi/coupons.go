package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Lock TTLs.
const (
	// defaultLockTTL is how long a lock holds when the request names no
	// ttl, or the maximum if that is shorter.
	defaultLockTTL = 15 * time.Minute
	// DefaultMaxLockTTL is the longest lock a request may ask when
	// Config.MaxLockTTL is 0: an unpaid order's default timeout. A lock
	// taken in time is honoured past the coupon's expires_at, so this is
	// also how long past it a coupon may still be redeemed.
	DefaultMaxLockTTL = 30 * time.Minute
)

// couponJSON is a coupon as the API writes it.
type couponJSON struct {
	ID          string  `json:"id"`
	TemplateID  string  `json:"template_id"`
	UserID      string  `json:"user_id"`
	Status      string  `json:"status"`
	ClaimedAt   string  `json:"claimed_at"`
	ExpiresAt   string  `json:"expires_at"`
	OrderID     *string `json:"order_id"`
	LockedUntil *string `json:"locked_until"`
	UpdatedAt   string  `json:"updated_at"`
}

// couponView is c as read at now: the lazy check applied.
func couponView(c coupon.Coupon, now time.Time) couponJSON {
	c = c.View(now)
	return couponJSON{
		ID:          c.ID,
		TemplateID:  c.TemplateID,
		UserID:      c.UserID,
		Status:      c.Status.String(),
		ClaimedAt:   formatTime(c.ClaimedAt),
		ExpiresAt:   formatTime(c.ExpiresAt),
		OrderID:     optionalString(c.OrderID),
		LockedUntil: formatOptionalTime(c.LockedUntil),
		UpdatedAt:   formatTime(c.UpdatedAt),
	}
}

// claimRequest is the body of POST /v1/users/{user_id}/coupons.
type claimRequest struct {
	TemplateID string `json:"template_id"`
}

// decodeClaim returns the template a claim names.
func decodeClaim(body []byte) (templateID string, err error) {
	req, err := decodeJSON[claimRequest](body)
	if err != nil {
		return "", err
	}
	return req.TemplateID, nil
}

// claim serves POST /v1/users/{user_id}/coupons.
func (s *server) claim(w http.ResponseWriter, r *http.Request) {
	mutateDecoded(s, w, r, http.StatusCreated, untimed(decodeClaim), func(ctx context.Context, templateID string, idem *store.Idempotency, now time.Time) (coupon.Coupon, error) {
		return s.store.Claim(ctx, store.ClaimParams{TemplateID: templateID, UserID: r.PathValue("user_id"), Now: now, Idem: idem})
	}, couponView)
}

// Bodies of the coupon transitions.
type (
	lockRequest struct {
		OrderID string    `json:"order_id"`
		TTL     *duration `json:"ttl"`
	}
	orderRequest struct {
		OrderID string `json:"order_id"`
	}
	// reasonRequest is the body of a void, and of a template's close.
	reasonRequest struct {
		Reason string `json:"reason"`
	}
)

// decodeTransition decodes the body of act's endpoint into the params of
// store.Transition, less CouponID and Now. A lock's ttl may be at most
// maxLockTTL.
func decodeTransition(act coupon.Action, body []byte, maxLockTTL time.Duration) (store.TransitionParams, error) {
	p := store.TransitionParams{Action: act}
	switch act {
	case coupon.Lock:
		req, err := decodeJSON[lockRequest](body)
		if err != nil {
			return p, err
		}
		p.OrderID, p.LockTTL, p.MaxLockTTL = req.OrderID, min(defaultLockTTL, maxLockTTL), maxLockTTL
		if req.TTL != nil {
			p.LockTTL = time.Duration(*req.TTL)
		}
	case coupon.Void:
		req, err := decodeJSON[reasonRequest](body)
		if err != nil {
			return p, err
		}
		p.Reason = req.Reason
	default:
		req, err := decodeJSON[orderRequest](body)
		if err != nil {
			return p, err
		}
		p.OrderID = req.OrderID
	}
	return p, nil
}

// transition serves POST /v1/coupons/{id}/<act>.
func (s *server) transition(act coupon.Action) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		decode := func(body []byte, _ time.Time) (store.TransitionParams, error) {
			return decodeTransition(act, body, s.maxLockTTL)
		}
		mutateDecoded(s, w, r, http.StatusOK, decode, func(ctx context.Context, p store.TransitionParams, idem *store.Idempotency, now time.Time) (coupon.Coupon, error) {
			p.CouponID, p.Now, p.Idem = r.PathValue("id"), now, idem
			return s.store.Transition(ctx, p)
		}, couponView)
	}
}

// getCoupon serves GET /v1/coupons/{id}.
func (s *server) getCoupon(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	c, err := s.store.Coupon(r.Context(), r.PathValue("id"))
	s.writeResult(w, r, err, func() any { return couponView(c, now) })
}

// parseStatusQuery returns the status filter of a coupon list; zero lists
// all.
func parseStatusQuery(q url.Values) (coupon.State, error) {
	if !q.Has("status") {
		return 0, nil
	}
	st, err := coupon.ParseState(q.Get("status"))
	if err != nil {
		return 0, invalid("status", "must be one of unused, locked, used, expired, voided")
	}
	return st, nil
}

// parseIncludeQuery reads ?include=archived: whether the wallet lists
// archived coupons too.
func parseIncludeQuery(q url.Values) (bool, error) {
	if !q.Has("include") {
		return false, nil
	}
	if q.Get("include") != "archived" || len(q["include"]) > 1 {
		return false, invalid("include", "must be archived")
	}
	return true, nil
}

// defaultWalletLimit is the page size of a wallet when the request names
// none; the most is storetype.MaxWalletPage.
const defaultWalletLimit = 100

// parseWalletQuery reads ?status=<state>&include=archived&after=<id>&limit=<n>:
// a page of a wallet, by coupon ID, after the ID of the last coupon a
// client has seen (see parseAfterID). Now and UserID are the caller's.
func parseWalletQuery(q url.Values) (storetype.UserCouponsParams, error) {
	var p storetype.UserCouponsParams
	var err error
	if p.Status, err = parseStatusQuery(q); err != nil {
		return p, err
	}
	if p.Archived, err = parseIncludeQuery(q); err != nil {
		return p, err
	}
	if p.After, err = parseAfterID(q); err != nil {
		return p, err
	}
	p.Limit, err = parseLimit(q, defaultWalletLimit, storetype.MaxWalletPage)
	return p, err
}

// userCoupons serves GET /v1/users/{user_id}/coupons[?status=…][&include=archived][&after=…&limit=…]:
// a page of the user's coupons by ID, the lazy check applied.
func (s *server) userCoupons(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	p, err := parseWalletQuery(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p.UserID, p.Now = r.PathValue("user_id"), now
	cs, err := s.store.UserCoupons(r.Context(), p)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writePage(w, "coupons", cs, p.After, func(c coupon.Coupon) string { return c.ID },
		func(c coupon.Coupon) couponJSON { return couponView(c, now) })
}
