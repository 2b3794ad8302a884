package sqlfile

import (
	"fmt"
	"io/fs"
	"strings"
)

// Queries holds named SQL statements. In a .sql file each statement is
// introduced by a line `-- name: Name` and runs to the next such line.
type Queries map[string]string

// LoadQueries reads every .sql file of fsys matching pattern.
func LoadQueries(fsys fs.FS, pattern string) (Queries, error) {
	files, err := fs.Glob(fsys, pattern)
	if err != nil {
		return nil, err
	}
	q := Queries{}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		name := ""
		for _, line := range strings.Split(string(b), "\n") {
			if n, ok := strings.CutPrefix(strings.TrimSpace(line), "-- name:"); ok {
				name = strings.TrimSpace(n)
				if _, dup := q[name]; dup {
					return nil, fmt.Errorf("%s: query %q defined twice", f, name)
				}
				q[name] = ""
				continue
			}
			if name != "" {
				q[name] += line + "\n"
			}
		}
	}
	for n, s := range q {
		q[n] = strings.TrimSpace(s)
	}
	return q, nil
}

// MustLoadQueries is LoadQueries for embedded files known at build time.
func MustLoadQueries(fsys fs.FS, pattern string) Queries {
	q, err := LoadQueries(fsys, pattern)
	if err != nil {
		panic(err)
	}
	return q
}

// Get returns the named statement; a missing name is a programming error.
func (q Queries) Get(name string) string {
	s, ok := q[name]
	if !ok || s == "" {
		panic("sqlfile: no query named " + name)
	}
	return s
}
