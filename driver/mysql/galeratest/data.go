package galeratest

import (
	"os"
	"os/exec"
	"path/filepath"
)

// setUp is what the cluster holds before it starts, beside MariaDB's
// system tables: root from 127.0.0.1 without a password, the user HAProxy
// checks the nodes with, lapse's database and the table WaitWritable
// writes to. (mariadb-install-db runs it without its grant tables
// loaded: FLUSH PRIVILEGES loads them.)
const setUp = `FLUSH PRIVILEGES;
CREATE USER IF NOT EXISTS root@'127.0.0.1';
GRANT ALL ON *.* TO root@'127.0.0.1' WITH GRANT OPTION;
CREATE USER IF NOT EXISTS haproxy@'127.0.0.1';
CREATE DATABASE ` + Database + `;
CREATE DATABASE galeratest;
CREATE TABLE galeratest.probe (id INT PRIMARY KEY, at DATETIME(6) NOT NULL) ENGINE = InnoDB;
`

// initData gives the first node mariadb-install-db's data directory,
// with setUp; the others receive a copy as they join (a state transfer
// by rsync).
func (c *Cluster) initData() {
	c.t.Helper()
	extra := filepath.Join(c.dir, "setup.sql")
	if err := os.WriteFile(extra, []byte(setUp), 0o644); err != nil {
		c.t.Fatal(err)
	}
	out, err := exec.Command("mariadb-install-db", "--defaults-file="+c.writeConfig(c.Nodes[0]),
		"--auth-root-authentication-method=normal", "--skip-test-db", "--extra-file="+extra).CombinedOutput()
	if err != nil {
		c.t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	for _, n := range c.Nodes[1:] {
		c.writeConfig(n)
		if err := os.Mkdir(n.datadir(c.dir), 0o700); err != nil {
			c.t.Fatal(err)
		}
		c.ownedByMySQL(n.datadir(c.dir))
	}
}
