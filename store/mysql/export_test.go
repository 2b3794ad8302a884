package mysql

// QueryText returns the named embedded query with its list, if it has
// one, written out for n elements: for tests that read how the server
// plans it.
func QueryText(name string, n int) string {
	q := queries.Get(name)
	if n > 0 {
		q = expand(q, n)
	}
	return q
}
