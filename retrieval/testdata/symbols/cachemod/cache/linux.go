//go:build linux && (amd64 || arm64)

package cache

// LinuxOnly is built on linux.
func LinuxOnly() {}
