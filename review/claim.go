package review

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"
)

// Kind says where a claim comes from.
type Kind string

// The kinds of claim docreview extracts.
const (
	// KindDocComment is a Go doc comment of a package, type, func, method,
	// struct field, const or var.
	KindDocComment Kind = "doc-comment"
	// KindMarkdown is a paragraph, list item or fenced code block of a
	// Markdown file.
	KindMarkdown Kind = "markdown"
	// KindExample is the doc comment or body of a Go Example function.
	KindExample Kind = "example"
)

// MentionKind classifies a [Mention].
type MentionKind string

// The kinds of mention the extractor records.
const (
	// MentionDocLink is a Go doc link: [Name], [pkg.Name], [Type.Method].
	MentionDocLink MentionKind = "doclink"
	// MentionCode is a backticked identifier or expression: `Cache.Purge`.
	MentionCode MentionKind = "code"
	// MentionIdent is a bare identifier-like word of prose that resolves or
	// nearly resolves to a name in the module (CamelCase, dotted, snake_case).
	MentionIdent MentionKind = "ident"
	// MentionLiteral is a number with a unit: "30s", "100 entries", "5 MB".
	MentionLiteral MentionKind = "literal"
	// MentionPath is a relative file path or Markdown link target.
	MentionPath MentionKind = "path"
	// MentionFlag is a command-line flag: "--fail-on", "-v".
	MentionFlag MentionKind = "flag"
	// MentionBlock is a fenced or indented code block; Lang holds its
	// language and Text its body. A Markdown heading that is one Go
	// signature in a code span is a block of language [LangGoSignature].
	MentionBlock MentionKind = "block"
)

// LangGoSignature is the language of a [MentionBlock] that a Markdown
// heading made: one Go signature ("func (c *Compiler) Compile(schema
// []byte) (*Schema, error)"), to compare with the declaration, not to
// compile.
const LangGoSignature = "go-signature"

// Mention is something a claim refers to that can be checked against the
// repository.
type Mention struct {
	Kind MentionKind
	// Text is the mention as written, without brackets or backticks; for
	// blocks, the code.
	Text string
	// Line and EndLine are the 1-based lines of the claim's file the mention
	// spans.
	Line, EndLine int
	// Lang is the language of a code block ("go", "sh", ...); empty for
	// other kinds and for blocks without one.
	Lang string
	// Value and Unit are set for literals: 30 and "s" for "30s".
	Value float64
	Unit  string
}

// Claim is one unit of documentation that can be right or wrong on its own:
// a doc comment, a Markdown paragraph, list item or code block.
type Claim struct {
	// ID is a stable fingerprint of Path, Symbol and the normalised Text;
	// see [Fingerprint].
	ID string
	// Path is slash-separated and relative to the repository root.
	Path string
	// Line and EndLine are the 1-based lines the documentation text covers.
	Line, EndLine int
	Kind          Kind
	// Symbol is the Go symbol a doc comment belongs to ("Cache.Purge",
	// "Options.Timeout", "package cache"); empty for Markdown.
	Symbol string
	// Package is the slash-separated directory of the Go package a doc
	// comment belongs to, relative to the repository root ("." for the
	// root); empty for Markdown.
	Package string
	// Context is the heading path of a Markdown claim ("Install > From
	// source"); empty for doc comments.
	Context string
	// Text is the documentation text, without comment markers.
	Text string
	// Changed is true when the diff adds or edits this claim's text.
	Changed bool
	// Mentions lists what the text refers to, in order of appearance.
	Mentions []Mention
	// Note, when non-empty, says why the claim could not be fully extracted
	// (for example, its Go file does not parse); such claims are reported as
	// skipped with this reason.
	Note string
}

// Fingerprint returns the stable claim ID for a path, symbol and text: the
// first 16 hex digits of SHA-256 over the three, with the text's whitespace
// collapsed, so re-flowing a comment keeps its ID.
func Fingerprint(path, symbol, text string) string {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write([]byte(symbol))
	h.Write([]byte{0})
	h.Write([]byte(strings.Join(strings.Fields(text), " ")))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// AboutPackage reports whether c is documentation of the package in dir:
// a doc comment of that package, or a Markdown file in its directory or a
// parent of it (a README at the root speaks of every package).
func (c Claim) AboutPackage(dir string) bool {
	switch c.Kind {
	case KindDocComment:
		return c.Package == dir
	case KindMarkdown:
		md := path.Dir(c.Path)
		return md == "." || md == dir || strings.HasPrefix(dir, md+"/")
	}
	return false
}
