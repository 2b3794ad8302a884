package store

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// CreateTemplate stores p.Template under a new ID.
func (db *DB) CreateTemplate(ctx context.Context, p CreateTemplateParams) (coupon.Template, error) {
	return validated(p, func() (coupon.Template, error) {
		return mutate(ctx, db, p.Idem, func(t *txn) (coupon.Template, error) {
			tp := p.Template
			tp.ID = NewID("tpl", p.Now)
			tp.CreatedAt = p.Now
			tp.Version = 1
			return tp, t.InsertTemplate(t.ctx, tp)
		})
	})
}

// Template returns a template and its counts, unused coupons past their
// expires_at at p.Now counted as expired.
func (db *DB) Template(ctx context.Context, p TemplateParams) (storetype.TemplateInfo, error) {
	return read(ctx, db, func(x driver.Executor) (storetype.TemplateInfo, error) {
		info, due, err := x.TemplateInfo(ctx, driver.TemplateInfoParams{ID: p.ID, Now: p.Now})
		if err != nil {
			return info, err
		}
		info.Counts[coupon.Unused] -= due
		info.Counts[coupon.Expired] += due
		return info, nil
	})
}

// Templates lists a page of templates by ID; newest first, a first page
// starts before every template ID.
func (db *DB) Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error) {
	if p.Newest && p.After == "" {
		p.After = newestFirst("tpl")
	}
	return read(ctx, db, func(x driver.Executor) ([]coupon.Template, error) { return x.Templates(ctx, p) })
}

// ChangeTemplate changes a template as p.Change says (see changeTemplateIn).
func (db *DB) ChangeTemplate(ctx context.Context, p ChangeTemplateParams) (coupon.Template, error) {
	return mutateValid(ctx, db, p, p.Idem, changeTemplateIn)
}

// CloseTemplate closes a template (see closeTemplateIn).
func (db *DB) CloseTemplate(ctx context.Context, p CloseTemplateParams) (coupon.Template, error) {
	return mutateValid(ctx, db, p, p.Idem, closeTemplateIn)
}
