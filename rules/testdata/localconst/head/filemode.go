package backoff

import "os"

const defaultPerm os.FileMode = 0o600

func open(name string, perm os.FileMode) error { return nil }

// TempFile creates the file. The file's permissions will be 0644. You can
// change these by calling Chmod.
func TempFile(name string) error {
	return open(name, defaultPerm)
}

// WriteAll writes the file with mode 0o644.
func WriteAll(name string, b []byte) error {
	return os.WriteFile(name, b, 0o644)
}

// Mkdir makes a directory with permissions 0755.
func Mkdir(name string) error {
	if err := os.MkdirAll(name, 0o755); err != nil {
		return err
	}
	return os.WriteFile(name+"/x", nil, 0o600)
}

// Save writes with the caller's permission bits, 0600 by convention.
func Save(name string, perm os.FileMode) error {
	return os.WriteFile(name, nil, perm)
}
