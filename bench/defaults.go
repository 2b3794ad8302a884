package bench

// orDefault is a setting of a bench's config as it runs: def where v is
// zero or negative (unset), else v.
func orDefault[T ~int | ~int64 | ~float64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}
