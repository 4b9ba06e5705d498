package retrieval

// Symbols is the Go symbol table of a module at one commit.
type Symbols struct {
}
