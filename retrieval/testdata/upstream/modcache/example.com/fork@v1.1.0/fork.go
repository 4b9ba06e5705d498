package old

// Forked is in the fork that replaces example.com/old.
func Forked() {}
