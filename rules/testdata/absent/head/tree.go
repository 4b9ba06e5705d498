// Package tree builds trees.
package tree

import (
	"context"
	"net/http"
)

// Command is a command of the tree.
type Command struct {
	Name string
}

// ExecuteContext runs the command with ctx.
func (c *Command) ExecuteContext(ctx context.Context) error { return ctx.Err() }

// ExecuteC runs the command and returns it.
func (c *Command) ExecuteC() (*Command, error) { return c, nil }

// RegisterFlagCompletion registers a completion for a flag.
func (c *Command) RegisterFlagCompletion(name string) error { return nil }

// Frob calls [Command.NoSuchMethod] on the tree.
func Frob() {}

// Foo calls [Bar].
func Foo() {}

// Run runs the command. Call `Command.ExecuteCtx` to pass a context.
func Run() {}

// Old registers nothing.
//
// Deprecated: It is recommended to instead use c.RegisterFlagCompletionFunc(...).
func (c *Command) Old() {}

// Complete calls c.RegisterFlagCompletion for every flag.
func (c *Command) Complete() {}

// Walk visits the tree; it calls setupEdgeField first, then MaxTableSize.
func Walk() {}

// Hello mentions GitHub, PostgreSQL and JavaScript, iPhone, gRPC and macOS,
// and writes to a ResponseWriter, like "NoSuchThingHere" would.
func Hello(w http.ResponseWriter) {}

// Serve serves with the ServeMux of the caller and calls Walk().
func Serve() {}

// Close releases the tree; CloseAll() closes every tree.
func Close() {}

// Response is a page of results.
type Response struct {
	Next string `json:"nextPageToken"`
}

// Page returns the nextPageToken of the response.
func Page(r Response) string { return r.Next }

// Depth bounds the walk by maxDepthValue.
func Depth() int {
	maxDepthValue := 3
	return maxDepthValue
}

// Sentinel documents errors, for example ErrTreeMissing or ErrNoBranch.
func Sentinel() {}

// MaxTreeDepth bounds the depth of a tree.
const MaxTreeDepth = 64

// Tune tunes the tree; the limit is MaxTreeLevel levels.
func Tune() {}

// Retire retires the tree. The previous RetireAllTrees was removed, and
// unlike LegacyTreeWalker it keeps the root. The `tree.WithRetireHook`
// option has been removed.
func Retire() {}

// Reroot moves a tree under a new root.
//
// # Breaking changes
//
// Call WalkFromRoot() on trees built by v1.
func Reroot() {}

// TreeWalkerExample to demonstrate basic usage of Walk.
func main() {}

// Prune removes dead leaves, passing control to pruneLeaf for each.
func Prune() {}

// TreeNode implements the walking of grafted trees.
func Graft() {}

// OpenTelemetry support for trees.
func Trace() {}

// Plant grows a tree from the seed the parent WithGardener chose.
func Plant() {}

// Span measures the distance between two trees.
//
// Span(treeOnLeft, treeOnRight) -> 3
func Span() {}

// Fetch implements the RoundTripper interface, as all RoundTrippers do; see ExampleFetch().
func Fetch() {}

// RoundTrip sends a tree over the wire.
func RoundTrip() {}

// Hook is called on every tree change.
type Hook interface{ Fire() }

// AddHook adds a hook: call `AddHook(new(MyHook))` where `MyHook` implements
// the `Hook` interface, or pass a BazHook.
func AddHook(h Hook) {}

// Index maps names to trees: a map[treeName]map[leafName]*Command.
type Index map[string]map[string]*Command

// Handle handles a tree.
func Handle() {}

// Page layout of a node:
// | nodeID (8 bytes) | leafBits (1 byte) | keys |
type Layout struct{}
