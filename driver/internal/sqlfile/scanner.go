package sqlfile

// Scanner is one row as database/sql and pgx hand it out.
type Scanner interface {
	Scan(dest ...any) error
}
