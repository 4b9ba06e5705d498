// Package squirrel is modelled on Masterminds/squirrel (update.go), whose
// builders are immutable values set one clause at a time.
package squirrel

// UpdateBuilder builds SQL UPDATE statements. Its zero value builds an
// empty statement; every setter returns a modified copy.
type UpdateBuilder struct {
	table  string
	prefix string
}

// Table sets the table to be updated.
func (b UpdateBuilder) Table(table string) UpdateBuilder {
	return b.set("Table", table)
}

// Prefix sets the update builder prefix.
func (b UpdateBuilder) Prefix(sql string) UpdateBuilder {
	if sql == "" {
		return b
	}
	return b.set("Prefix", sql)
}

func (b UpdateBuilder) set(clause, v string) UpdateBuilder {
	switch clause {
	case "Table":
		b.table = v
	case "Prefix":
		b.prefix = v
	}
	return b
}
