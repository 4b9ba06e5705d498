// Package vault keeps secrets in memory.
package vault

import (
	"errors"
	"strings"
)

// ErrNotFound is returned for a missing secret.
var ErrNotFound = errors.New("vault: not found")

// ErrClosed is returned after Close.
var ErrClosed = errors.New("vault: closed")

// Vault holds secrets by name.
type Vault struct {
	closed  bool
	secrets map[string]string
}

// Open looks up the secret stored under name and hands back its value
// to the caller for use.
func (v *Vault) Open(name string) (string, error) {
	s, ok := v.secrets[name]
	if !ok {
		return "", ErrNotFound
	}
	return s, nil
}

// Fetch hands back the secret stored under name.
func (v *Vault) Fetch(name string) (string, error) {
	name = strings.TrimSpace(name)
	s, ok := v.secrets[name]
	if !ok {
		return "", ErrNotFound
	}
	return s, nil
}

// Get hands back the secret stored under name.
func (v *Vault) Get(name string) (string, error) {
	if v.closed {
		return "", ErrClosed
	}
	return v.secrets[name], nil
}

// Seal seals the Vault.
func (v *Vault) Seal(reason string) int {
	n := len(v.secrets)
	v.secrets = nil
	return n
}

// Purge purges the Vault.
func (v *Vault) Purge(keep string) {
	for k := range v.secrets {
		if k != keep {
			delete(v.secrets, k)
		}
	}
}

// ErrBadName is returned for a name with spaces.
var ErrBadName = errors.New("vault: bad name")

// Check reports whether name may be stored.
func Check(name string) (bool, error) {
	if strings.Contains(name, " ") {
		return false, ErrBadName
	}
	return true, nil
}

// Size is a count of secrets.
type Size int

// Size returns the size.
func (v *Vault) Size() Size {
	return Size(len(v.secrets))
}

// Count returns the count.
func (v *Vault) Count() int {
	return len(v.secrets)
}
