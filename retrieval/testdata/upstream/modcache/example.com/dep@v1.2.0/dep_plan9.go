package dep

// Plan9Only is in a file only plan9 builds include.
func Plan9Only() {}
