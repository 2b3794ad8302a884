package sqlite

import (
	"crypto/md5"
	"database/sql/driver"
	"encoding/json"
	"fmt"

	"github.com/lapsehq/lapse/storetype"
	"modernc.org/sqlite"
)

// The drains' queries call lapse_shard(id), so it is registered for every
// connection the driver opens: the store's, and a tool's in this process.
func init() {
	sqlite.MustRegisterDeterministicScalarFunction("lapse_shard", 1, shardFunc)
}

// shardOf is the shard of the row with ID id: the low four bits of the MD5
// of the ID, as PostgreSQL and MySQL compute it (storetype.Shards is 16).
func shardOf(id string) int64 {
	sum := md5.Sum([]byte(id))
	return int64(sum[len(sum)-1] % storetype.Shards)
}

// shardFunc is lapse_shard in SQL: NULL for NULL, the shard of a text ID.
func shardFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	switch id := args[0].(type) {
	case nil:
		return nil, nil
	case string:
		return shardOf(id), nil
	default:
		return nil, fmt.Errorf("lapse_shard: want a text ID, got %T", id)
	}
}

// shardFilter is the argument a drain's query takes for the shards of ls:
// their JSON array, or the empty string when there are none and the drain
// covers every shard, which keeps lapse_shard out of the walk.
func shardFilter(ls storetype.Leases) string {
	if len(ls) == 0 {
		return ""
	}
	return jsonShards(ls.Shards())
}

// jsonShards is shards as a JSON array, for json_each.
func jsonShards(shards []int) string {
	b, _ := json.Marshal(shards) // a []int always marshals
	return string(b)
}
