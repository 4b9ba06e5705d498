package cache

// WindowsOnly exists only on Windows.
func WindowsOnly() {}
