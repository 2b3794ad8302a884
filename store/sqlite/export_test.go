package sqlite

// QueryText returns the text of the named embedded query, for tests that
// inspect how SQLite plans it.
func QueryText(name string) string { return queries.Get(name) }
