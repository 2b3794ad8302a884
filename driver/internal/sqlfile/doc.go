// Package sqlfile is what the SQL drivers share: the named queries and
// numbered migrations they keep in embedded .sql files, the scanning of
// rows, and the storage choices common to the database servers (count
// slots, pool sizes). It holds no business rule.
package sqlfile
