// Package lost is a fixture of the missing-contract rule: each function's
// doc loses, keeps or rewords a sentence stating its contract.
package lost

import (
	"errors"
	"fmt"
	"strconv"
)

// ID is an identifier.
type ID [4]byte

// ErrHelp is returned when help was asked for.
var ErrHelp = errors.New("help requested")

// ErrNotFound is returned when nothing matches.
var ErrNotFound = errors.New("not found")

// FromBytes creates a new ID from a byte slice. The bytes in the slice are
// copied.
func FromBytes(b []byte) (ID, error) {
	var id ID
	err := id.unmarshal(b)
	return id, err
}

func (id *ID) unmarshal(b []byte) error {
	if len(b) != 4 {
		return fmt.Errorf("invalid ID (got %d bytes)", len(b))
	}
	copy(id[:], b)
	return nil
}

// Parse parses the arguments. Call it before any flag is read.
func Parse(args []string) error {
	if err := parseArgs(args); err != nil {
		return err
	}
	return nil
}

func parseArgs(args []string) error {
	for _, a := range args {
		if a == "-help" {
			return ErrHelp
		}
	}
	return nil
}

// Template returns the route's template.
func Template(path string) (string, error) {
	if path == "" {
		return "", errors.New("no path")
	}
	return path, nil
}

// Must returns the value of s.
func Must(ss []string) []int {
	var out []int
	for _, s := range ss {
		n, err := strconv.Atoi(s)
		switch {
		case err != nil:
			panic(err)
		default:
			out = append(out, n)
		}
	}
	return out
}

// Lookup returns the entry of key.
func Lookup(m map[string]*ID, key string) *ID {
	id, ok := m[key]
	if !ok {
		return nil // unknown
	}
	return id
}

// Reflowed returns the number in s.
// Returns an error if s is not a number.
func Reflowed(s string) (int, error) {
	return strconv.Atoi(s)
}

// Typo returns the number in s. Returns an error if s is not a number.
func Typo(s string) (int, error) {
	return strconv.Atoi(s)
}

// Reworded returns the number in s. It fails when s holds no digits.
func Reworded(s string) (int, error) {
	return strconv.Atoi(s)
}

// NoError returns the length of s.
func NoError(s string) int {
	return len(s)
}

// NilOnly returns the length of s.
func NilOnly(s string) (int, error) {
	return len(s), nil
}

// Moved returns the number in s.
//
// It accepts signs. Returns an error if s is not a number.
func Moved(s string) (int, error) {
	return strconv.Atoi(s)
}

// NotAboutErrors returns the number in s. It may return an error.
func NotAboutErrors(s string) (int, error) {
	return strconv.Atoi(s)
}

// parse returns the number in s.
func parse(s string) (int, error) {
	return strconv.Atoi(s)
}

// Old returns the number in s.
//
// Deprecated: use strconv.Atoi.
func Old(s string) (int, error) {
	return strconv.Atoi(s)
}

// Widened returns the number in s.
func Widened(s string) (int64, error) {
	return strconv.ParseInt(s, 10, 64)
}

// Named returns ErrHelp if -help is among args.
func Named(args []string) error {
	return parseArgs(args)
}

// Never returns the number in s.
func Never(s string) (int, error) {
	return strconv.Atoi(s)
}

// Find returns the ID of name.
func Find(m map[string]ID, name string) (ID, error) {
	id, ok := m[name]
	if !ok {
		return ID{}, ErrNotFound
	}
	return id, nil
}

// Bare returns the number in s.
func Bare(s string) (n int, err error) {
	n, err = strconv.Atoi(s)
	return
}
