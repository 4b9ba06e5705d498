// Package clitree reads the command line a Go program defines from its
// source: the command tree of a program built with cobra (and pflag),
// urfave/cli v2 or v3 or kong, or the flags and subcommand dispatch of
// one using the standard flag package. Only constant names are read;
// whatever may define more than was read leaves the tree open (see
// [Node]).
package clitree

import (
	"slices"
	"strconv"
	"strings"

	"github.com/docreview/docreview/retrieval"
)

// The import paths of the command-line frameworks whose command trees the
// package reads.
const (
	cobraPath  = "github.com/spf13/cobra"
	pflagPath  = "github.com/spf13/pflag"
	urfave2    = "github.com/urfave/cli/v2"
	urfave3    = "github.com/urfave/cli/v3"
	kongPath   = "github.com/alecthomas/kong"
	stdFlagImp = "flag"
)

// Tree is a command tree read from cobra, urfave/cli or kong code.
type Tree struct {
	Root      *Node
	Framework string // "cobra", "urfave/cli" or "kong"
	// Names are the names the program gives itself (cobra's root Use,
	// urfave's Name, kong.Name), besides its directory's.
	Names []string
}

// Node is one command of a framework-built tree.
type Node struct {
	Name    string   // the command's name; "" or "\x00" when it was not read
	Aliases []string // its other names
	Def     Pos      // where it is defined
	// Flags holds the command's own flags by long name and shorthand,
	// without dashes; Inherit those its descendants accept too (cobra's
	// persistent flags, kong's and urfave's parent flags).
	Flags, Inherit map[string]Flag
	Subs           []*Node
	// SubsOpen and FlagsOpen are set when a subcommand or flag may exist
	// that was not read; TakesArgs when a word that is no subcommand may be
	// a positional argument.
	SubsOpen, FlagsOpen, TakesArgs bool
	version                        bool // a version flag is built in
	runnable                       bool // cobra: Run or RunE is set
	Builtin                        bool // added by the framework
	hasParent                      bool
}

// Flag is one flag of a Node.
type Flag struct {
	Def   Pos       // where the flag is defined
	Long  string    // the flag's long name, for messages
	Value ValueKind // whether it reads the next word as its value
}

// ValueKind says whether a flag takes a value.
type ValueKind int

// The kinds of flag values.
const (
	ValueUnknown ValueKind = iota // it may or may not read the next word
	ValueYes                      // it reads the next word as its value
	ValueNo                       // it takes no value (a bool flag)
)

// Pos is where a command, a flag or a dispatch switch is defined.
type Pos struct {
	Path string
	Line int
}

// NewNode returns an empty command defined at def.
func NewNode(def Pos) *Node {
	return &Node{Def: def, Flags: map[string]Flag{}, Inherit: map[string]Flag{}}
}

// NewBuiltin returns a subcommand named name that a framework adds on its
// own (help, completion): it is open (see [Node]), so nothing is known of
// the words that follow it.
func NewBuiltin(name string, def Pos) *Node {
	n := NewNode(def)
	n.Name, n.SubsOpen, n.FlagsOpen, n.TakesArgs, n.Builtin = name, true, true, true, true
	return n
}

// Child returns the subcommand of n named or aliased w, or nil.
func (n *Node) Child(w string) *Node {
	for _, s := range n.Subs {
		if s.Name == w || slices.Contains(s.Aliases, w) {
			return s
		}
	}
	return nil
}

// AddFlag records a flag of n defined at def with its shorthand ("" for
// none), among the flags n's descendants inherit when persistent is set.
func (n *Node) AddFlag(persistent bool, name, short string, def Pos, v ValueKind) {
	f := Flag{Def: def, Long: name, Value: v}
	m := n.Flags
	if persistent {
		m = n.Inherit
	}
	m[name] = f
	if short != "" {
		m[short] = f
	}
}

// Walk calls f once on every command of the tree under n (n included),
// parents first, with its depth below n; commands deeper than 20 are not
// visited.
func (n *Node) Walk(f func(m *Node, depth int)) {
	seen := map[*Node]bool{}
	var walk func(m *Node, depth int)
	walk = func(m *Node, depth int) {
		if seen[m] || depth > 20 {
			return
		}
		seen[m] = true
		f(m, depth)
		for _, s := range slices.Clone(m.Subs) {
			walk(s, depth+1)
		}
	}
	walk(n, 0)
}

// IsCommandName reports whether w looks like a subcommand name: a lower-case
// letter, then lower-case letters, digits and dashes.
func IsCommandName(w string) bool {
	for i, r := range w {
		if !(r >= 'a' && r <= 'z' || i > 0 && (r == '-' || r >= '0' && r <= '9')) {
			return false
		}
	}
	return w != ""
}

// ImportName returns the package name import path ip is used by without
// an explicit name: its last element, skipping a major version suffix.
func ImportName(ip string) string {
	parts := strings.Split(ip, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2]
	}
	return last
}

// cliFrameworks are the import paths of command-line libraries: a main
// package importing one is read as that framework's command tree when it
// is cobra, urfave/cli v2 or v3 or kong (see frameworkOf), and is not
// read otherwise.
var cliFrameworks = []string{
	"github.com/spf13/cobra", "github.com/spf13/pflag", "github.com/urfave/cli", "github.com/alecthomas/kong",
	"github.com/jessevdk/go-flags", "github.com/peterbourgon/ff",
}

// Framework returns the command-line framework main package p uses, itself
// or through the module packages it imports, as [Read] takes it: "" for
// none (then [ReadStd] reads it). ok is false when the framework cannot be
// read: p imports several, or pflag without cobra. A framework the
// package does not read (go-flags, ff, urfave/cli v1) is returned with ok
// set, and [Read] returns nil for it.
func Framework(syms *retrieval.Symbols, p *retrieval.Package) (fw string, ok bool) {
	return frameworkOf(localImports(syms, p))
}

// frameworkOf returns the framework the packages use ("" for none) and
// whether it can be read: false when they import pflag alone, or more than
// one.
func frameworkOf(pkgs []*retrieval.Package) (string, bool) {
	found := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for ip := range importNames(f) {
				under := func(root string) bool { return ip == root || strings.HasPrefix(ip, root+"/") }
				switch {
				case under(cobraPath):
					found["cobra"] = true
				case under(urfave2):
					found[urfave2] = true
				case under(urfave3):
					found[urfave3] = true
				case under(kongPath):
					found["kong"] = true
				case under(pflagPath):
					// read with cobra; alone, not at all
					found["pflag"] = true
				default:
					for _, fw := range cliFrameworks {
						if under(fw) {
							found[fw] = true
						}
					}
				}
			}
		}
	}
	if found["cobra"] {
		delete(found, "pflag")
	}
	if len(found) == 0 {
		return "", true
	}
	if len(found) > 1 {
		return "", false
	}
	for fw := range found {
		if fw == "pflag" {
			return "", false
		}
		return fw, true
	}
	return "", false
}

// localImports returns p and the module packages it imports, directly or
// not, that are loaded.
func localImports(syms *retrieval.Symbols, p *retrieval.Package) []*retrieval.Package {
	byPath := map[string]*retrieval.Package{}
	for _, q := range syms.Packages() {
		if q.ImportPath != "" && q.Info != nil {
			byPath[q.ImportPath] = q
		}
	}
	seen := map[*retrieval.Package]bool{p: true}
	out := []*retrieval.Package{p}
	for i := 0; i < len(out) && len(out) < 200; i++ {
		for _, f := range out[i].Syntax {
			for _, imp := range f.Imports {
				ip, _ := strconv.Unquote(imp.Path.Value)
				if q := byPath[ip]; q != nil && !seen[q] && q.Name != "main" {
					seen[q] = true
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// Read reads the command tree of main package p built with framework fw
// (as [Framework] returns it) from p and the module packages it imports.
// It returns nil when the tree cannot be found.
func Read(syms *retrieval.Symbols, p *retrieval.Package, fw string) *Tree {
	pkgs := localImports(syms, p)
	switch fw {
	case "cobra":
		return readCobra(p, pkgs)
	case urfave2, urfave3:
		return readUrfave(p, pkgs, fw)
	case "kong":
		return readKong(p, pkgs)
	}
	return nil
}
