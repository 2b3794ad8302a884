package storetype

// SchemaChange is what opening a store did to its schema. A version is a
// migration's number, the same on every store; the schema's is the
// highest its database records, 0 for a new one.
type SchemaChange struct {
	// From and To are the schema's versions before and after.
	From, To int
	// Applied names the migrations applied, in order: none if the schema
	// was up to date.
	Applied []string
	// Renumbered is set when the database recorded its store's own
	// numbering, from before every store shared one, and now records the
	// shared one.
	Renumbered bool
}
