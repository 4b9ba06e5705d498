package review

import (
	"context"
	"io/fs"
	"sync"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review/diff"
)

// Scope selects which claims a review judges.
type Scope string

// The review scopes.
const (
	// ScopeChanged judges claims whose text the diff adds or edits.
	ScopeChanged Scope = "changed"
	// ScopeAffected judges changed claims plus unchanged claims that mention
	// a symbol the diff changes, renames or removes, and the doc comments of
	// declarations whose code the diff changes. It is the default.
	ScopeAffected Scope = "affected"
	// ScopeAll judges every claim of the repository at head.
	ScopeAll Scope = "all"
)

// ParseScope validates a scope name; the empty string means [ScopeAffected]
// and any name other than changed, affected or all gives a *[UsageError].
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case "":
		return ScopeAffected, nil
	case ScopeChanged, ScopeAffected, ScopeAll:
		return Scope(s), nil
	}
	return "", &UsageError{Msg: "unknown scope " + quote(s) + " (want changed, affected or all)"}
}

// Workspace is what extractors and judges see of the repository: both sides
// of the diff and the evidence layer built at head.
type Workspace struct {
	// Dir is the repository root on disk.
	Dir string
	// Base and Head are the commit SHAs compared; Head is "worktree" when
	// uncommitted changes are included. Base is empty when the head commit
	// has no parent.
	Base, Head string
	// BaseFS and HeadFS hold the repository's files at Base and Head,
	// with slash-separated paths relative to the root. BaseFS is nil when
	// Base is empty.
	BaseFS, HeadFS fs.FS
	// HeadFiles lists the text files at head (after the size, binary and
	// UTF-8 checks), sorted. They are all evidence; Reviewed tells which of
	// them the review takes claims from.
	HeadFiles []string
	// Reviewed reports whether the review takes claims from the file at
	// path, by the request's include and exclude globs; nil means every
	// file. A file left out is still evidence: a link to it resolves, its
	// symbols are known, the index holds its text.
	Reviewed func(path string) bool
	// Diff lists the files the diff touches, in git's order.
	Diff []diff.File
	// Symbols is the Go symbol table of the module at head.
	Symbols *retrieval.Symbols
	// Index is the lexical index of the repository at head.
	Index *retrieval.Index
	// Retriever fuses the evidence channels at head (lexical over Index,
	// structural over Symbols; no dense channel unless the caller sets
	// Retriever.Dense). [Engine.Load] sets it; it is nil in a Workspace
	// built by hand, and judges must then do without it.
	Retriever *retrieval.Retriever
	// Scope is the scope the review judges claims in; [Engine.Review] sets
	// it. The zero value means a diff review: judges may stay silent about
	// gaps that pre-date the diff, which only [ScopeAll] audits.
	Scope Scope
	// History answers questions about the commits before Head; nil when
	// there is no repository history to ask (a Workspace built by hand).
	History History
	// Docs reads the claims of one file's contents the way the review's
	// extractor does, for judges that compare a claim with the file's
	// other claims or with its base version. [Engine.Load] sets it to the
	// Extractor when that is a [DocReader]; nil means no judge can read
	// other claims.
	Docs DocReader
	// Types keeps the standard library's type information for every load
	// of Go symbols the review makes (the head's, and the base's where a
	// judge needs it); nil keeps nothing between loads.
	Types *retrieval.TypeCache

	cleanup []func() error

	// shared holds the values of Shared; nil (a Workspace built by hand)
	// computes every time. Copies of a Workspace share it.
	shared *sharedStore
}

// sharedStore holds the values of [Workspace.Shared].
type sharedStore struct {
	mu sync.Mutex
	m  map[any]*sharedEntry
}

// sharedEntry is one value of [Workspace.Shared].
type sharedEntry struct {
	once sync.Once
	v    any
	err  error
}

// Shared returns the workspace's value for key, computing it with compute
// on first use: what several judges (or one judge over many claims) derive
// from the same diff and files, such as the changed symbols or a parsed
// base file, is computed once per review. Concurrent callers of one key
// wait for the one computation; an error is kept like a value. Keys are
// compared with ==; each package uses key types of its own so that keys
// never collide, and a key must capture everything its value depends on
// (copies of a Workspace share the values). A Workspace not made by
// [Engine.Load] computes every time.
func (w *Workspace) Shared(key any, compute func() (any, error)) (any, error) {
	if w == nil || w.shared == nil {
		return compute()
	}
	w.shared.mu.Lock()
	if w.shared.m == nil {
		w.shared.m = make(map[any]*sharedEntry)
	}
	e, ok := w.shared.m[key]
	if !ok {
		e = &sharedEntry{}
		w.shared.m[key] = e
	}
	w.shared.mu.Unlock()
	e.once.Do(func() { e.v, e.err = compute() })
	return e.v, e.err
}

// History is the repository's past as judges may consult it, within a
// time budget of their own choosing (through ctx).
type History interface {
	// RemovedIn returns the most recent commit reachable from the head
	// that removed a Go declaration of name ("Flush", "Store.Purge") and
	// added none; false when none is found cheaply.
	RemovedIn(ctx context.Context, name string) (Commit, bool, error)
}

// Commit identifies a commit of the repository's history.
type Commit struct {
	SHA, Short string
	Date       string // YYYY-MM-DD
	Subject    string
	// Added lists what the commit declared in place of the removed name,
	// in the same form ("Hold", "Store.Hold"); one entry suggests a
	// rename.
	Added []string
}

// Extractor finds the claims a review judges.
type Extractor interface {
	// Extract returns the claims of ws selected by scope, sorted by path and
	// line, and notes on files it could not fully read.
	Extract(ctx context.Context, ws *Workspace, scope Scope) ([]Claim, []Note, error)
}

// DocReader reads the claims of one file's contents (a Go file's doc
// comments, a Markdown file's paragraphs and code blocks), without
// selecting them by diff or scope: Changed is false on each.
type DocReader interface {
	FileClaims(path string, src []byte) ([]Claim, error)
	// TextMentions returns the mentions of a piece of prose (a sentence
	// of a claim) found without resolving any name: doc links, backticked
	// code, literals, paths, flags; Line counts from 1.
	TextMentions(text string) []Mention
}

// Judge labels claims. Rules and the LLM judge implement it.
type Judge interface {
	// Name is the stable name reported in verdicts ("stale-reference").
	Name() string
	// Judge returns a contradicted or incomplete verdict for c, or nil when
	// it finds nothing wrong or the claim is outside its remit. An error
	// marks the claim skipped with the error as the reason.
	Judge(ctx context.Context, ws *Workspace, c Claim) (*Verdict, error)
}

// Unverifier is a [Judge] that can also say which names of a claim it
// could not check: declared in something the review could not load, or
// words that may be prose. The engine lists them on the claim's verdict
// as Unverified, so that a consistent label never vouches for them.
type Unverifier interface {
	Unverified(ctx context.Context, ws *Workspace, c Claim) []string
}

// UsageError is an error in what the user asked for (a bad flag value, an
// unknown ref); commands exit 2 on it.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func quote(s string) string { return "\"" + s + "\"" }
