// Package gocheck type-checks the Go code blocks of documentation (from
// Markdown, a doc comment or an Example body) against a repository's
// symbol table, [retrieval.Symbols], the way a reader pasting them would
// compile them, and reports the mistakes they make about the repository's
// API. It is the checker of the go-snippet rule; the symbol table stays
// the evidence layer and knows nothing of it.
//
//	syms, err := retrieval.LoadSymbols(ctx, headFS, files, logger)
//	...
//	for _, is := range gocheck.Check(ctx, syms, "cache", code, earlierBlocks) {
//		fmt.Println(is.Line, is.Kind, is.Message) // 2 unknown-member type *cache.Cache has no field or method Purge
//	}
package gocheck

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/docreview/docreview/retrieval"
)

// IssueKind classifies an [Issue].
type IssueKind string

// The kinds of snippet issue.
const (
	// UnknownName: a repository package has no such name
	// ("cache.NewCache"), a standard package has none (Issue.Std:
	// "os.GetEnv"), or an imported repository or standard package does
	// not exist.
	UnknownName IssueKind = "unknown-name"
	// UnknownMember: a repository type has no such field or method,
	// also as a key of a composite literal; or a standard library type has
	// no such field or method (Issue.Std).
	UnknownMember IssueKind = "unknown-member"
	// WrongArgs: a call of a repository function or method has the
	// wrong number or types of arguments.
	WrongArgs IssueKind = "wrong-args"
	// MissingImport: a complete file uses a repository or standard
	// package it does not import.
	MissingImport IssueKind = "missing-import"
	// Undeclared: the snippet uses a name neither it nor the
	// blocks before it declare (a missing prerequisite).
	Undeclared IssueKind = "undeclared"
	// Syntax: the snippet is not valid Go.
	Syntax IssueKind = "syntax"
	// Other: another mistake about the repository's API, such as
	// assigning the results of a repository function to the wrong number
	// of variables.
	Other IssueKind = "other"
	// Compile: the snippet's own code does not compile whatever
	// the API: `:=` with no new variable on its left, a duplicate key in a
	// map or struct literal, the results of a repository function assigned
	// to the wrong number of variables or used where one value goes.
	Compile IssueKind = "compile"
	// Redefined: `:=` declares again, with no new variable, the names an
	// earlier statement of the same block declared and the statements
	// between used. Alone, such a block may be a gallery of alternatives
	// ("resp, err := client.Get(…)", then "… := client.Post(…)"); in a
	// program whose blocks run on inside one function body it does not
	// compile. The caller, which knows the document, decides.
	Redefined IssueKind = "redefined"
	// WrongType: a value of the wrong type where a repository type
	// is expected or given: a field of a repository struct literal, an
	// assignment, a variable declaration or a return (a pointer where the
	// field holds a value, binding.Form where a BindingBody is wanted).
	WrongType IssueKind = "wrong-type"
	// Unqualified: a name of the package the block is written for, used
	// bare in a block that writes that package's other names with their
	// qualifier ("gofakeit.AddFuncLookup(…, Info{…})"): read from outside
	// the package, as the qualifier says, it is undefined. Closest holds
	// the qualified name.
	Unqualified IssueKind = "unqualified"
	// WrongImport: an import of a path the repository does not
	// provide while it provides the same path under another major version
	// (github.com/x/y for github.com/x/y/v2).
	WrongImport IssueKind = "wrong-import"
	// Renamed: a name the block declares nowhere stands for one it
	// declares and never uses, of a kind that fits where the name is
	// used: the declaration was renamed and a use kept the old name
	// (gomock's "func TestFoo(t *testing.T)" calling
	// "gomock.NewController(st)"). Closest holds the declared name.
	Renamed IssueKind = "renamed-local"
)

// Issue is a problem [Check] found in a code snippet.
type Issue struct {
	Kind IssueKind
	// Line is 1-based within the snippet.
	Line int
	// Message explains the issue in a sentence.
	Message string
	// Name is the identifier concerned: "cache.NewCache" for a package
	// member, "Purge" for a type member, "cache.New" or "Cache.Purge" for a
	// call, the import path for a missing package.
	Name string
	// Package is the import path of the package Name was looked up in,
	// when known.
	Package string
	// Std is set for an unknown member of a standard library type
	// ("http.ResponseWriter" has no "Heaedr"); Closest then holds the
	// type's unique close exported member name, when there is one. It is
	// set too for a name a standard library package does not declare
	// ("os.GetEnv"), with Closest the one it declares in other letter
	// case ("Getenv").
	Std     bool
	Closest string
	// Absent is set for an UnknownName or UnknownMember the package or
	// type declares in no form at all, not merely unexported: the
	// package's own code could not use it either.
	Absent bool
	// Also is, for a MissingImport of a repository package, a standard
	// library path that declares the names the snippet uses just as well
	// ("log" beside the module's own log package): which one the reader
	// means is not certain.
	Also string
}

// checker checks snippets against one symbol table.
type checker struct {
	syms *retrieval.Symbols
}

// snipElided replaces "..." placeholders in snippets.
const snipElided = "_elided"

// snipKind is what a code block parses as.
type snipKind int

const (
	snipFileKind snipKind = iota
	snipDecls
	snipStmts
)

// snipBlock is a code block ready to be assembled into files.
type snipBlock struct {
	kind    snipKind
	imports []string // import specs of a fragment: `"fmt"`, `c "example.com/cache"`
	body    string
	src     bool // the snippet checked, not prelude
}

// snipFile is an assembled file: blocks placed after a one-line header.
type snipFile struct {
	name    string
	text    string
	segs    []snipSeg
	ast     *ast.File
	auto    map[string]string // import name -> path added automatically
	foreign map[string]bool   // paths of auto that stand for another package of their name
	dotIP   string            // package dot-imported automatically
	// unqualified are the names of the package a block is written for
	// that it uses bare while it writes that package's other names with
	// their qualifier ("gofakeit.AddFuncLookup(…, Info{…})"): not
	// dot-imported, and reported. Each maps to its package: the block's
	// own, or the one module package it qualifies that declares the name
	// (bubbles's README writes key.WithKeys and, a line below, WithKeys).
	unqualified map[string]*retrieval.Package
	// recv declares undeclared receivers as the one module type with
	// every member the block selects from them: name -> "*minio.Client".
	recv map[string]string
	// shared are the imports of earlier blocks that import only, which
	// a declaration block's file sees too: Go scopes imports by file.
	shared []string
}

// snipSeg places a block in a file.
type snipSeg struct {
	block      int
	start, end int // file lines of the block's first and last lines
}

// Check type-checks a Go code block (from Markdown, a doc comment or an
// Example body) written for the package in fromDir (slash-separated,
// relative to the root of the repository syms was loaded from) and reports
// the mistakes it makes about the repository's API, sorted by line.
//
// A block with a package clause is checked as a file: its imports of
// repository and standard packages must resolve, and using such a package
// without importing it is a [MissingImport]. Any other block is a
// fragment, checked as statements in a function body or else as
// declarations; repository and standard packages it uses are imported
// automatically, and the exported names of fromDir's package are visible
// unqualified. prelude holds earlier Go blocks of the same document: what
// they declare counts as declared, and issues inside them are not
// reported. "..." placeholders (`LoadSymbols(...)`, a line of "...") are allowed
// and make the call or literal they stand in unchecked.
//
// Only issues about the repository's own API, unknown members of standard
// library types, or a missing prerequisite are reported; mistakes
// involving third-party packages (never loaded) or their values, unused
// variables and imports, and missing returns never are. ctx bounds the go
// command runs needed for standard packages not loaded yet.
//
// Check is safe for concurrent use, also with the queries of syms.
func Check(ctx context.Context, syms *retrieval.Symbols, fromDir string, src string, prelude []string) []Issue {
	if strings.TrimSpace(src) == "" || ctx.Err() != nil {
		return nil
	}
	s := &checker{syms: syms}
	src, uncommented := snipCommentedDecls(src, prelude)
	iss := s.check(ctx, syms.Package(fromDir), src, prelude, 0)
	if uncommented == nil {
		return iss
	}
	// A declaration the block gives in a comment tells the reader what
	// a name is; its own mistakes are the comment's, not the code's.
	return slices.DeleteFunc(iss, func(is Issue) bool { return uncommented[is.Line] })
}

// snipMaxRepairs bounds the lines a block that does not parse may lose
// before the rest is checked.
const snipMaxRepairs = 3

// check is [Check] for one source; repairs counts the lines already
// replaced by their braces because they did not parse.
func (s *checker) check(ctx context.Context, from *retrieval.Package, src string, prelude []string, repairs int) []Issue {
	if strings.TrimSpace(src) == "" {
		return nil // a block whose one line did not parse
	}
	if line := snipGluedFence(src); line > 0 {
		return []Issue{{Kind: Syntax, Line: line,
			Message: "the closing ``` is glued to the code on this line, so Markdown does not end the block here: it runs on into the text that follows"}}
	}
	src = s.snipLocalPaths(ctx, src)
	wrongImports := s.snipWrongImports(src)
	for _, w := range wrongImports {
		if w.Closest != "" {
			// A misspelt path means this package: check the rest against it.
			src = strings.ReplaceAll(src, strconv.Quote(w.Name), strconv.Quote(w.Package))
		}
	}
	if snipHasPackage(src) && !snipImports(src) {
		// A file that imports nothing leaves its imports to the reader
		// (gorilla/mux's "package main" beside its handlers): it is
		// read as declarations, whose packages are implied.
		src = snipBlankPackage(src)
	}
	mains, iss := snipPrepare(src)
	if iss != nil {
		if snipConditionOnly(src) {
			// "if filter.Test([]byte("Love"))": the condition of an
			// if, a for or a switch, shown without its body.
			return nil
		}
		if fixed, ok := snipDropTrailingComma(src); ok {
			if _, again := snipPrepare(fixed); again == nil {
				// "&ast.Field{…}," : an element lifted out of a list,
				// its comma kept; without it, the rest is checked.
				return s.check(ctx, from, fixed, prelude, repairs)
			}
		}
		if iss.Message == "syntax error: expected '}', found 'EOF'" {
			// A body the block leaves open ("func main() {" with its
			// first lines, the next block going on inside it): closed,
			// the rest is checked.
			for closers := "\n}"; len(closers) <= 3*len("\n}"); closers += "\n}" {
				if _, again := snipPrepare(src + closers); again == nil {
					return s.check(ctx, from, src+closers, prelude, repairs)
				}
			}
		}
		if snipElisionLine(src, iss.Line) {
			// A line of dots ("       ....") stands for code left out:
			// no finding, but the rest is checked without it.
			return s.snipRepaired(ctx, from, src, prelude, *iss, repairs)
		}
		if snipNotCode(src, iss.Line) || snipSeveralFiles(iss.Message) {
			return nil
		}
		if tops := snipTopDecls(src); len(tops) > 1 {
			// Declarations side by side ("func TestFoo…", "func
			// TestBar…"): the ones that parse are checked on their own,
			// the one that does not is repaired alone.
			out := []Issue{*iss}
			for _, t := range tops {
				var got []Issue
				if t.start < iss.Line && iss.Line <= t.start+t.lines {
					local := *iss
					local.Line -= t.start
					got = s.snipRepaired(ctx, from, t.text, prelude, local, repairs)
				} else {
					got = s.check(ctx, from, t.text, prelude, repairs)
				}
				for _, g := range got {
					g.Line += t.start
					out = append(out, g)
				}
			}
			slices.SortStableFunc(out, func(a, b Issue) int { return cmp.Compare(a.Line, b.Line) })
			return out
		}
		return append([]Issue{*iss}, s.snipRepaired(ctx, from, src, prelude, *iss, repairs)...)
	}
	full := mains[0].kind == snipFileKind
	// Only a complete file declares all it uses: a fragment that lists
	// some imports shows the ones it is about ("import lo" above a
	// strconv.FormatInt), and a file with an elision among its imports or
	// declarations ("// ...") left the rest out on purpose. Elsewhere the
	// packages a block uses are implied.
	strict := full && !snipElidesDecls(mains[0].body)
	var blocks []*snipBlock
	if !full {
		for _, p := range prelude {
			bs, iss := snipPrepare(p)
			if iss != nil {
				continue
			}
			for _, b := range bs {
				if b.kind == snipFileKind {
					// All files of a check share one package name.
					b.body = snipRenamePackage(b.body)
				}
			}
			blocks = append(blocks, bs...)
		}
	}
	for _, b := range mains {
		b.src = true
	}
	blocks = append(blocks, mains...)

	check := func(blocks []*snipBlock) (*token.FileSet, []*snipFile, []types.Error, *types.Info, bool) {
		fset := token.NewFileSet()
		files := snipAssemble(blocks, nil)
		if !snipParse(fset, files) {
			return nil, nil, nil, nil, false
		}
		errs, info := s.snipTypeCheck(ctx, fset, files)
		// Assembled again with what the errors taught (imports, then
		// receivers' types), and checked again.
		again := func() bool {
			fset = token.NewFileSet()
			files = snipAssemble(blocks, files)
			if !snipParse(fset, files) {
				return false
			}
			errs, info = s.snipTypeCheck(ctx, fset, files)
			return true
		}
		if !strict && s.snipAutoImports(ctx, from, files, blocks, errs) && !again() {
			return nil, nil, nil, nil, false
		}
		if !strict && s.snipInferReceivers(ctx, from, files, errs) && !again() {
			return nil, nil, nil, nil, false
		}
		return fset, files, errs, info, true
	}
	fset, files, errs, info, ok := check(blocks)
	if !ok {
		return nil
	}
	if strict && snipElidesAny(mains[0].body) && snipUndefinedValue(files, errs) {
		// A file that leaves statements out ("// ...") and uses values
		// they would declare (watermill's cfg, logger) is an excerpt:
		// its imports are the ones it is about.
		strict = false
	}
	// A block that declares again what the package declares, or methods
	// of the package's types, is the package's own source (a listing of a
	// type, a pattern for contributors): it is written from inside the
	// package and cannot be judged from outside. Such a block is not
	// checked, and an earlier one is no prelude.
	if own := snipOwnSource(from, fset, files); len(own) > 0 {
		for i := range own {
			if blocks[i].src {
				return wrongImports
			}
		}
		blocks = slices.DeleteFunc(slices.Clone(blocks), func(b *snipBlock) bool {
			return own[slices.Index(blocks, b)]
		})
		if fset, files, errs, info, ok = check(blocks); !ok {
			return nil
		}
	}
	issues := wrongImports
	for _, e := range errs {
		if iss, ok := s.snipClassify(ctx, from, fset, files, blocks, info, e, full, strict); ok {
			if (iss.Kind == UnknownName || iss.Kind == UnknownMember) && snipMetasyntactic(iss.Name) {
				continue // a pattern, not a name: "buildfeatures.HasFoo" for any feature foo
			}
			issues = append(issues, iss)
		}
	}
	for _, f := range files {
		for _, name := range slices.Sorted(maps.Keys(f.recv)) {
			if iss, ok := s.snipRenamedVar(fset, f, blocks, info, name); ok {
				issues = append(issues, iss)
			}
		}
		issues = append(issues, s.snipAddrOfUnknown(fset, f, blocks, info)...)
	}
	slices.SortFunc(issues, func(a, b Issue) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), strings.Compare(string(a.Kind), string(b.Kind)),
			strings.Compare(a.Name, b.Name), strings.Compare(a.Message, b.Message))
	})
	issues = slices.CompactFunc(issues, func(a, b Issue) bool {
		return a.Line == b.Line && a.Kind == b.Kind && a.Name == b.Name
	})
	// A missing declaration or import, or a bare name, is reported where
	// it is first used.
	type once struct {
		kind IssueKind
		name string
	}
	seen := make(map[once]bool)
	for _, iss := range issues {
		if iss.Kind == Renamed {
			// One error: its other uses are not inputs.
			seen[once{Undeclared, iss.Name}] = true
		}
	}
	return slices.DeleteFunc(issues, func(iss Issue) bool {
		if iss.Kind != Undeclared && iss.Kind != MissingImport && iss.Kind != Unqualified &&
			(iss.Kind != UnknownName || strings.Contains(iss.Name, ".")) { // a package no one has, once
			return false
		}
		k := once{iss.Kind, iss.Name}
		dup := seen[k]
		seen[k] = true
		return dup
	})
}

// snipTop is one top-level declaration of a block: its text and the
// number of block lines before it.
type snipTop struct {
	text         string
	start, lines int
}

// snipTopDecls splits a block of top-level declarations at each line
// that starts one at the margin ("func …", "type …"); nil when the block
// has anything but blank lines and comments before the first.
func snipTopDecls(src string) []snipTop {
	lines := strings.Split(src, "\n")
	var tops []snipTop
	for i, l := range lines {
		if strings.HasPrefix(l, "func ") || strings.HasPrefix(l, "type ") {
			tops = append(tops, snipTop{start: i})
			continue
		}
		if len(tops) == 0 {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
				return nil
			}
		}
	}
	for i := range tops {
		end := len(lines)
		if i+1 < len(tops) {
			end = tops[i+1].start
		}
		tops[i].text = strings.Join(lines[tops[i].start:end], "\n")
		tops[i].lines = end - tops[i].start
	}
	return tops
}

// Elide returns a block with its elisions ("...", "…", a line of dots)
// written as the placeholder identifier [Check] reads them as.
func Elide(text string) string { return snipElide(text) }

// TopDecls returns the texts of a block's top-level declarations when it
// has several, split as [Check] splits a block that does not parse: at
// each line that starts a func or type at the margin, with nothing but
// comments before the first. It returns nil otherwise.
func TopDecls(text string) []string {
	tops := snipTopDecls(text)
	if len(tops) < 2 {
		return nil
	}
	out := make([]string, len(tops))
	for i, t := range tops {
		out[i] = t.text
	}
	return out
}

// snipRepaired checks what is left of a block that does not parse once
// its line at the syntax error is replaced by the braces it opens or
// closes ("for chunk, err := sr.Recv() {" by "{"), so that a wrong call
// further on ("sw.send(i, nil)") is still found: a reader who fixes the
// syntax meets it next. It returns the issues of the lines that stay, no
// syntax issue, and none on a line that uses a name only a replaced line
// declares (that name is now unbound, or bound to something else). At most
// [snipMaxRepairs] lines are replaced; a block that still does not parse
// gives nothing.
func (s *checker) snipRepaired(ctx context.Context, from *retrieval.Package, src string, prelude []string, syntax Issue, repairs int) []Issue {
	if repairs >= snipMaxRepairs {
		return nil
	}
	fixed, lost, ok := snipRepairLine(src, syntax)
	if !ok {
		return nil
	}
	lines := strings.Split(fixed, "\n")
	var out []Issue
	for _, iss := range s.check(ctx, from, fixed, prelude, repairs+1) {
		if iss.Kind == Syntax || iss.Line < 1 || iss.Line > len(lines) || snipUsesAny(lines[iss.Line-1], lost) {
			continue
		}
		out = append(out, iss)
	}
	return out
}

// snipRepairLine replaces the line of a syntax issue as a reader fixing it
// would, keeping what the rest needs: the braces it opens or closes, or
// the call a go or defer statement lacks. It returns the names the line
// declared and no longer does; false when nothing changes.
func snipRepairLine(src string, syntax Issue) (string, []string, bool) {
	lines := strings.Split(src, "\n")
	line := syntax.Line
	if line < 1 || line > len(lines) {
		return "", nil, false
	}
	if strings.HasSuffix(syntax.Message, " must be function call") {
		// "go func() { … }" without its call: the reader adds "()".
		lines[line-1] += "()"
		return strings.Join(lines, "\n"), nil, true
	}
	braces, ok := snipBraces(lines[line-1])
	if !ok || braces == strings.TrimSpace(lines[line-1]) {
		return "", nil, false
	}
	lost := snipDeclaredOn(lines[line-1])
	lines[line-1] = braces
	return strings.Join(lines, "\n"), lost, true
}

// Repair returns a block with the lines that keep it from parsing
// replaced as [Check] replaces them to check the rest, and how many lines
// it replaced (0 for a block that parses as it is); false when the block
// still does not parse after snipMaxRepairs lines.
func Repair(text string) (fixed string, n int, ok bool) {
	for ; ; n++ {
		_, iss := snipPrepare(text)
		if iss == nil {
			return text, n, true
		}
		if n == snipMaxRepairs {
			return "", n, false
		}
		if text, _, ok = snipRepairLine(text, *iss); !ok {
			return "", n, false
		}
	}
}

// snipBraces returns the braces a line leaves open or closes, in order
// ("} else if x {" gives "} {"), ignoring those in strings and comments;
// false when the line holds no Go tokens the scanner accepts.
func snipBraces(line string) (string, bool) {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	bad := false
	sc.Init(fset.AddFile("", -1, len(line)), []byte(line), func(token.Position, string) { bad = true }, 0)
	var out []string
	for {
		_, tok, _ := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LBRACE:
			out = append(out, "{")
		case token.RBRACE:
			if n := len(out); n > 0 && out[n-1] == "{" {
				out = out[:n-1]
			} else {
				out = append(out, "}")
			}
		}
	}
	if bad {
		return "", false
	}
	return strings.Join(out, " "), true
}

// snipDeclaredOn returns the names a line declares with := or var, const,
// type or func.
func snipDeclaredOn(line string) []string {
	var names []string
	if m := snipDefineRE.FindStringSubmatch(line); m != nil {
		for _, n := range strings.Split(m[1], ",") {
			if n = strings.TrimSpace(n); n != "_" {
				names = append(names, n)
			}
		}
	}
	for _, m := range snipDeclKeywordRE.FindAllStringSubmatch(line, -1) {
		names = append(names, m[1])
	}
	return names
}

var (
	snipDefineRE      = regexp.MustCompile(`^\s*(?:for\s+|if\s+|switch\s+)?((?:[\pL_][\pL\pN_]*\s*,\s*)*[\pL_][\pL\pN_]*)\s*:=`)
	snipDeclKeywordRE = regexp.MustCompile(`\b(?:var|const|type|func)\s+([\pL_][\pL\pN_]*)`)
)

// snipUsesAny reports whether line holds one of names as an identifier.
func snipUsesAny(line string, names []string) bool {
	if len(names) == 0 {
		return false
	}
	var sc scanner.Scanner
	sc.Init(token.NewFileSet().AddFile("", -1, len(line)), []byte(line), nil, 0)
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return false
		}
		if tok == token.IDENT && slices.Contains(names, lit) {
			return true
		}
	}
}

// snipGalleryVar reports whether the value at pos, or a variable the
// assignment holding pos declares, is a variable that a `:=` of the
// files declares again beside a new one: the block is a gallery of
// alternatives that reuse a name, and the types of the reused variable
// belong to one of them only.
func snipGalleryVar(files []*snipFile, info *types.Info, path []ast.Node, pos token.Pos) bool {
	reused := make(map[types.Object]bool)
	for _, f := range files {
		if f.ast == nil {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE {
				return true
			}
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.Defs[id] == nil {
					if obj := info.Uses[id]; obj != nil {
						reused[obj] = true
					}
				}
			}
			return true
		})
	}
	if len(reused) == 0 {
		return false
	}
	for i := len(path) - 1; i >= 0; i-- {
		switch n := path[i].(type) {
		case *ast.Ident:
			if n.Pos() == pos && reused[info.Uses[n]] {
				return true
			}
		case *ast.CallExpr, *ast.CompositeLit:
			// An argument or an element: only its own variable counts.
			return false
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && (reused[info.Uses[id]] || reused[info.Defs[id]]) {
					return true
				}
			}
		}
	}
	return false
}

// snipTypedArgs reports whether every argument of call has a known type:
// none is undeclared, elided or of a package the checker does not load,
// so an inference failure is the call's own.
func (s *checker) snipTypedArgs(call *ast.CallExpr, info *types.Info) bool {
	for _, a := range call.Args {
		tv, ok := info.Types[a]
		if !ok || tv.Type == nil || s.snipHasFake(tv.Type, 0) {
			return false
		}
		if b, ok := tv.Type.(*types.Basic); ok && b.Kind() == types.Invalid {
			return false
		}
	}
	return true
}

// snipStdLiteralArg returns the name and package of a standard library
// function that a literal of the wrong kind is passed to
// ("bytes.NewReader(`{"foo": "bar"}`)": a string where []byte goes): the
// literal's type is certain whatever the block leaves undeclared. A
// package the checker chose for a qualifier the block does not import
// must be the only one of its name the module knows.
// snipStdTypedArg handles "cannot use x (variable of type int) as int64
// value in argument to strconv.FormatInt" where x is a parameter the
// checked block declares with a basic type of its own writing (lo's
// "func(x int, _ int) []string { return []string{strconv.FormatInt(x,
// 10)} }") and the standard function wants another basic type: no reading
// of the block makes that compile.
func (s *checker) snipStdTypedArg(ctx context.Context, f *snipFile, fset *token.FileSet, files []*snipFile, blocks []*snipBlock, call *ast.CallExpr, info *types.Info, pos token.Pos, msg string) (name, ip string, ok bool) {
	if !strings.HasPrefix(msg, "cannot use ") || !strings.Contains(msg, " (variable of type ") {
		return "", "", false
	}
	var v *types.Var
	for _, a := range call.Args {
		if id, isID := ast.Unparen(a).(*ast.Ident); isID && id.Pos() == pos {
			v, _ = info.Uses[id].(*types.Var)
		}
	}
	if v == nil {
		return "", "", false
	}
	if _, basic := v.Type().(*types.Basic); !basic {
		return "", "", false
	}
	// Declared as a parameter of a func literal or declaration of the
	// block itself, with its type written there.
	g, line := snipFileAt(fset, files, v.Pos())
	if g != f {
		return "", "", false
	}
	if seg, own := snipSegAt(g, line); !own || !blocks[seg.block].src {
		return "", "", false
	}
	param := false
	ast.Inspect(f.ast, func(n ast.Node) bool {
		ft, isFT := n.(*ast.FuncType)
		if !isFT || ft.Params == nil {
			return !param
		}
		for _, fl := range ft.Params.List {
			for _, id := range fl.Names {
				if info.Defs[id] == v {
					_, param = fl.Type.(*ast.Ident)
				}
			}
		}
		return !param
	})
	if !param {
		return "", "", false
	}
	return s.snipStdCallee(ctx, f, call, info)
}

// snipStdCallee returns the name and import path of the standard
// function call calls, unless the checker chose its package for a
// qualifier the block does not import and a module package has that name
// too.
func (s *checker) snipStdCallee(ctx context.Context, f *snipFile, call *ast.CallExpr, info *types.Info) (name, ip string, ok bool) {
	sel, fn, ip, ok := s.snipStdFunc(ctx, call, info)
	if !ok {
		return "", "", false
	}
	if q, isIdent := sel.X.(*ast.Ident); isIdent && f.auto[q.Name] != "" && len(s.syms.PackagesNamed(q.Name)) > 0 {
		return "", "", false
	}
	return fn.Pkg().Name() + "." + fn.Name(), ip, true
}

func (s *checker) snipStdLiteralArg(ctx context.Context, f *snipFile, call *ast.CallExpr, info *types.Info, pos token.Pos, msg string) (name, ip string, ok bool) {
	if !strings.HasPrefix(msg, "cannot use ") || !strings.Contains(msg, " (untyped ") {
		return "", "", false
	}
	lit := false
	for _, a := range call.Args {
		if bl, isLit := ast.Unparen(a).(*ast.BasicLit); isLit && bl.Pos() == pos {
			lit = true
		}
	}
	if !lit {
		return "", "", false
	}
	return s.snipStdCallee(ctx, f, call, info)
}

// snipStdFunc returns the selector, the function and its import path
// when call calls a package-level function of the standard library.
func (s *checker) snipStdFunc(ctx context.Context, call *ast.CallExpr, info *types.Info) (*ast.SelectorExpr, *types.Func, string, bool) {
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel {
		return nil, nil, "", false
	}
	fn, isFunc := info.Uses[sel.Sel].(*types.Func)
	if !isFunc || fn.Type().(*types.Signature).Recv() != nil {
		return nil, nil, "", false
	}
	ip, ok := s.snipStdPath(ctx, fn)
	if !ok {
		return nil, nil, "", false
	}
	return sel, fn, ip, true
}

// snipStdPath returns the import path of fn's package when it is the
// standard library's.
func (s *checker) snipStdPath(ctx context.Context, fn *types.Func) (string, bool) {
	if fn.Pkg() == nil {
		return "", false
	}
	sp, err := s.syms.StdPackage(ctx, fn.Pkg().Path())
	if err != nil || sp.Types != fn.Pkg() {
		return "", false
	}
	return sp.ImportPath, true
}

// snipStdCount reports a call of a standard library function with too
// few or too many arguments ("http.ListenAndServe(":8080")"), when the
// block imports the package itself (an import the checker added may be
// the wrong package of that name: math/rand's Read for crypto/rand's)
// and every argument's type is known (a lone call may return as many
// values as the function takes).
func (s *checker) snipStdCount(ctx context.Context, f *snipFile, call *ast.CallExpr, info *types.Info, msg string) (name, ip string, ok bool) {
	if !strings.HasPrefix(msg, "not enough arguments in call to ") && !strings.HasPrefix(msg, "too many arguments in call to ") ||
		call.Ellipsis.IsValid() || !s.snipTypedArgs(call, info) {
		return "", "", false
	}
	sel, fn, ip, ok := s.snipStdFunc(ctx, call, info)
	if !ok {
		return "", "", false
	}
	q, isIdent := sel.X.(*ast.Ident)
	if !isIdent || f.auto[q.Name] != "" && !s.snipPlainStd(q.Name) {
		return "", "", false
	}
	if pn, isPkg := info.Uses[q].(*types.PkgName); !isPkg || pn.Imported() != fn.Pkg() {
		return "", "", false
	}
	return fn.Pkg().Name() + "." + fn.Name(), ip, true
}

// snipStdResults returns the name and import path of the standard
// function or method call calls, for a miscounted use of its results
// ("ctx := context.WithTimeout(rootCtx, time.Second)", termenv's "tpl =
// tpl.Parse(bold)"), when every standard package the checker imported for
// the block's undeclared qualifiers can only be that package: its name is
// one no module or dependency package has and not one readers give
// another package (log, errors, json, rand, math), and every standard
// package so named declares the callee with as many results
// (text/template's and html/template's Parse both return two).
func (s *checker) snipStdResults(ctx context.Context, f *snipFile, call *ast.CallExpr, info *types.Info) (name, ip string, ok bool) {
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel {
		return "", "", false
	}
	fn, isFunc := info.Uses[sel.Sel].(*types.Func)
	if !isFunc {
		return "", "", false
	}
	if ip, ok = s.snipStdPath(ctx, fn); !ok {
		return "", "", false
	}
	sig := fn.Type().(*types.Signature)
	recv := ""
	if sig.Recv() != nil {
		n, named := types.Unalias(deref(sig.Recv().Type())).(*types.Named)
		if !named {
			return "", "", false // an interface's method, reached through an embedding
		}
		recv = n.Obj().Name()
	}
	for q, aip := range f.auto {
		if f.foreign[aip] {
			continue
		}
		if _, err := s.syms.StdPackage(ctx, aip); err != nil {
			continue // a module or dependency package
		}
		switch q {
		case "log", "errors", "json", "rand", "math":
			return "", "", false
		}
		if len(s.syms.PackagesNamed(q)) > 0 {
			return "", "", false
		}
	}
	// The other standard packages of the callee's package's name, when
	// the checker chose it: each must agree.
	if f.auto[fn.Pkg().Name()] == fn.Pkg().Path() {
		for _, other := range s.syms.StdPathsByPreference(fn.Pkg().Name()) {
			if other == fn.Pkg().Path() {
				continue
			}
			op, err := s.syms.StdPackage(ctx, other)
			if err != nil || op.Types == nil || !snipSameResults(op.Types.Scope(), recv, fn.Name(), sig.Results().Len()) {
				return "", "", false
			}
		}
	}
	name = fn.Pkg().Name() + "." + fn.Name()
	if recv != "" {
		name = fn.Pkg().Name() + "." + recv + "." + fn.Name()
	}
	return name, ip, true
}

// snipSameResults reports whether scope declares the function name, or
// the method name of its type recv, with n results.
func snipSameResults(scope *types.Scope, recv, name string, n int) bool {
	obj := scope.Lookup(name)
	if recv != "" {
		tn, ok := scope.Lookup(recv).(*types.TypeName)
		if !ok {
			return false
		}
		obj, _, _ = types.LookupFieldOrMethod(tn.Type(), true, tn.Pkg(), name)
	}
	fn, ok := obj.(*types.Func)
	return ok && fn.Type().(*types.Signature).Results().Len() == n
}

// snipPlainStd reports whether name, a qualifier the checker imported
// for a block that imports nothing under it, can only be the standard
// package: one no other package in common use goes by (fmt, strings,
// strconv, bytes, time, os, io…; not log, errors, json, rand, math or
// http, which readers import from logrus, pkg/errors, jsoniter, crypto
// or fasthttp under the same name), and that no package of the
// repository or its dependencies is named.
func (s *checker) snipPlainStd(name string) bool {
	switch name {
	case "fmt", "strings", "strconv", "bytes", "time", "os", "io", "ioutil", "sort", "bufio", "filepath",
		"regexp", "utf8", "base64", "hex", "sha256", "sha1", "md5":
		return len(s.syms.PackagesNamed(name)) == 0
	}
	return false
}

// snipWrapped reports whether the innermost function of outer (the nodes
// enclosing a statement, outermost first) is the one the checker wraps a
// block's statements in, not one the block writes.
func snipWrapped(outer []ast.Node) bool {
	for i := len(outer) - 1; i >= 0; i-- {
		switch n := outer[i].(type) {
		case *ast.FuncLit:
			return false
		case *ast.FuncDecl:
			return n.Name.Name == "_"
		}
	}
	return true
}

// snipOwnFunc returns the function or method call calls when the
// checked block itself declares it (a block before it may declare another
// version: ginkgo's docs grow BeAValidBook from three parameters to a
// variadic one), else nil. otel's getting-started declares "func (a *App)
// Poll(ctx context.Context)" and calls "a.Poll()".
func snipOwnFunc(fset *token.FileSet, files []*snipFile, blocks []*snipBlock, call *ast.CallExpr, info *types.Info) *types.Func {
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	default:
		return nil
	}
	fn, ok := info.Uses[id].(*types.Func)
	if !ok {
		return nil
	}
	f, line := snipFileAt(fset, files, fn.Pos())
	if f == nil {
		return nil
	}
	if _, ok := snipSrcSeg(f, blocks, line); !ok {
		return nil
	}
	return fn
}

// snipCount writes n things: "1 parameter", "0 arguments".
func snipCount(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// snipReceiverType reports whether a method the files declare has name as
// its receiver's type.
func snipReceiverType(files []*snipFile, name string) bool {
	for _, f := range files {
		if f.ast == nil {
			continue
		}
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			t := fd.Recv.List[0].Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			if id, ok := t.(*ast.Ident); ok && id.Name == name {
				return true
			}
		}
	}
	return false
}

// snipOwnSource returns the blocks (by index) that declare at the top
// level a name the package from declares too, or a method of one of its
// types.
func snipOwnSource(from *retrieval.Package, fset *token.FileSet, files []*snipFile) map[int]bool {
	if from == nil || from.Types == nil || from.Name == "main" {
		return nil
	}
	own := make(map[int]bool)
	mark := func(f *snipFile, id *ast.Ident) {
		if id == nil || id.Name == "_" || from.Types.Scope().Lookup(id.Name) == nil {
			return
		}
		if seg, ok := snipSegAt(f, fset.Position(id.Pos()).Line); ok {
			own[seg.block] = true
		}
	}
	markGen := func(f *snipFile, d *ast.GenDecl) {
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				mark(f, sp.Name)
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					mark(f, n)
				}
			}
		}
	}
	for _, f := range files {
		if f.ast == nil || importsOwn(f, from.ImportPath) {
			// A file that imports the package is written from outside
			// it: go-smtp's README declares its own Backend and Session
			// beside smtp.Backend and smtp.Session.
			continue
		}
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "_" && d.Body != nil {
					// The function holding the statement blocks: their
					// declarations are its first statements. Statements
					// that select from the package by its name are
					// written from outside it, and their variables are
					// the reader's ("var logger log.Logger" beside
					// level.NewFilter in go-kit's log/level doc, whose
					// package has a type logger).
					if f.auto[from.Name] == from.ImportPath {
						continue
					}
					for _, st := range d.Body.List {
						if ds, ok := st.(*ast.DeclStmt); ok {
							markGen(f, ds.Decl.(*ast.GenDecl))
						}
					}
					continue
				}
				if d.Recv == nil {
					mark(f, d.Name)
					continue
				}
				if len(d.Recv.List) == 0 {
					continue
				}
				t := d.Recv.List[0].Type
				if st, ok := t.(*ast.StarExpr); ok {
					t = st.X
				}
				if ix, ok := t.(*ast.IndexExpr); ok {
					t = ix.X
				}
				if id, ok := t.(*ast.Ident); ok {
					mark(f, id)
				}
			case *ast.GenDecl:
				markGen(f, d)
			}
		}
	}
	return own
}

// importsOwn reports whether f imports ip itself, not by an import added
// for the block.
func importsOwn(f *snipFile, ip string) bool {
	for _, spec := range f.ast.Imports {
		if p, err := strconv.Unquote(spec.Path.Value); err == nil && p == ip && p != f.dotIP && (spec.Name == nil || spec.Name.Name != ".") &&
			!slices.Contains(slices.Collect(maps.Values(f.auto)), ip) {
			return true
		}
	}
	return false
}

// snipPrepare replaces placeholders and decides what a block parses as: a
// file, statements, declarations, or declarations of functions mixed with
// statements (then two blocks with the same line numbers, each with the
// other's lines blanked). It returns a syntax issue when none of these
// parses, or no blocks for an empty block.
func snipPrepare(text string) ([]*snipBlock, *Issue) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	text = snipElide(text)
	if snipHasPackage(text) {
		if _, err := parser.ParseFile(token.NewFileSet(), "", text, parser.SkipObjectResolution); err != nil {
			return nil, snipSyntax(err, 0)
		}
		return []*snipBlock{{kind: snipFileKind, body: text}}, nil
	}
	imports, body := snipSplitImports(text)
	errStmts := snipParseStmts(body)
	if errStmts == nil {
		return []*snipBlock{{kind: snipStmts, imports: imports, body: body}}, nil
	}
	errDecls := snipParseDecls(body)
	if errDecls == nil {
		return []*snipBlock{{kind: snipDecls, imports: imports, body: body}}, nil
	}
	if decls, stmts, ok := snipSplitFuncs(body); ok {
		ed, es := snipParseDecls(decls), snipParseStmts(stmts)
		switch {
		case ed == nil && es == nil:
			return []*snipBlock{
				{kind: snipDecls, imports: imports, body: decls},
				{kind: snipStmts, imports: imports, body: stmts},
			}, nil
		case ed == nil:
			// Declarations beside statements, and the statements do not
			// parse: their error is the block's ("Ω(x).Should(m()))"
			// below a func), not the file's "expected declaration".
			return nil, snipSyntax(es, 1)
		case es == nil:
			return nil, snipSyntax(ed, 1)
		}
	}
	// Neither parse works: the one that got further is the block's form
	// ("x := f(func() {…})" above a line of "...." fails as declarations
	// on its first line and as statements only at the dots).
	if (snipLooksLikeDecls(body) || snipDeclaresFunc(body)) && snipErrLine(errDecls) >= snipErrLine(errStmts) {
		return nil, snipSyntax(errDecls, 1)
	}
	return nil, snipSyntax(errStmts, 1)
}

// snipDropTrailingComma returns src without the comma of its last line
// of code when that line closes a literal or a call and ends in one
// ("},", "),").
func snipDropTrailingComma(src string) (string, bool) {
	lines := strings.Split(src, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		if t != "}," && t != ")," && t != "})," && t != "}))," {
			return "", false
		}
		lines[i] = strings.TrimSuffix(strings.TrimRight(lines[i], " \t"), ",")
		return strings.Join(lines, "\n"), true
	}
	return "", false
}

// snipConditionRE matches the header of an if, a for or a switch without
// its opening brace.
var snipConditionRE = regexp.MustCompile(`^(?:\}\s*else\s+)?(?:if|for|switch)\b[^{]*$`)

// snipConditionOnly reports whether the one line of code of src, comments
// aside, is the header of an if, a for or a switch without a body.
func snipConditionOnly(src string) bool {
	var code []string
	for _, l := range strings.Split(src, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
			code = append(code, t)
		}
	}
	return len(code) == 1 && snipConditionRE.MatchString(code[0])
}

// snipElisionLine reports whether the line of a syntax error holds only
// dots (three or more, or "…") and spaces: code left out.
func snipElisionLine(src string, line int) bool {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return false
	}
	l := strings.TrimSpace(lines[line-1])
	return len(l) > 0 && strings.Trim(l, ".…") == "" && (strings.Contains(l, "...") || strings.Contains(l, "…"))
}

// snipErrLine is the line of a parse error's first position, 0 when it
// has none.
func snipErrLine(err error) int {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return list[0].Pos.Line
	}
	return 0
}

func snipParseStmts(body string) error {
	_, err := parser.ParseFile(token.NewFileSet(), "", "package snippet; func _() {\n"+body+"\n}", parser.SkipObjectResolution)
	return err
}

func snipParseDecls(body string) error {
	_, err := parser.ParseFile(token.NewFileSet(), "", "package snippet;\n"+body, parser.SkipObjectResolution)
	return err
}

// snipSyntax turns a parse error into a syntax issue; offset is the number
// of lines added before the block.
func snipSyntax(err error, offset int) *Issue {
	iss := &Issue{Kind: Syntax, Line: 1, Message: "syntax error: " + err.Error()}
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		iss.Line = max(1, list[0].Pos.Line-offset)
		iss.Message = "syntax error: " + list[0].Msg
	}
	return iss
}

// snipSplitFuncs separates the top-level function and method declarations
// of a block from its other lines: decls keeps the former, stmts the
// latter, each with the other's text blanked so line numbers stay.
func snipSplitFuncs(body string) (decls, stmts string, ok bool) {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(body))
	sc.Init(file, []byte(body), nil, 0)
	type span struct{ from, to int }
	var spans []span
	depth := 0
	start := -1     // offset of the func keyword of the declaration being read
	bodyDepth := -1 // depth inside the declaration's body, once it opened
	typeStart := -1 // offset of the type keyword of a top-level type declaration
	funcs := 0
	prev := token.SEMICOLON
	for {
		pos, tok, _ := sc.Scan()
		if tok == token.EOF {
			if typeStart >= 0 {
				spans = append(spans, span{typeStart, len(body)})
			}
			break
		}
		switch tok {
		case token.TYPE:
			// A type its methods are declared on must be declared at the
			// top level too, not as a local type of the statements.
			if depth == 0 && start < 0 && typeStart < 0 && prev == token.SEMICOLON {
				typeStart = file.Offset(pos)
			}
		case token.SEMICOLON:
			if depth == 0 && typeStart >= 0 {
				spans = append(spans, span{typeStart, file.Offset(pos)})
				typeStart = -1
			}
			if depth == 0 && start >= 0 && bodyDepth < 0 {
				// A signature without a body ("func example1() (int,
				// error)") declares a function the reader has.
				spans = append(spans, span{start, file.Offset(pos)})
				start = -1
				funcs++
			}
		case token.LPAREN, token.LBRACK, token.LBRACE:
			if tok == token.LBRACE && start >= 0 && bodyDepth < 0 && depth == 0 {
				bodyDepth = depth + 1
			}
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
			if tok == token.RBRACE && start >= 0 && bodyDepth == depth+1 && depth == 0 {
				spans = append(spans, span{start, file.Offset(pos) + 1})
				start, bodyDepth = -1, -1
				funcs++
			}
		case token.FUNC:
			if depth == 0 && start < 0 && (prev == token.SEMICOLON || prev == token.RBRACE) {
				start = file.Offset(pos)
			}
		}
		prev = tok
	}
	if funcs == 0 || start >= 0 {
		return "", "", false
	}
	blank := func(b []byte, from, to int) {
		for i := from; i < to; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	d, st := []byte(body), []byte(body)
	last := 0
	for _, sp := range spans {
		blank(d, last, sp.from)
		blank(st, sp.from, sp.to)
		last = sp.to
	}
	blank(d, last, len(d))
	return string(d), string(st), true
}

// snipFuncDeclRE matches a line that opens a function or method
// declaration, which statements cannot hold.
var snipFuncDeclRE = regexp.MustCompile(`(?m)^func (\([^)]*\) *)?[\pL_][\pL\pN_]*[\[(]`)

// snipDeclaresFunc reports whether a block declares a function or method
// at its top level, so it is declarations, not statements.
func snipDeclaresFunc(body string) bool {
	return snipFuncDeclRE.MatchString(body)
}

// snipLooksLikeDecls reports whether a block starts with a declaration
// keyword other than var, const and type (which statements may start
// with too).
func snipLooksLikeDecls(body string) bool {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(body)), []byte(body), nil, 0)
	for {
		_, tok, _ := sc.Scan()
		switch tok {
		case token.SEMICOLON:
			continue
		case token.FUNC, token.IMPORT:
			return true
		}
		return false
	}
}

// snipAssemble places the blocks in files: each file block and each
// declaration block in a file of its own, all statement blocks in one
// function body in order. prev, when not nil, holds the files of a first
// pass, whose automatic imports are added.
func snipAssemble(blocks []*snipBlock, prev []*snipFile) []*snipFile {
	auto := make(map[string]*snipFile)
	for _, f := range prev {
		auto[f.name] = f
	}
	var files []*snipFile
	var stmts []int
	// An earlier block of imports only ("import tb
	// \"gopkg.in/tucnak/telebot.v2\"") imports for every later block.
	var shared []string
	for _, b := range blocks {
		if !b.src && b.kind == snipStmts && strings.TrimSpace(b.body) == "" {
			shared = append(shared, b.imports...)
		}
	}
	for i, b := range blocks {
		if b.kind == snipStmts {
			stmts = append(stmts, i)
			continue
		}
		f := &snipFile{name: fmt.Sprintf("block%d.go", i)}
		if p := auto[f.name]; p != nil {
			f.auto, f.foreign, f.dotIP, f.unqualified, f.recv = p.auto, p.foreign, p.dotIP, p.unqualified, p.recv
		}
		if b.kind == snipFileKind {
			f.text = b.body
			f.segs = []snipSeg{{block: i, start: 1, end: strings.Count(b.body, "\n") + 1}}
		} else {
			f.shared = snipUnclaimed(shared, b.imports)
			f.text = "package snippet; " + snipImportDecl(append(slices.Clone(b.imports), f.shared...), f.auto, f.dotIP) + snipRecvDecl(f.recv) + "\n" + b.body
			f.segs = []snipSeg{{block: i, start: 2, end: strings.Count(b.body, "\n") + 2}}
		}
		files = append(files, f)
	}
	if len(stmts) > 0 {
		f := &snipFile{name: "stmts.go"}
		if p := auto[f.name]; p != nil {
			f.auto, f.foreign, f.dotIP, f.unqualified, f.recv = p.auto, p.foreign, p.dotIP, p.unqualified, p.recv
		}
		var imports []string
		var body strings.Builder
		line := 2
		nested := false
		for k, i := range stmts {
			// The checked statements may declare again what an earlier
			// block declared (each step of a reference assigns
			// "schema, err"): after earlier statements they go in a
			// nested block, on lines of its own.
			if blocks[i].src && k > 0 && !blocks[stmts[k-1]].src {
				body.WriteString("{\n")
				line++
				nested = true
			}
			imports = append(imports, blocks[i].imports...)
			n := strings.Count(blocks[i].body, "\n") + 1
			f.segs = append(f.segs, snipSeg{block: i, start: line, end: line + n - 1})
			body.WriteString(blocks[i].body)
			body.WriteString("\n")
			line += n
		}
		if nested {
			body.WriteString("}\n")
		}
		f.text = "package snippet; " + snipImportDecl(imports, f.auto, f.dotIP) + snipRecvDecl(f.recv) + "func _() {\n" + body.String() + "}\n"
		files = append(files, f)
	}
	return files
}

// snipQualifierOf returns the name f imports p under: the name of its
// import, or p's own.
func snipQualifierOf(f *snipFile, p *retrieval.Package) string {
	for _, imp := range f.ast.Imports {
		if ip, err := strconv.Unquote(imp.Path.Value); err == nil && ip == p.ImportPath && imp.Name != nil && imp.Name.Name != "." && imp.Name.Name != "_" {
			return imp.Name.Name
		}
	}
	return p.Name
}

// snipUnclaimed returns the import specs of shared ("name path" or
// "path") whose name own does not import.
func snipUnclaimed(shared, own []string) []string {
	name := func(spec string) string {
		if n, _, ok := strings.Cut(spec, " "); ok {
			return n
		}
		p, _ := strconv.Unquote(spec)
		return path.Base(p)
	}
	var out []string
	for _, spec := range shared {
		if !slices.ContainsFunc(own, func(o string) bool { return name(o) == name(spec) }) {
			out = append(out, spec)
		}
	}
	return out
}

// snipRecvDecl renders the declarations of inferred receivers on one
// line ("" for none).
func snipRecvDecl(recv map[string]string) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(recv)) {
		fmt.Fprintf(&b, "var %s %s; ", name, recv[name])
	}
	return b.String()
}

// snipInferReceivers declares the receivers a block leaves undeclared
// ("minioClient.ListObjects(…)", "minioClient.RemoveObjects(…)") as the
// module type they must be, so that what the calls return is typed and
// their arguments are checked: the one exported type, of the claim's
// package or of a module package the block names, that has every field
// or method the block selects from the name. The name must be used only
// so (never passed, assigned or compared, where a pointer or a value
// would matter); a type two packages or two types both fit stays unknown.
// Unless the variable is named after the type ("minioClient", Client),
// at least two names must be selected and no common standard library
// type may have them all ("t.Run" is *testing.T's as much as any Run).
// It reports whether a receiver was declared.
func (s *checker) snipInferReceivers(ctx context.Context, from *retrieval.Package, files []*snipFile, errs []types.Error) bool {
	found := false
	for _, e := range errs {
		name, ok := strings.CutPrefix(e.Msg, "undefined: ")
		if !ok || strings.Contains(name, ".") || name == snipElided {
			continue
		}
		f, _ := snipFileAt(e.Fset, files, e.Pos)
		if f == nil || !strings.HasPrefix(f.text, "package snippet; ") || !snipIsQualifier(f.ast, e.Pos) {
			continue
		}
		if _, done := f.recv[name]; done {
			continue
		}
		if _, pkg := f.auto[name]; pkg || !snipOnlySelected(f.ast, name) {
			continue
		}
		sels := snipSelected(f.ast, name)
		if len(sels) == 0 {
			continue
		}
		qual, ip, tn, hinted, ok := s.snipInferredType(from, f, name, sels)
		if !ok || !hinted && (len(sels) < 2 || s.snipStdFits(ctx, sels)) {
			// Without the name to say which type it is, one selection
			// fits too many types outside the module, and so does any
			// that a common standard type has ("t.Run": *testing.T).
			continue
		}
		typ := qual + "." + tn.Name()
		if qual == "" {
			typ = tn.Name()
		} else if f.auto[qual] == "" {
			if f.auto == nil {
				f.auto = make(map[string]string)
			}
			f.auto[qual] = ip
		}
		if !types.IsInterface(tn.Type()) {
			typ = "*" + typ
		}
		if f.recv == nil {
			f.recv = make(map[string]string)
		}
		f.recv[name] = typ
		found = true
	}
	return found
}

// snipFirstWordOf reports whether name, of at least four letters, is the
// first word of the camel-case type name tname: "proxy" of
// ProxyHttpServer, not "pro" of ProxyHttpServer or "http" of it.
func snipFirstWordOf(name, tname string) bool {
	if len(name) < 4 || len(tname) <= len(name) || !strings.EqualFold(tname[:len(name)], name) {
		return false
	}
	next := rune(tname[len(name)])
	return unicode.IsUpper(next) || unicode.IsDigit(next)
}

// snipRenamedVar reports an inferred receiver that stands for the one
// variable of its type the checked block declares before using it: gqlgen's
// gin recipe declares "h := handler.New(…)" and then calls
// "srv.AddTransport(…)", "srv.Use(…)" on a srv it declares nowhere (the
// variable was renamed and these uses kept the old name). A block that
// declares no variable of the type, or several, leaves the receiver to the
// reader.
func (s *checker) snipRenamedVar(fset *token.FileSet, f *snipFile, blocks []*snipBlock, info *types.Info, name string) (Issue, bool) {
	var recv *types.Var
	for id, obj := range info.Defs {
		if v, ok := obj.(*types.Var); ok && id.Name == name && fset.Position(id.Pos()).Line == 1 {
			if g, _ := snipFileAt(fset, []*snipFile{f}, id.Pos()); g == f {
				recv = v
			}
		}
	}
	if recv == nil {
		return Issue{}, false
	}
	own := func(pos token.Pos) (snipSeg, bool) {
		if g, line := snipFileAt(fset, []*snipFile{f}, pos); g == f {
			return snipSrcSeg(f, blocks, line)
		}
		return snipSeg{}, false
	}
	first := token.NoPos
	for id, obj := range info.Uses {
		if obj == recv && (first == token.NoPos || id.Pos() < first) {
			first = id.Pos()
		}
	}
	if first == token.NoPos {
		return Issue{}, false
	}
	seg, ok := own(first)
	if !ok {
		return Issue{}, false
	}
	var decl *types.Var
	n := 0
	for id, obj := range info.Defs {
		v, ok := obj.(*types.Var)
		// Declared on an earlier line: "co, _ := L.NewThread()" declares co
		// from L itself.
		if !ok || v == recv || v.IsField() || v.Name() == "_" || fset.Position(id.Pos()).Line >= fset.Position(first).Line ||
			!types.Identical(v.Type(), recv.Type()) {
			continue
		}
		// In scope where the name is used: not declared by the statement
		// that uses it ("sp := tracer.StartSpan(…,
		// opentracing.ChildOf(parentSpan.Context()))" over several
		// lines, in opentracing's Tracer doc).
		if !snipDeclaredBefore(v, first) {
			continue
		}
		if _, ok := own(id.Pos()); ok {
			decl = v
			n++
		}
	}
	if n != 1 {
		return Issue{}, false
	}
	p := s.snipModuleType(recv.Type())
	if p == nil {
		return Issue{}, false
	}
	return Issue{
		Kind: Compile, Line: fset.Position(first).Line - seg.start + 1, Name: name, Package: p.ImportPath,
		Message: fmt.Sprintf("%s is declared nowhere; the block declares %s, a %s, which has every member %s is used with",
			name, decl.Name(), types.TypeString(recv.Type(), func(p *types.Package) string { return p.Name() }), name),
	}, true
}

// snipCommonStd are standard library types documentation leaves
// undeclared most often: a receiver whose selections one of them has may
// be that type.
var snipCommonStd = [][2]string{
	{"testing", "T"}, {"testing", "B"}, {"testing", "TB"}, {"testing", "M"},
	{"net/http", "ResponseWriter"}, {"net/http", "Request"}, {"net/http", "Client"}, {"net/http", "Server"},
	{"net/http", "Header"}, {"net/url", "URL"}, {"context", "Context"}, {"database/sql", "DB"},
	{"database/sql", "Tx"}, {"database/sql", "Rows"}, {"bytes", "Buffer"}, {"strings", "Builder"},
	{"io", "ReadWriteCloser"}, {"os", "File"}, {"log", "Logger"}, {"log/slog", "Logger"},
	{"sync", "WaitGroup"}, {"sync", "Mutex"}, {"sync", "RWMutex"}, {"encoding/json", "Encoder"},
	{"encoding/json", "Decoder"}, {"text/template", "Template"}, {"regexp", "Regexp"}, {"time", "Time"},
	{"time", "Timer"}, {"time", "Ticker"}, {"os/exec", "Cmd"}, {"flag", "FlagSet"}, {"bufio", "Reader"},
	{"bufio", "Writer"}, {"bufio", "Scanner"}, {"net", "Conn"}, {"net", "Listener"}, {"crypto/tls", "Config"},
}

// snipStdFits reports whether a common standard library type has every
// one of sels.
func (s *checker) snipStdFits(ctx context.Context, sels []string) bool {
	for _, st := range snipCommonStd {
		sp, err := s.syms.StdPackage(ctx, st[0])
		if err != nil || sp.Types == nil {
			continue
		}
		tn, ok := sp.Types.Scope().Lookup(st[1]).(*types.TypeName)
		if !ok {
			continue
		}
		if snipMembers(tn.Type(), sp.Types, sels) != nil {
			return true
		}
	}
	return false
}

// snipMembers returns the field or method each of sels names on a value
// of t (through a pointer to it unless t is an interface), seen from pkg;
// nil when one is missing.
func snipMembers(t types.Type, pkg *types.Package, sels []string) []types.Object {
	recv := t
	if !types.IsInterface(t) {
		recv = types.NewPointer(t)
	}
	objs := make([]types.Object, 0, len(sels))
	for _, sel := range sels {
		obj, _, _ := types.LookupFieldOrMethod(recv, true, pkg, sel)
		if obj == nil {
			return nil
		}
		objs = append(objs, obj)
	}
	return objs
}

// snipOnlySelected reports whether every use of name in f is the left
// side of a selector.
func snipOnlySelected(f *ast.File, name string) bool {
	selected := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				selected[id] = true
			}
		}
		return true
	})
	only := true
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name && !selected[id] {
			only = false
		}
		return only
	})
	return only
}

// snipInferredType returns the one exported, non-generic type of the
// claim's package or of a module package the block imports or names that
// has every one of sels as a field or method (of a pointer to it), with
// the qualifier the file knows its package by ("" for the claim's own,
// dot-imported package), and whether the variable's name ends in the
// type's ("minioClient": Client, chosen over Core, whose ListObjects
// differs); false when none or several do.
func (s *checker) snipInferredType(from *retrieval.Package, f *snipFile, name string, sels []string) (qual, ip string, tn *types.TypeName, hinted, ok bool) {
	type cand struct{ qual, ip string }
	var pkgs []cand
	if from != nil && from.Types != nil && from.Name != "main" && f.dotIP == from.ImportPath {
		pkgs = append(pkgs, cand{"", from.ImportPath})
	}
	for q, p := range f.auto {
		pkgs = append(pkgs, cand{q, p})
	}
	for _, imp := range f.ast.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		q := path.Base(p)
		if mp := s.syms.PackageByPath(p); mp != nil {
			q = mp.Name
		}
		if imp.Name != nil {
			q = imp.Name.Name
		}
		if q != "." && q != "_" {
			pkgs = append(pkgs, cand{q, p})
		}
	}
	type fit struct {
		qual, ip string
		tn       *types.TypeName
		objs     []types.Object
	}
	var fits []fit
	seen := map[string]bool{}
	for _, c := range pkgs {
		if seen[c.ip] {
			continue
		}
		seen[c.ip] = true
		p := s.syms.PackageByPath(c.ip)
		if p == nil || p.Types == nil || !p.Complete() {
			continue
		}
		scope := p.Types.Scope()
		for _, tname := range scope.Names() {
			t, isType := scope.Lookup(tname).(*types.TypeName)
			if !isType || !t.Exported() || t.IsAlias() {
				continue
			}
			named, isNamed := t.Type().(*types.Named)
			if !isNamed || named.TypeParams().Len() > 0 {
				continue
			}
			objs := snipMembers(named, p.Types, sels)
			if objs != nil && !slices.ContainsFunc(objs, func(o types.Object) bool { return !o.Exported() }) {
				fits = append(fits, fit{c.qual, c.ip, t, objs})
			}
		}
	}
	if len(fits) == 0 {
		return "", "", nil, false, false
	}
	// The one the variable is named after ("minioClient" for Client
	// beside Core, "proxy" for ProxyHttpServer) is meant.
	var named []fit
	for _, g := range fits {
		if strings.HasSuffix(strings.ToLower(name), strings.ToLower(g.tn.Name())) || snipFirstWordOf(name, g.tn.Name()) {
			named = append(named, g)
		}
	}
	if len(named) > 0 {
		fits, hinted = named, true
	}
	// Types that reach the same members (one embedding the other) type
	// the block alike: the one that declares them is chosen.
	for _, g := range fits[1:] {
		if !slices.Equal(g.objs, fits[0].objs) {
			return "", "", nil, false, false
		}
	}
	best := fits[0]
	for _, g := range fits {
		if m, ok := g.objs[0].(*types.Func); ok {
			if r := m.Type().(*types.Signature).Recv(); r != nil && types.Identical(deref(r.Type()), g.tn.Type()) {
				best = g
			}
		}
	}
	return best.qual, best.ip, best.tn, hinted, true
}

// snipImportDecl renders an import declaration on one line ("" for none).
func snipImportDecl(specs []string, auto map[string]string, dotIP string) string {
	var all []string
	all = append(all, specs...)
	for _, name := range slices.Sorted(maps.Keys(auto)) {
		all = append(all, name+" "+strconv.Quote(auto[name]))
	}
	if dotIP != "" {
		all = append(all, ". "+strconv.Quote(dotIP))
	}
	slices.Sort(all)
	all = slices.Compact(all)
	if len(all) == 0 {
		return ""
	}
	return "import (" + strings.Join(all, "; ") + "); "
}

// snipParse parses the assembled files; false if one does not parse (the
// blocks parsed alone, so this means assembling broke them).
func snipParse(fset *token.FileSet, files []*snipFile) bool {
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.name, f.text, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		f.ast = af
	}
	return true
}

// snipTypeCheck type-checks the files as one package.
func (s *checker) snipTypeCheck(ctx context.Context, fset *token.FileSet, files []*snipFile) ([]types.Error, *types.Info) {
	var errs []types.Error
	// A dependency imported for a qualifier the block never imports is a
	// guess (bleve's "index" is a variable of an earlier section, not the
	// bleve_index_api its code imports as index): it stays a placeholder,
	// so nothing is judged against its API.
	guessed := map[string]bool{}
	for _, f := range files {
		for _, ip := range f.auto {
			if _, dep := s.syms.DepPackage(ip); dep || f.foreign[ip] || s.syms.PackageByPath(ip) == nil && !symStdPath(ctx, s.syms, ip) {
				guessed[ip] = true
			}
		}
	}
	imp := s.syms.Importer(ctx)
	conf := &types.Config{
		Importer: importerFunc(func(ip string) (*types.Package, error) {
			if guessed[ip] {
				return s.syms.PlaceholderOf(ip), nil
			}
			return imp.Import(ip)
		}),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				errs = append(errs, te)
			}
		},
		FakeImportC: true,
		Sizes:       types.SizesFor("gc", "amd64"),
	}
	var asts []*ast.File
	for _, f := range files {
		asts = append(asts, f.ast)
	}
	info := newInfo()
	typeCheck(conf, fset, asts, info)
	return errs, info
}

// snipAutoImports decides the imports a fragment omitted: packages used as
// qualifiers that are not declared, and fromDir's package for its
// exported names used unqualified. It reports whether any was found.
func (s *checker) snipAutoImports(ctx context.Context, from *retrieval.Package, files []*snipFile, blocks []*snipBlock, errs []types.Error) bool {
	found := false
	var bare []bareName
	// Qualifiers first: a bare name is read knowing what the block
	// qualifies, wherever it stands ("tb.NewBot(…)" before or after
	// "&ReplyMarkup{}").
	qualifiersFirst := slices.Clone(errs)
	slices.SortStableFunc(qualifiersFirst, func(a, b types.Error) int {
		rank := func(e types.Error) int {
			if f, _ := snipFileAt(e.Fset, files, e.Pos); f != nil && snipIsQualifier(f.ast, e.Pos) {
				return 0
			}
			return 1
		}
		return cmp.Compare(rank(a), rank(b))
	})
	for _, e := range qualifiersFirst {
		name, ok := strings.CutPrefix(e.Msg, "undefined: ")
		if !ok || strings.Contains(name, ".") {
			continue
		}
		f, _ := snipFileAt(e.Fset, files, e.Pos)
		if f == nil || !strings.HasPrefix(f.text, "package snippet; ") {
			continue
		}
		if snipIsQualifier(f.ast, e.Pos) {
			if _, done := f.auto[name]; done {
				continue
			}
			sels := snipSelected(f.ast, name)
			ip := s.snipImportFor(ctx, from, name, sels)
			if ip == "" {
				continue
			}
			if f.auto == nil {
				f.auto = make(map[string]string)
			}
			f.auto[name] = ip
			if s.snipForeign(ctx, from, name, ip, sels) {
				if f.foreign == nil {
					f.foreign = make(map[string]bool)
				}
				f.foreign[ip] = true
			}
			found = true
			continue
		}
		if from != nil && from.Types != nil && from.Name != "main" && token.IsExported(name) && from.Types.Scope().Lookup(name) != nil {
			if snipQualifies(f, from, errs, files, blocks) {
				if snipReceiverType(files, name) || snipInterfaceLiteral(f.ast, name, from.Types.Scope().Lookup(name)) || snipOnlyVarType(f.ast, name) ||
					snipTypeOfNonType(f.ast, name, from.Types.Scope().Lookup(name)) {
					// The reader's own type of that name ("func (m
					// Model) Init()", "tea.NewProgram(Model{})").
					continue
				}
				if f.unqualified == nil {
					f.unqualified = make(map[string]*retrieval.Package)
				}
				f.unqualified[name] = from
				continue
			}
			f.dotIP = from.ImportPath
			found = true
			continue
		}
		if token.IsExported(name) && (from == nil || from.Types == nil || from.Types.Scope().Lookup(name) == nil) {
			bare = append(bare, bareName{f, name})
		}
	}
	// A bare name that the block's package lacks and one module package
	// the block qualifies declares, once every qualifier is known.
	for _, b := range bare {
		p := s.snipQualifiedDeclaring(b.f, b.name)
		if p == nil || b.f.unqualified[b.name] != nil || snipReceiverType(files, b.name) || snipOnlyVarType(b.f.ast, b.name) ||
			snipInterfaceLiteral(b.f.ast, b.name, p.Types.Scope().Lookup(b.name)) || snipTypeOfNonType(b.f.ast, b.name, p.Types.Scope().Lookup(b.name)) ||
			!snipQualifies(b.f, p, errs, files, blocks) {
			continue
		}
		if b.f.unqualified == nil {
			b.f.unqualified = make(map[string]*retrieval.Package)
		}
		b.f.unqualified[b.name] = p
	}
	return found
}

// bareName is an exported name a file uses unqualified and nothing
// declares.
type bareName struct {
	f    *snipFile
	name string
}

// snipQualifiedDeclaring returns the one module package that f imports,
// itself or automatically, and that declares name; nil when none or
// several do.
func (s *checker) snipQualifiedDeclaring(f *snipFile, name string) *retrieval.Package {
	paths := make(map[string]bool)
	for _, ip := range f.auto {
		if !f.foreign[ip] {
			paths[ip] = true
		}
	}
	for _, imp := range f.ast.Imports {
		if ip, err := strconv.Unquote(imp.Path.Value); err == nil {
			paths[ip] = true
		}
	}
	var found *retrieval.Package
	for ip := range paths {
		p := s.syms.PackageByPath(ip)
		if p == nil || p.Types == nil || p.Name == "main" {
			continue
		}
		if obj := p.Types.Scope().Lookup(name); obj == nil || !obj.Exported() {
			continue
		}
		if found != nil {
			return nil
		}
		found = p
	}
	return found
}

// snipQualifies reports whether a block writes the names of the package
// it is written for with that package's qualifier: it imports the
// package (under its name or another), or selects from an undeclared name
// that is the package's name,
// and every name it selects so is the package's (syslog.LOG_DEBUG is the
// standard log/syslog's, not logrus's hooks/syslog's). Such a block is
// read from outside the package, where its bare names are undefined. Only
// the block's own lines count, not those of the blocks before it.
func snipQualifies(f *snipFile, from *retrieval.Package, errs []types.Error, files []*snipFile, blocks []*snipBlock) bool {
	own := func(pos token.Pos, fset *token.FileSet) bool {
		_, ok := snipSrcSeg(f, blocks, fset.Position(pos).Line)
		return ok
	}
	qualifier := ""
	importedAs := func(name, path string) {
		if p, err := strconv.Unquote(path); err == nil && p == from.ImportPath {
			switch name {
			case "":
				qualifier = from.Name
			case ".", "_":
			default:
				qualifier = name
			}
		}
	}
	// A fragment's imports are in the file's header, a file's in its body;
	// a prelude of imports only is the block's own (an import an earlier
	// block of the document gives a qualifier the block writes).
	specs := slices.Clone(f.shared)
	for _, seg := range f.segs {
		if b := blocks[seg.block]; b.src || strings.TrimSpace(b.body) == "" && len(b.imports) > 0 {
			specs = append(specs, b.imports...)
		}
	}
	for _, spec := range specs {
		if name, path, ok := strings.Cut(spec, " "); ok {
			importedAs(name, path)
		} else {
			importedAs("", spec)
		}
	}
	for _, imp := range f.ast.Imports {
		if len(errs) > 0 && own(imp.Pos(), errs[0].Fset) {
			name := ""
			if imp.Name != nil {
				name = imp.Name.Name
			}
			importedAs(name, imp.Path.Value)
		}
	}
	imported := qualifier != ""
	// Where the package's name is undefined, it is the qualifier; a
	// variable the block declares under that name ("log :=
	// log.NewHelper(…)", then "log.Info(…)") selects its own members.
	// So is a name the block leaves undefined and only qualifies, which
	// the checker imports as the package ("tb.NewBot(…)" for telebot).
	undefinedAt := make(map[token.Pos]bool)
	for _, e := range errs {
		if imported {
			continue
		}
		name, _ := strings.CutPrefix(e.Msg, "undefined: ")
		if name != from.Name && (name == "" || f.auto[name] != from.ImportPath || qualifier != "" && qualifier != name) {
			continue
		}
		if g, _ := snipFileAt(e.Fset, files, e.Pos); g == f && snipIsQualifier(f.ast, e.Pos) && own(e.Pos, e.Fset) {
			qualifier = name
			undefinedAt[e.Pos] = true
		}
	}
	if qualifier == "" {
		return false
	}
	ok := true
	ast.Inspect(f.ast, func(n ast.Node) bool {
		sel, isSel := n.(*ast.SelectorExpr)
		if !isSel || !ok {
			return ok
		}
		if id, isID := sel.X.(*ast.Ident); isID && id.Name == qualifier && (imported || undefinedAt[id.Pos()]) &&
			from.Types.Scope().Lookup(sel.Sel.Name) == nil {
			ok = false
		}
		return true
	})
	return ok
}

// snipHasOwnMember reports whether t, or the type it points to, has an
// unexported field or method name as its own package sees it.
func snipHasOwnMember(t types.Type, name string) bool {
	if token.IsExported(name) {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, n.Obj().Pkg(), name)
	return obj != nil
}

// snipTypeOfNonType reports whether f writes name as a type (see
// [snipWrittenAsType]) while the package's name is no type (expr's Env and
// oops's User are funcs): the type is the reader's own.
func snipTypeOfNonType(f *ast.File, name string, obj types.Object) bool {
	if _, isType := obj.(*types.TypeName); isType || obj == nil {
		return false
	}
	return snipWrittenAsType(f, name)
}

// snipWrittenAsType reports whether f writes name, unqualified, as a type:
// a composite literal's ("expr.Env(Env{})"), a parameter's or result's
// ("func getUser(id string) (User, error)"), a variable's, a field's, a
// type declaration's or a type assertion's.
func snipWrittenAsType(f *ast.File, name string) bool {
	found := false
	check := func(typ ast.Expr) {
		if typ == nil {
			return
		}
		ast.Inspect(typ, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr, *ast.FuncType:
				return false // another package's name; a func type's own fields are visited as fields
			case *ast.Ident:
				found = found || x.Name == name
			}
			return !found
		})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CompositeLit:
			check(x.Type)
		case *ast.Field:
			check(x.Type)
		case *ast.ValueSpec:
			check(x.Type)
		case *ast.TypeSpec:
			check(x.Type)
		case *ast.TypeAssertExpr:
			check(x.Type)
		}
		return !found
	})
	return found
}

// snipOnlyVarType reports whether f uses name only as the type of the
// variables it declares ("var config Config", then "Target: &config"):
// a type of the reader's that the doc declares elsewhere or not at all,
// as likely as the package's type of that name.
func snipOnlyVarType(f *ast.File, name string) bool {
	asType, other := 0, 0
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(x.X, visit) // "cache.Options" selects another Options
			return false
		case *ast.ValueSpec:
			if id, ok := x.Type.(*ast.Ident); ok && id.Name == name {
				asType++
				for _, v := range x.Values {
					ast.Inspect(v, visit)
				}
				return false
			}
		case *ast.Ident:
			if x.Name == name {
				other++
			}
		}
		return true
	}
	ast.Inspect(f, visit)
	return asType > 0 && other == 0
}

// snipInterfaceLiteral reports whether obj is an interface type that f
// writes a composite literal of: no such literal compiles, so the name is
// the reader's own type.
func snipInterfaceLiteral(f *ast.File, name string, obj types.Object) bool {
	if _, ok := obj.(*types.TypeName); !ok || !types.IsInterface(obj.Type()) {
		return false
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if cl, ok := n.(*ast.CompositeLit); ok {
			if id, ok := cl.Type.(*ast.Ident); ok && id.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// snipForeign reports whether the names a block selects from a qualifier
// it never imports say it means another package of that name than ip: at
// least three of them are not in ip, more than twice as many as are
// (terraform-plugin-framework's design notes write schema.TypeString,
// schema.TypeList and schema.Resource of the older SDK's helper/schema
// beside its own packages named schema). Only a name several packages
// have counts: the one package named jws is what "jws." means, and a block
// using three of its names that are gone is out of date. Such a qualifier
// is a placeholder.
func (s *checker) snipForeign(ctx context.Context, from *retrieval.Package, name, ip string, sels []string) bool {
	if from != nil {
		if _, ok := s.syms.ImportedAs(from.Dir, name); ok {
			return false
		}
	}
	named := len(s.syms.StdPathsByPreference(name))
	for _, p := range s.syms.PackagesNamed(name) {
		if p.Name != "main" {
			named++
		}
	}
	if named < 2 {
		return false
	}
	scope := s.snipScope(ctx, ip)
	if scope == nil {
		return false
	}
	missing := len(sels) - snipDeclares(scope, sels)
	return missing >= 3 && missing > 2*(len(sels)-missing)
}

// snipScope returns the scope of the repository or standard package ip,
// or nil when neither is loaded.
func (s *checker) snipScope(ctx context.Context, ip string) *types.Scope {
	if p := s.syms.PackageByPath(ip); p != nil && p.Types != nil {
		return p.Types.Scope()
	}
	if sp, err := s.syms.StdPackage(ctx, ip); err == nil && sp.Types != nil {
		return sp.Types.Scope()
	}
	if dp, ok := s.syms.DepPackage(ip); ok && dp.Types != nil {
		return dp.Types.Scope()
	}
	return nil
}

// snipDeclares counts the names of sels that scope declares (none for a
// nil scope).
func snipDeclares(scope *types.Scope, sels []string) int {
	n := 0
	for _, sel := range sels {
		if scope != nil && scope.Lookup(sel) != nil {
			n++
		}
	}
	return n
}

// snipImportFor returns the import path a snippet most likely means by
// the qualifier name, given the names it selects from it (sels): among an
// import name of from's files, the repository packages named so (from's
// module first) and the standard packages named so, the first that
// declares the most of sels; "" when there is no candidate.
func (s *checker) snipImportFor(ctx context.Context, from *retrieval.Package, name string, sels []string) string {
	var cands []string
	if from != nil && from.Name == name && from.Name != "main" {
		// The package the block is about, before one it imports under
		// its own name (cedar-go's ast wraps x/exp/ast, imported as ast).
		cands = append(cands, from.ImportPath)
	}
	if from != nil {
		if ip, ok := s.syms.ImportedAs(from.Dir, name); ok {
			cands = append(cands, ip)
		}
		if ip, ok := s.syms.TestImportedAs(from.Dir, name); ok {
			cands = append(cands, ip)
		}
	}
	var same, other []string
	for _, p := range s.syms.PackagesNamed(name) {
		if p.Name == "main" {
			continue
		}
		if from != nil && p.Module == from.Module {
			same = append(same, p.ImportPath)
		} else {
			other = append(other, p.ImportPath)
		}
	}
	std := s.syms.StdPathsByPreference(name)
	if from != nil {
		// Of the standard packages called name, the one the documented
		// package imports under any name first: a doc in a package
		// importing htmltpl "html/template" writes template.Must for it.
		var imported, rest []string
		for _, ip := range std {
			if s.syms.ImportsPath(from.Dir, ip) {
				imported = append(imported, ip)
			} else {
				rest = append(rest, ip)
			}
		}
		std = append(imported, rest...)
	}
	cands = append(append(append(cands, same...), other...), std...)
	if ip, ok := s.syms.RepoImportedAs(name); ok && !slices.Contains(cands, ip) {
		// The import the repository's own code writes under that name
		// (sdktrace for go.opentelemetry.io/otel/sdk/trace).
		cands = append(cands, ip)
	}
	for _, ip := range s.syms.RepoImportsNamed(name) {
		// A dependency of that name the repository imports under another
		// (oaispec "github.com/go-openapi/spec" for spec.Swagger).
		if !slices.Contains(cands, ip) {
			cands = append(cands, ip)
		}
	}
	best, bestN := "", -1
	for _, ip := range cands {
		if n := snipDeclares(s.snipScope(ctx, ip), sels); n > bestN {
			best, bestN = ip, n
		}
	}
	return best
}

// snipUnknownImport reports whether f imports, without naming it, a
// package docreview did not load, whose name is then unknown: go-libvirt's
// vendored go-xdr README imports "github.com/davecgh/go-xdr/xdr2", whose
// package is xdr, and writes xdr.Marshal. A name no standard package has
// may be that package's, unless the block uses that package under the
// name its path suggests.
func (s *checker) snipUnknownImport(f *ast.File, info *types.Info) bool {
	used := map[types.Object]bool{}
	for _, obj := range info.Uses {
		if pn, ok := obj.(*types.PkgName); ok {
			used[pn] = true
		}
	}
	for _, spec := range f.Imports {
		if spec.Name != nil {
			continue
		}
		pn := info.PkgNameOf(spec)
		// One the block uses under the name its path suggests is
		// accounted for (gock's README imports "gopkg.in/h2non/gock.v1"
		// and writes gock.Off, then st.Expect without importing st).
		if pn == nil || s.syms.Placeholder(pn.Imported()) && !used[pn] {
			return true
		}
	}
	return false
}

// snipStdDeclaring returns the standard library package named name that
// declares every one of sels, or "".
func (s *checker) snipStdDeclaring(ctx context.Context, name string, sels []string) string {
	for _, ip := range s.syms.StdPathsByPreference(name) {
		sp, err := s.syms.StdPackage(ctx, ip)
		if err != nil || sp.Types == nil {
			continue
		}
		all := len(sels) > 0
		for _, sel := range sels {
			if sp.Types.Scope().Lookup(sel) == nil {
				all = false
			}
		}
		if all {
			return ip
		}
	}
	return ""
}

// snipSelected returns the names selected from the identifier name in f
// ("New" for cache.New).
func snipSelected(f *ast.File, name string) []string {
	var sels []string
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name && !slices.Contains(sels, sel.Sel.Name) {
				sels = append(sels, sel.Sel.Name)
			}
		}
		return true
	})
	return sels
}

// snipClassify turns a type error into an issue, or says to drop it.
func (s *checker) snipClassify(ctx context.Context, from *retrieval.Package, fset *token.FileSet, files []*snipFile, blocks []*snipBlock, info *types.Info, e types.Error, full, strict bool) (Issue, bool) {
	msg := e.Msg
	if snipDropped(msg) {
		return Issue{}, false
	}
	if strings.Contains(msg, snipElided) {
		return Issue{}, false
	}
	f, line := snipFileAt(fset, files, e.Pos)
	if f == nil {
		return Issue{}, false
	}
	seg, ok := snipSegAt(f, line)
	if !ok || !blocks[seg.block].src {
		return Issue{}, false
	}
	iss := Issue{Line: line - seg.start + 1}
	path := snipEnclosing(f.ast, e.Pos)
	// given reports a package-level variable of the prelude, not of the
	// checked block: a doc comment's receiver or parameter.
	given := func(obj types.Object) bool {
		v, ok := obj.(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
			return false
		}
		g, _ := snipFileAt(fset, files, v.Pos())
		if g == nil {
			return false
		}
		_, own := snipSrcSeg(g, blocks, fset.Position(v.Pos()).Line)
		return !own
	}
	// A name the callee does not have is wrong whatever the elided
	// arguments are ("c.Purgee(...)"): only errors that could involve
	// them are dropped.
	undefined := strings.HasPrefix(msg, "undefined: ") || strings.Contains(msg, " undefined (type ")
	// Nor is a name declared nowhere, wherever it stands: an elided
	// argument or element declares nothing ("fx.Provide(func(...)
	// (Result, error) {…})"). Elided statements before it may.
	bare := strings.HasPrefix(msg, "undefined: ") && !snipElidedStmtBefore(f.ast, e.Pos)
	for i := len(path) - 1; i >= 0 && !bare; i-- {
		switch n := path[i].(type) {
		case *ast.CallExpr:
			if undefined && n.Fun.Pos() <= e.Pos && e.Pos < n.Fun.End() {
				continue
			}
			if snipHasElided(n) {
				return Issue{}, false
			}
		case *ast.CompositeLit:
			if snipHasElided(n) {
				return Issue{}, false
			}
		}
	}

	if strings.HasPrefix(msg, "cannot use ") && snipGalleryVar(files, info, path, e.Pos) {
		// "cert := nats.ClientCert(…)" and, as another alternative,
		// "cert, err := tls.LoadX509KeyPair(…)": the second reuses the
		// first's variable, each is right on its own.
		return Issue{}, false
	}
	if vs := snipSwappedVar(path, e.Pos); vs != nil {
		iss.Kind = Compile
		iss.Name = vs.Names[0].Name
		iss.Message = fmt.Sprintf("var %s %s declares a variable named %s of type %s: Go writes the name first, var %s %s",
			vs.Names[0].Name, vs.Type.(*ast.Ident).Name, vs.Names[0].Name, vs.Type.(*ast.Ident).Name,
			vs.Type.(*ast.Ident).Name, vs.Names[0].Name)
		return iss, true
	}

	switch {
	case strings.HasPrefix(msg, "undefined: ") && strings.Contains(msg, "."),
		strings.HasPrefix(msg, "name ") && strings.Contains(msg, " not exported by package "):
		sel := snipSelectorAt(path, e.Pos)
		if sel == nil {
			return Issue{}, false
		}
		p := s.snipModulePkgOf(sel.X, info)
		if p == nil && strings.HasPrefix(msg, "undefined: ") {
			return s.snipStdName(ctx, f, sel, info, iss)
		}
		if p == nil || p.ExcludedName(sel.Sel.Name) {
			return Issue{}, false
		}
		iss.Kind = UnknownName
		iss.Name = p.Name + "." + sel.Sel.Name
		iss.Package = p.ImportPath
		if strings.HasPrefix(msg, "name ") {
			iss.Message = fmt.Sprintf("%s is not exported by package %s", iss.Name, p.ImportPath)
		} else {
			iss.Message = fmt.Sprintf("package %s has no %s", p.ImportPath, sel.Sel.Name)
			iss.Absent = true
		}
		return iss, true

	case strings.Contains(msg, " undefined (type ") || strings.Contains(msg, " undefined (cannot refer to unexported"):
		sel := snipSelectorAt(path, e.Pos)
		if sel == nil {
			return Issue{}, false
		}
		tv, ok := info.Types[sel.X]
		if !ok {
			return Issue{}, false
		}
		p := s.snipModuleType(tv.Type)
		if p == nil {
			if sp := s.snipStdType(ctx, tv.Type); sp != nil {
				iss.Kind, iss.Name, iss.Package, iss.Std = UnknownMember, sel.Sel.Name, sp.ImportPath, true
				iss.Closest = closestMember(tv.Type, sel.Sel.Name)
				iss.Absent = strings.Contains(msg, " has no field or method ")
				iss.Message = msg
				if i := strings.Index(msg, " undefined ("); i >= 0 && strings.HasSuffix(msg, ")") {
					iss.Message = msg[i+len(" undefined (") : len(msg)-1]
				}
				return iss, true
			}
		}
		if p == nil || p.ExcludedName(namedOf(tv.Type)+"."+sel.Sel.Name) {
			return Issue{}, false
		}
		iss.Kind = UnknownMember
		iss.Name = sel.Sel.Name
		iss.Package = p.ImportPath
		// "has no field or method code, but does have method Code" is
		// said of an unexported field too, seen from outside: the type's
		// own package has it (oops's OopsError.code).
		iss.Absent = strings.Contains(msg, " has no field or method ") && !snipHasOwnMember(tv.Type, sel.Sel.Name)
		iss.Message = msg
		if i := strings.Index(msg, " undefined ("); i >= 0 && strings.HasSuffix(msg, ")") {
			iss.Message = msg[i+len(" undefined (") : len(msg)-1]
		}
		return iss, true

	case strings.HasPrefix(msg, "unknown field ") || strings.HasPrefix(msg, "cannot refer to unexported field "):
		lit, key := snipLiteralKeyAt(path, e.Pos)
		if lit == nil {
			return Issue{}, false
		}
		tv, ok := info.Types[lit]
		if !ok {
			return Issue{}, false
		}
		p := s.snipModuleType(tv.Type)
		if p == nil {
			return Issue{}, false
		}
		iss.Kind = UnknownMember
		iss.Name = key
		iss.Package = p.ImportPath
		iss.Absent = strings.HasPrefix(msg, "unknown field ")
		iss.Message = msg
		return iss, true

	case strings.HasPrefix(msg, "not enough arguments in call to "), strings.HasPrefix(msg, "too many arguments in call to "),
		strings.HasPrefix(msg, "cannot use ") && strings.Contains(msg, " in argument to "):
		call := snipCallAt(path, e.Pos)
		if call == nil {
			return Issue{}, false
		}
		if strings.HasPrefix(msg, "not enough arguments") && len(call.Args) == 1 && !s.snipTypedArgs(call, info) {
			// A lone call whose type is not known may return as many
			// values as the function takes ("LinearRgbToXyz(col.LinearRgb())").
			if _, isCall := ast.Unparen(call.Args[0]).(*ast.CallExpr); isCall {
				return Issue{}, false
			}
		}
		if strings.HasPrefix(msg, "cannot use ") && s.snipParamOpaque(call, info, e.Pos) {
			// A parameter whose type comes from a package not loaded
			// ("gcp.TokenSource", an oauth2.TokenSource): what it
			// takes is not known ("Dial(ctx, nil)" is fine).
			return Issue{}, false
		}
		if name, ip, ok := s.snipModuleCallee(call, info); ok {
			iss.Kind = WrongArgs
			iss.Name, iss.Package = name, ip
			iss.Message = snipOneLine(msg)
			return iss, true
		}
		if iss, ok := s.snipMissingMethod(path, info, e, iss, given); ok {
			return iss, true
		}
		if name, ip, ok := s.snipStdCount(ctx, f, call, info, msg); ok {
			iss.Kind, iss.Std = WrongArgs, true
			iss.Name, iss.Package = name, ip
			iss.Message = snipOneLine(msg)
			return iss, true
		}
		if name, ip, ok := s.snipStdTypedArg(ctx, f, fset, files, blocks, call, info, e.Pos, msg); ok {
			iss.Kind, iss.Std = WrongArgs, true
			iss.Name, iss.Package = name, ip
			iss.Message = snipOneLine(msg)
			return iss, true
		}
		if name, ip, ok := s.snipStdLiteralArg(ctx, f, call, info, e.Pos, msg); ok {
			iss.Kind, iss.Std = WrongArgs, true
			iss.Name, iss.Package = name, ip
			iss.Message = snipOneLine(msg)
			return iss, true
		}
		if own := snipOwnFunc(fset, files, blocks, call, info); !strings.HasPrefix(msg, "cannot use ") && own != nil && call.Ellipsis == token.NoPos &&
			(len(call.Args) != 1 || s.snipTypedArgs(call, info)) {
			// A function the doc declares itself, called with another
			// count of arguments than it declares: the doc's own slip,
			// whatever the arguments are (only a lone call's results,
			// when its type is not known, could count for more than
			// one).
			sig := own.Type().(*types.Signature)
			iss.Kind = Compile
			iss.Message = fmt.Sprintf("%s: the block declares it with %s and calls it with %s",
				strings.SplitN(msg, "\n", 2)[0], snipCount(sig.Params().Len(), "parameter"), snipCount(len(call.Args), "argument"))
			return iss, true
		}
		return Issue{}, false

	case strings.HasPrefix(msg, "in call to ") && (strings.Contains(msg, "cannot infer ") || strings.Contains(msg, " does not match ")):
		// A generic module function whose type arguments the call does
		// not give and its arguments do not decide ("lo.Switch(1)" for
		// Switch[T, R]), or an argument of the wrong shape for them.
		var call *ast.CallExpr
		for i := len(path) - 1; i >= 0 && call == nil; i-- {
			if c, ok := path[i].(*ast.CallExpr); ok && c.Pos() <= e.Pos && e.Pos <= c.End() {
				call = c
			}
		}
		if call == nil || !s.snipTypedArgs(call, info) {
			return Issue{}, false
		}
		if name, ip, ok := s.snipModuleCallee(call, info); ok {
			iss.Kind = WrongArgs
			iss.Name, iss.Package = name, ip
			// The checker's "(declared at -)" names no place in a snippet.
			iss.Message = snipOneLine(strings.ReplaceAll(msg, " (declared at -)", ""))
			return iss, true
		}
		return Issue{}, false

	case strings.HasPrefix(msg, "cannot use ") && (strings.Contains(msg, "(missing method ") || strings.Contains(msg, "(wrong type for method ")):
		if own, ok := s.snipOwnImplements(info, e, iss); ok {
			return own, true
		}
		if strings.Contains(msg, "(wrong type for method ") {
			return Issue{}, false
		}
		return s.snipMissingMethod(path, info, e, iss, given)

	case strings.HasPrefix(msg, "assignment mismatch: "), strings.HasSuffix(msg, "(no value) used as value"),
		strings.HasPrefix(msg, "multiple-value ") && strings.HasSuffix(msg, " in single-value context"):
		// "ok := lo.TryCatch(…)" of a function without results is a
		// mismatch too, and so is "fm := root.Interface().(float64)" of
		// a method that also returns an error.
		for i := len(path) - 1; i >= 0; i-- {
			call, ok := path[i].(*ast.CallExpr)
			if !ok || call.Pos() != e.Pos {
				continue
			}
			if name, ip, ok := s.snipModuleCallee(call, info); ok {
				iss.Kind = Compile
				iss.Name, iss.Package = name, ip
				iss.Message = snipOneLine(msg)
				return iss, true
			}
			if name, ip, ok := s.snipStdResults(ctx, f, call, info); ok {
				iss.Kind, iss.Std = Compile, true
				iss.Name, iss.Package = name, ip
				iss.Message = snipOneLine(msg)
				return iss, true
			}
		}
		return Issue{}, false

	case strings.HasPrefix(msg, "cannot index ") && strings.Contains(msg, "of interface type"):
		// A field of a module type indexed as a map while it is
		// declared as an interface ("request.Params.Arguments["name"]"
		// of an Arguments any).
		for i := len(path) - 1; i >= 0; i-- {
			ix, ok := path[i].(*ast.IndexExpr)
			if !ok {
				continue
			}
			// The field's owner: the named type whose (possibly
			// anonymous struct) field it is, "CallToolRequest.Params".
			x, ok := ast.Unparen(ix.X).(*ast.SelectorExpr)
			if !ok {
				return Issue{}, false
			}
			name := x.Sel.Name
			var owner types.Type
			for {
				sel, ok := info.Selections[x]
				if !ok || sel.Kind() != types.FieldVal {
					return Issue{}, false
				}
				owner = deref(sel.Recv())
				if _, named := owner.(*types.Named); named {
					break
				}
				up, ok := ast.Unparen(x.X).(*ast.SelectorExpr)
				if !ok {
					return Issue{}, false
				}
				x, name = up, up.Sel.Name+"."+name
			}
			p := s.snipModuleType(owner)
			if p == nil {
				return Issue{}, false
			}
			iss.Kind = WrongType
			iss.Name, iss.Package = namedOf(owner)+"."+name, p.ImportPath
			iss.Message = snipOneLine(msg)
			return iss, true
		}
		return Issue{}, false

	case strings.HasPrefix(msg, "too many arguments in conversion to "):
		// A module type called like a function with several values
		// ("opentracing.Tag("user_agent", ua)" for the struct Tag,
		// whose literal is Tag{…}): a conversion takes one, whatever
		// the values are.
		call, n, p := s.snipModuleConversion(path, info, e.Pos)
		if call == nil || len(call.Args) < 2 || call.Ellipsis.IsValid() {
			return Issue{}, false
		}
		if _, isFunc := n.Underlying().(*types.Signature); isFunc {
			// A func type's name called stands for a function of that
			// type: netpoll's OnRequest doc sketches "OnRequest(ctx,
			// connection)" for the handler a reader registers.
			return Issue{}, false
		}
		iss.Kind = Compile
		iss.Name, iss.Package = n.Obj().Name(), p.ImportPath
		iss.Message = fmt.Sprintf("%s is a type, not a function: a conversion takes one value, not %d", types.ExprString(call.Fun), len(call.Args))
		if _, isStruct := n.Underlying().(*types.Struct); isStruct {
			iss.Message += fmt.Sprintf("; a %s value is written %s{…}", n.Obj().Name(), types.ExprString(call.Fun))
		}
		return iss, true

	case strings.HasPrefix(msg, "missing argument in conversion to "):
		// A module type called as a function ("huma.ModelValidator()"
		// for the type of NewModelValidator's result).
		call, n, p := s.snipModuleConversion(path, info, e.Pos)
		if call == nil || len(call.Args) != 0 {
			return Issue{}, false
		}
		iss.Kind = Compile
		iss.Name, iss.Package = n.Obj().Name(), p.ImportPath
		iss.Message = fmt.Sprintf("%s is a type, not a function (a conversion with nothing to convert)", types.ExprString(call.Fun))
		if ctor := "New" + n.Obj().Name(); p.Types.Scope().Lookup(ctor) != nil {
			if _, isFunc := p.Types.Scope().Lookup(ctor).(*types.Func); isFunc {
				iss.Message += fmt.Sprintf("; %s returns one", ctor)
				iss.Closest = ctor
			}
		}
		return iss, true

	case strings.HasPrefix(msg, "too many return values"), strings.HasPrefix(msg, "not enough return values"):
		// The block writes the function's results and its return: a
		// count that differs is its own slip, when every value returned
		// has a known type (a lone call's results are known from the
		// callee's signature, whatever its arguments).
		for i := len(path) - 1; i >= 0; i-- {
			ret, ok := path[i].(*ast.ReturnStmt)
			if !ok {
				continue
			}
			if snipHasElided(ret) || snipWrapped(path[:i]) {
				// A return of statements from a body the block
				// leaves out returns what that body declares.
				return Issue{}, false
			}
			for _, r := range ret.Results {
				x := r
				if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && len(ret.Results) == 1 {
					x = call.Fun
				}
				tv, ok := info.Types[x]
				if !ok || tv.Type == nil || s.snipHasFake(tv.Type, 0) {
					return Issue{}, false
				}
				if b, ok := tv.Type.(*types.Basic); ok && b.Kind() == types.Invalid {
					return Issue{}, false
				}
			}
			iss.Kind = Compile
			iss.Message = snipOneLine(msg)
			return iss, true
		}
		return Issue{}, false

	case strings.HasSuffix(msg, " redeclared"):
		// A struct type of the block's that declares a field twice
		// (go-flags' README adds `Name string `long:"animal"…`` under
		// the Name it already has): no program holds it.
		for i := len(path) - 1; i >= 1; i-- {
			field, ok := path[i].(*ast.Field)
			if !ok {
				continue
			}
			if _, inStruct := path[i-1].(*ast.FieldList); !inStruct || i < 2 {
				return Issue{}, false
			}
			st, ok := path[i-2].(*ast.StructType)
			if !ok || len(field.Names) == 0 {
				return Issue{}, false
			}
			name := strings.TrimSuffix(msg, " redeclared")
			for _, other := range st.Fields.List {
				for _, n := range other.Names {
					if n.Name == name && n.Pos() < e.Pos {
						iss.Kind = Compile
						iss.Name = name
						iss.Message = fmt.Sprintf("duplicate field %s in the struct type (declared first on line %d)", name, e.Fset.Position(n.Pos()).Line-seg.start+1)
						return iss, true
					}
				}
			}
			return Issue{}, false
		}
		return Issue{}, false

	case strings.HasPrefix(msg, "no new variables on left side of :="):
		// Only `_ :=` counts. A block that declares the same variables
		// again ("resp, err := client.Get(…)" then "resp, err :=
		// client.Post(…)") is a gallery of alternatives, each right on
		// its own; a name an earlier block declared is the carry-over's
		// doing.
		for i := len(path) - 1; i >= 0; i-- {
			as, ok := path[i].(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE {
				continue
			}
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
					// One name a var statement of the block declared
					// before (ch-go's README: "var v proto.ColStr", later
					// "v := struct{…}{}"): no alternative of a gallery,
					// which writes := each time.
					if line, ok := snipVarDeclared(f, seg, as, info, e.Fset); ok {
						iss.Kind = Compile
						iss.Name = as.Lhs[0].(*ast.Ident).Name
						iss.Message = fmt.Sprintf("no new variables on left side of := (%s is declared by the var statement on line %d)", iss.Name, line)
						return iss, true
					}
					// A statement that goes on from the one that declared
					// its names (cilium/statedb's README: "myObjects, err
					// := NewMyObjectTable()" then "err :=
					// db.RegisterTable(myObjects)"): no alternative either,
					// it uses what the earlier statement made.
					// A parameter or receiver of the func whose body
					// declares it again at its top level (gookit/validate's
					// README: "func (v *customValidator) ValidateStruct(ptr
					// interface{}) error { v := validate.Struct(ptr) …"):
					// they share one scope.
					if name, ok := snipRedeclaredParam(path, as, info); ok {
						iss.Kind = Compile
						iss.Name = name
						iss.Message = fmt.Sprintf("no new variables on left side of := (%s is a parameter of the enclosing func)", name)
						return iss, true
					}
					if line, used, ok := snipContinuedDefine(f, seg, as, info, e.Fset); ok {
						iss.Kind = Compile
						iss.Name = l.(*ast.Ident).Name
						iss.Message = fmt.Sprintf("no new variables on left side of := (%s is declared on line %d by the statement whose %s this one uses)", iss.Name, line, used)
						return iss, true
					}
					if line, names, ok := snipRedefinedAfterUse(path[:i], seg, as, info, e.Fset); ok {
						iss.Kind = Redefined
						iss.Name = names[0]
						iss.Message = fmt.Sprintf("no new variables on left side of := (%s declared on line %d and used since; = assigns %s)",
							strings.Join(names, " and "), line, map[bool]string{true: "them", false: "it"}[len(names) > 1])
						return iss, true
					}
					return Issue{}, false
				}
			}
			iss.Kind = Compile
			iss.Message = "no new variables on left side of := (only _)"
			return iss, true
		}
		return Issue{}, false

	case strings.HasSuffix(msg, " (type) is not an expression"):
		// A repository type where a value goes: telebot v2.1.0's README
		// passes tb.Query (a struct) to b.Handle, whose endpoint for
		// inline queries is the constant tb.OnQuery.
		var id *ast.Ident
		for i := len(path) - 1; i >= 0 && id == nil; i-- {
			switch n := path[i].(type) {
			case *ast.SelectorExpr:
				id = n.Sel // tb.Query, whose error stands at tb
			case *ast.Ident:
				if i == 0 {
					id = n
				} else if _, sel := path[i-1].(*ast.SelectorExpr); !sel {
					id = n
				}
			default:
				i = -1
			}
		}
		if id == nil {
			return Issue{}, false
		}
		tn, ok := info.Uses[id].(*types.TypeName)
		if !ok || tn.Pkg() == nil || s.syms.PackageByPath(tn.Pkg().Path()) == nil {
			return Issue{}, false
		}
		if call := snipCallAt(path, e.Pos); call != nil && snipAllTypes(call.Args, info) {
			// "msgp.Encode(io.Writer, msgp.Encodable)": a signature
			// written with its parameters' types, not a call.
			return Issue{}, false
		}
		iss.Kind = WrongType
		iss.Name, iss.Package = tn.Name(), tn.Pkg().Path()
		iss.Message = fmt.Sprintf("%s: %s is a type, used where a value goes", msg, strings.TrimSuffix(msg, " (type) is not an expression"))
		return iss, true

	case strings.HasPrefix(msg, "duplicate key ") && strings.Contains(msg, " in map literal"),
		strings.HasPrefix(msg, "duplicate field name ") && strings.Contains(msg, " in struct literal"):
		iss.Kind = Compile
		iss.Message = msg
		return iss, true

	case strings.HasPrefix(msg, "cannot use ") && snipValueContext(msg):
		if iss, ok := s.snipWrongType(path, info, e, iss); ok {
			return iss, true
		}
		return Issue{}, false

	case strings.HasPrefix(msg, "could not import "):
		ip, _, _ := strings.Cut(strings.TrimPrefix(msg, "could not import "), " ")
		iss.Kind = UnknownName
		iss.Name, iss.Package = ip, ip
		switch {
		case s.snipOtherMajor(ip) != "":
			// Reported as a wrong import.
			return Issue{}, false
		case s.snipNoPackage(ip):
			return s.snipNoPackageIssue(iss, ip), true
		case strings.Contains(msg, retrieval.ErrStdMissing.Error()):
			// Only a misspelt standard path ("encoding/jsn") is a mistake;
			// "your/app/tasks" is the reader's own package.
			closest := s.syms.StdClosestPath(ip)
			if closest == "" {
				return Issue{}, false
			}
			iss.Closest = closest
			iss.Message = fmt.Sprintf("the standard library has no package %s (closest: %s)", ip, closest)
		default:
			return Issue{}, false
		}
		return iss, true

	case strings.HasPrefix(msg, "undefined: "):
		name := strings.TrimPrefix(msg, "undefined: ")
		if name == snipElided {
			return Issue{}, false
		}
		// The variable is the checked block's own, not a block's before
		// it.
		// ownLine is the line, in the checked block, of a declaration
		// there; 0 for one in another block, before it in the file or
		// in a file of its own.
		ownLine := func(pos token.Pos) int {
			of, l := snipFileAt(fset, files, pos)
			if of != f {
				return 0
			}
			if s, ok := snipSegAt(of, l); ok && blocks[s.block].src {
				return l - s.start + 1
			}
			return 0
		}
		own := func(v *types.Var) bool { return v != nil && ownLine(v.Pos()) > 0 }
		if v := snipUnusedNamesake(path, info, e.Pos, name); own(v) {
			iss.Kind = Renamed
			iss.Name, iss.Closest, iss.Absent = name, v.Name(), true
			iss.Message = fmt.Sprintf("%s is declared nowhere; %s, declared on line %d and never used, is one letter away and of a type this use takes (%s)",
				name, v.Name(), fset.Position(v.Pos()).Line-seg.start+1, types.TypeString(v.Type(), func(p *types.Package) string { return p.Name() }))
			return iss, true
		}
		if v := snipParamInitial(path, info, name); own(v) {
			iss.Kind = Renamed
			iss.Name, iss.Closest, iss.Absent = name, v.Name(), true
			iss.Message = fmt.Sprintf("%s is declared nowhere; %s, the parameter of the func literal around it (line %d), starts with that letter and has the type this use takes (%s)",
				name, v.Name(), fset.Position(v.Pos()).Line-seg.start+1, types.TypeString(v.Type(), func(p *types.Package) string { return p.Name() }))
			return iss, true
		}
		if v := snipCaseNamesake(info, e.Pos, name); own(v) {
			// cmux's README: "grpcS := grpc.NewServer()", then
			// "RegisterGreeterServer(grpcs, …)".
			iss.Kind = Renamed
			iss.Name, iss.Closest, iss.Absent = name, v.Name(), true
			iss.Message = fmt.Sprintf("%s is declared nowhere; %s, declared on line %d, differs from it only in case",
				name, v.Name(), fset.Position(v.Pos()).Line-seg.start+1)
			return iss, true
		}
		if obj := snipUnusedDeclNamesake(info, name); obj != nil && ownLine(obj.Pos()) > 0 {
			// "type ImageProcesser struct" above methods and a
			// constructor of *ImageProcessor (asynq's README).
			iss.Kind = Renamed
			iss.Name, iss.Closest, iss.Absent = name, obj.Name(), true
			iss.Message = fmt.Sprintf("%s is declared nowhere; %s, declared on line %d and never used, is one letter away",
				name, obj.Name(), ownLine(obj.Pos()))
			return iss, true
		}
		if v, member := s.snipUnusedReceiver(path, info, e.Pos, name); own(v) {
			iss.Kind = Renamed
			iss.Name, iss.Closest, iss.Absent = name, v.Name(), true
			iss.Message = fmt.Sprintf("%s is declared nowhere; %s, declared on line %d and never used, is the one variable of the block with the %s it is used for (%s)",
				name, v.Name(), fset.Position(v.Pos()).Line-seg.start+1, member, types.TypeString(v.Type(), func(p *types.Package) string { return p.Name() }))
			return iss, true
		}
		if others, ok := snipAssignedUndeclared(path, info, f.ast, name, ownLine); ok {
			iss.Kind = Compile
			iss.Name = name
			iss.Message = fmt.Sprintf("%s is assigned with = beside %s but declared nowhere; := declares it (%s, %s := …)",
				name, others, name, others)
			return iss, true
		}
		if snipIsQualifier(f.ast, e.Pos) {
			if !strict {
				if p, sels, ok := s.snipMovedPackage(from, f.ast, name); ok {
					iss.Kind = UnknownName
					iss.Name, iss.Package, iss.Absent = name, p.ImportPath, true
					iss.Message = fmt.Sprintf("no package %s exists in the module, its dependencies or the standard library; %s %s declared in package %s (%s)",
						name, strings.Join(sels, ", "), map[bool]string{true: "are", false: "is"}[len(sels) > 1], p.Name, p.ImportPath)
					return iss, true
				}
			}
			if !strict || s.snipUnknownImport(f.ast, info) && !s.syms.StdNamed(name) {
				// A standard package's name still means that package.
				return Issue{}, false
			}
			ip := s.snipImportFor(ctx, from, name, snipSelected(f.ast, name))
			if ip == "" {
				return Issue{}, false
			}
			iss.Kind = MissingImport
			iss.Name, iss.Package = name, ip
			iss.Message = fmt.Sprintf("%s is used without importing %q", name, ip)
			if std := s.snipStdDeclaring(ctx, name, snipSelected(f.ast, name)); std != "" && std != ip {
				iss.Also = std
				iss.Message += fmt.Sprintf(" (or %q)", std)
			}
			return iss, true
		}
		p := f.unqualified[name]
		if p == nil && strict && token.IsExported(name) {
			// A complete file gets no imports of the checker's, so its
			// bare names were not matched with its packages: one that a
			// package the file imports declares ("result, err :=
			// ToJson(aMap)" under import
			// ".../lancet/v2/convertor") is that package's.
			if q := s.snipQualifiedDeclaring(f, name); q != nil && !snipReceiverType(files, name) && !snipOnlyVarType(f.ast, name) &&
				!snipInterfaceLiteral(f.ast, name, q.Types.Scope().Lookup(name)) && !snipTypeOfNonType(f.ast, name, q.Types.Scope().Lookup(name)) &&
				snipQualifies(f, q, []types.Error{e}, files, blocks) {
				p = q
			}
		}
		if p != nil {
			q := snipQualifierOf(f, p)
			iss.Kind = Unqualified
			iss.Name, iss.Package, iss.Closest = name, p.ImportPath, q+"."+name
			iss.Message = fmt.Sprintf("%s is written bare while the block qualifies package %s's other names as %s.…, so it is undefined where the block is pasted: %s.%s",
				name, p.ImportPath, q, q, name)
			return iss, true
		}
		if from != nil && from.Types != nil && from.Types.Scope().Lookup(name) != nil {
			return Issue{}, false
		}
		// A type the block writes methods for ("func (Hook1) ProcessHook")
		// is the reader's own, left undeclared.
		if p, closest := s.snipCloseUnqualified(from, f, name, full); p != nil && !snipReceiverType(files, name) {
			iss.Kind = UnknownName
			iss.Name, iss.Package, iss.Closest, iss.Absent = p.Name+"."+name, p.ImportPath, closest, true
			iss.Message = fmt.Sprintf("package %s has no %s", p.ImportPath, name)
			return iss, true
		}
		iss.Kind = Undeclared
		iss.Name = name
		iss.Message = fmt.Sprintf("%s is not declared in the snippet", name)
		if !full {
			iss.Message = fmt.Sprintf("%s is not declared in the snippet or the code blocks before it", name)
		}
		return iss, true
	}
	return Issue{}, false
}

// snipOwnImplements handles "cannot use v (value of type T) as I value
// in …: T does not implement I (wrong type for method M)", or "(missing
// method M)", where T is a type the block declares and I an interface of
// the module: the reader's type was written for another version of I
// (go-smtp's README Session.Mail(from string) while smtp.Session wants
// Mail(from string, opts MailOptions)).
func (s *checker) snipOwnImplements(info *types.Info, e types.Error, iss Issue) (Issue, bool) {
	head, rest, ok := strings.Cut(e.Msg, " does not implement ")
	if !ok {
		return Issue{}, false
	}
	iface, why, ok := strings.Cut(rest, " (")
	if !ok {
		return Issue{}, false
	}
	why, _, _ = strings.Cut(why, ")")
	method, ok := strings.CutPrefix(why, "wrong type for method ")
	if !ok {
		if method, ok = strings.CutPrefix(why, "missing method "); !ok {
			return Issue{}, false
		}
	}
	i := strings.LastIndex(head, ": ")
	if i < 0 || !token.IsIdentifier(method) {
		return Issue{}, false
	}
	concrete := strings.TrimLeft(head[i+2:], "*")
	if !token.IsIdentifier(concrete) {
		return Issue{}, false // a type of a package, not the block's
	}
	own := false
	for id, obj := range info.Defs {
		if tn, isType := obj.(*types.TypeName); isType && id.Name == concrete && !tn.IsAlias() {
			own = true
			break
		}
	}
	if !own {
		return Issue{}, false
	}
	for id, obj := range info.Uses {
		tn, isType := obj.(*types.TypeName)
		if !isType || tn.Pkg() == nil || tn.Pkg().Name()+"."+id.Name != iface || !types.IsInterface(tn.Type()) {
			continue
		}
		p := s.snipModuleType(tn.Type())
		if p == nil {
			return Issue{}, false
		}
		iss.Kind = Compile
		iss.Name = tn.Name() + "." + method
		iss.Package = p.ImportPath
		iss.Message = snipOneLine(e.Msg)
		return iss, true
	}
	return Issue{}, false
}

// snipMissingMethod handles "cannot use v (... type T) as I value in ...:
// T does not implement I (missing method M)" where T is a repository type:
// the method is gone or renamed.
func (s *checker) snipMissingMethod(path []ast.Node, info *types.Info, e types.Error, iss Issue, given func(types.Object) bool) (Issue, bool) {
	i := strings.LastIndex(e.Msg, "(missing method ")
	if !strings.HasPrefix(e.Msg, "cannot use ") || i < 0 {
		return Issue{}, false
	}
	method := strings.TrimSuffix(e.Msg[i+len("(missing method "):], ")")
	// The operand the message names: "rb.Read" passed as an io.Reader
	// is a method value, not rb missing Read.
	operand, _, _ := strings.Cut(strings.TrimPrefix(e.Msg, "cannot use "), " (")
	for j := len(path) - 1; j >= 0; j-- {
		x, ok := path[j].(ast.Expr)
		if !ok || x.Pos() != e.Pos {
			continue
		}
		if str := types.ExprString(x); str != operand && len(operand) > len(str) {
			continue // a part of the operand ("rb" of "rb.Read")
		}
		tv, ok := info.Types[x]
		if !ok {
			continue
		}
		if id, isID := x.(*ast.Ident); isID && given(info.Uses[id]) {
			// A doc comment's parameter, its type taken from the
			// declaration: a copied example ("context.WithCancelCause(
			// parent)" in a fork of package context) means another one.
			return Issue{}, false
		}
		if sel, isSel := x.(*ast.SelectorExpr); isSel && info.Selections[sel] != nil && info.Selections[sel].Kind() == types.MethodVal {
			// A method value where its receiver goes ("ReadAll(rb.Read)").
			if p := s.snipModuleType(info.Selections[sel].Recv()); p != nil {
				iss.Kind = Compile
				iss.Name = sel.Sel.Name
				iss.Package = p.ImportPath
				iss.Message = snipOneLine(e.Msg)
				return iss, true
			}
			continue
		}
		if p := s.snipModuleType(tv.Type); p != nil && token.IsIdentifier(method) {
			iss.Kind = UnknownMember
			iss.Name = method
			iss.Package = p.ImportPath
			iss.Message = snipOneLine(e.Msg)
			return iss, true
		}
	}
	return Issue{}, false
}

// snipModuleConversion returns the call at pos when it converts to a named
// type of the module, with the type and its package; nil when it does
// not.
func (s *checker) snipModuleConversion(path []ast.Node, info *types.Info, pos token.Pos) (*ast.CallExpr, *types.Named, *retrieval.Package) {
	call := snipCallAt(path, pos)
	if call == nil {
		return nil, nil, nil
	}
	tv, ok := info.Types[call.Fun]
	if !ok || !tv.IsType() {
		return nil, nil, nil
	}
	p := s.snipModuleType(tv.Type)
	n, named := types.Unalias(tv.Type).(*types.Named)
	if p == nil || !named {
		return nil, nil, nil
	}
	return call, n, p
}

// snipModulePkgOf returns the repository package an identifier used as a
// qualifier refers to; nil for other packages and placeholders.
func (s *checker) snipModulePkgOf(x ast.Expr, info *types.Info) *retrieval.Package {
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil
	}
	pn, ok := info.Uses[id].(*types.PkgName)
	if !ok || s.syms.Placeholder(pn.Imported()) {
		return nil
	}
	p := s.syms.PackageByPath(pn.Imported().Path())
	if p == nil {
		p, _ = s.syms.DepPackage(pn.Imported().Path())
	}
	if p == nil || p.Types != pn.Imported() || !p.Complete() {
		return nil
	}
	return p
}

// snipStdName reports a name a standard library package does not declare
// ("os.GetEnv"). The package must be certain: imported by the block
// itself, or, when the checker chose it for an unimported qualifier, one
// whose declared names include the selected one in other letter case
// ("Getenv"), which a reader mistyped; another package of that name (a
// logger named log, pkg/errors for errors) is not such a near miss.
func (s *checker) snipStdName(ctx context.Context, f *snipFile, sel *ast.SelectorExpr, info *types.Info, iss Issue) (Issue, bool) {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return Issue{}, false
	}
	pn, ok := info.Uses[id].(*types.PkgName)
	if !ok {
		return Issue{}, false
	}
	sp, err := s.syms.StdPackage(ctx, pn.Imported().Path())
	if err != nil || sp.Types == nil || sp.Types != pn.Imported() || !sp.Types.Complete() {
		return Issue{}, false
	}
	closest := ""
	for _, n := range sp.Types.Scope().Names() {
		if token.IsExported(n) && n != sel.Sel.Name && strings.EqualFold(n, sel.Sel.Name) {
			closest = n
		}
	}
	if _, auto := f.auto[id.Name]; auto && closest == "" && !s.snipPlainStd(id.Name) {
		return Issue{}, false
	}
	iss.Kind, iss.Std, iss.Closest, iss.Absent = UnknownName, true, closest, true
	iss.Name = pn.Name() + "." + sel.Sel.Name
	iss.Package = sp.ImportPath
	iss.Message = fmt.Sprintf("package %s has no %s", sp.ImportPath, sel.Sel.Name)
	return iss, true
}

// snipModuleType returns the repository package declaring t's named type
// (through a pointer), when all its members are known; else nil.
func (s *checker) snipModuleType(t types.Type) *retrieval.Package {
	if t == nil {
		return nil
	}
	n, ok := deref(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	p := s.syms.PackageByPath(n.Obj().Pkg().Path())
	if p == nil {
		p, _ = s.syms.DepPackage(n.Obj().Pkg().Path())
	}
	if p == nil || p.Types != n.Obj().Pkg() || !p.Complete() || s.syms.UnknownMembers(t) {
		return nil
	}
	return p
}

// snipStdType returns the standard library package declaring t (or what
// t points to), when t is a named type of a std package loaded from
// export data and none of its embedded parts is unknown; else nil.
func (s *checker) snipStdType(ctx context.Context, t types.Type) *retrieval.Package {
	if t == nil {
		return nil
	}
	n, ok := deref(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	p, err := s.syms.StdPackage(ctx, n.Obj().Pkg().Path())
	if err != nil || p.Types != n.Obj().Pkg() || s.syms.UnknownMembers(t) {
		return nil
	}
	return p
}

// closestMember returns the exported field or method of t (or what t
// points to) closest to name, within a Damerau-Levenshtein distance of
// max(1, len/3) of the lower-cased names, when exactly one is closest.
func closestMember(t types.Type, name string) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	var members []string
	ptr := t
	if !types.IsInterface(t) {
		ptr = types.NewPointer(t)
	}
	ms := types.NewMethodSet(ptr)
	for m := range ms.Methods() {
		members = append(members, m.Obj().Name())
	}
	if st, ok := t.Underlying().(*types.Struct); ok {
		for f := range st.Fields() {
			members = append(members, f.Name())
		}
	}
	best, bestD, n := "", -1, 0
	limit := max(1, len([]rune(name))/3)
	for _, m := range members {
		if !token.IsExported(m) {
			continue
		}
		d := retrieval.EditDistance(strings.ToLower(m), strings.ToLower(name), -1)
		switch {
		case d > limit:
		case bestD < 0 || d < bestD:
			best, bestD, n = m, d, 1
		case d == bestD && m != best:
			n++
		}
	}
	if n != 1 {
		return ""
	}
	return best
}

// snipModuleCallee returns the name and package of the repository
// function or method call calls.
func (s *checker) snipModuleCallee(call *ast.CallExpr, info *types.Info) (name, ip string, ok bool) {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return "", "", false
	}
	if v, isVar := info.Uses[id].(*types.Var); isVar && v.IsField() && v.Pkg() != nil {
		// A field of func type ("cmd.Run()" of cobra's Command, whose
		// Run is a func(cmd *Command, args []string)).
		sel, isSel := fun.(*ast.SelectorExpr)
		if _, isSig := v.Type().Underlying().(*types.Signature); !isSig || !isSel || info.Selections[sel] == nil {
			return "", "", false
		}
		p := s.syms.PackageByPath(v.Pkg().Path())
		if p == nil {
			p, _ = s.syms.DepPackage(v.Pkg().Path())
		}
		owner := namedOf(info.Selections[sel].Recv())
		if p == nil || p.Types != v.Pkg() || !p.Complete() || owner == "" || s.syms.UnknownMembers(info.Selections[sel].Recv()) {
			return "", "", false
		}
		return owner + "." + v.Name(), p.ImportPath, true
	}
	fn, isFunc := info.Uses[id].(*types.Func)
	if !isFunc {
		return "", "", false
	}
	sym, ok := s.syms.SymbolAt(fn.Origin().Pos())
	if !ok && fn.Pkg() != nil {
		// A func of a dependency loaded in full.
		if dp, ok := s.syms.DepPackage(fn.Pkg().Path()); ok && dp.Types == fn.Pkg() {
			sig, _ := fn.Type().(*types.Signature)
			if sig != nil && sig.Recv() != nil {
				return namedOf(sig.Recv().Type()) + "." + fn.Name(), dp.ImportPath, true
			}
			return dp.Name + "." + fn.Name(), dp.ImportPath, true
		}
	}
	if !ok || sym.Package == nil || !sym.Package.Complete() {
		return "", "", false
	}
	if sym.Kind == retrieval.SymbolFunc {
		return sym.Package.Name + "." + sym.Name, sym.Package.ImportPath, true
	}
	return sym.Name, sym.Package.ImportPath, true
}

// snipFileAt returns the file holding pos and its line.
func snipFileAt(fset *token.FileSet, files []*snipFile, pos token.Pos) (*snipFile, int) {
	if fset == nil || !pos.IsValid() {
		return nil, 0
	}
	p := fset.Position(pos)
	for _, f := range files {
		if f.name == p.Filename {
			return f, p.Line
		}
	}
	return nil, 0
}

// snipSegAt returns the block segment holding a file line.
func snipSegAt(f *snipFile, line int) (snipSeg, bool) {
	for _, seg := range f.segs {
		if line >= seg.start && line <= seg.end {
			return seg, true
		}
	}
	return snipSeg{}, false
}

// snipSrcSeg returns the segment of f at line when it holds the checked
// block, not one before it.
func snipSrcSeg(f *snipFile, blocks []*snipBlock, line int) (snipSeg, bool) {
	seg, ok := snipSegAt(f, line)
	return seg, ok && blocks[seg.block].src
}

// snipEnclosing returns the nodes of f enclosing pos, outermost first.
func snipEnclosing(f *ast.File, pos token.Pos) []ast.Node {
	var path []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		path = append(path, n)
		return true
	})
	return path
}

// snipUnusedNamesake returns the variable an undeclared name stands for
// when a rename was carried out halfway: a parameter or local variable of
// the function around the use, declared before it and never used, one
// edit from the name, of a type the use takes (an argument assignable to
// the parameter, a receiver with the selected member). gomock's doc
// declares "func TestFoo(t *testing.T)" and calls
// "gomock.NewController(st)". A name of one letter, or a use whose type
// the block does not decide, stays the reader's input.
func snipUnusedNamesake(path []ast.Node, info *types.Info, pos token.Pos, name string) *types.Var {
	if name == "" || len(path) < 2 {
		return nil
	}
	id, ok := path[len(path)-1].(*ast.Ident)
	if !ok || id.Name != name {
		return nil
	}
	v := snipOneUnused(path, info, pos, func(v *types.Var) bool {
		// A number added ("err1, err2, err3" beside err) names another
		// value of the reader's, not the variable misspelt.
		// A one-letter name is another's only when a letter was left
		// off its end (w for zerolog's "wr := diode.NewWriter(…)"): a
		// different letter is another variable of the reader's.
		if len(name) == 1 {
			return len(v.Name()) == 2 && strings.HasPrefix(v.Name(), name)
		}
		return retrieval.EditDistance(v.Name(), name, 1) == 1 && !snipNumbered(v.Name(), name) && !snipNumbered(name, v.Name())
	})
	if v == nil || !snipUseTakes(path[len(path)-2], id, info, v) {
		return nil
	}
	return v
}

// snipDroppedMsgs are the type errors no snippet is reported for: a
// fragment's unused names and missing returns, and a value of an
// "invalid type", one the checker could not type (a dependency that failed
// to load: gval's jsonpath.Language(), from a module requiring gval
// itself; hystrix-go's c.NewStatsdCollector, "func(name string) invalid
// type"), about which nothing is certain.
var snipDroppedMsgs = []string{"declared and not used", "imported and not used", " is not used", "missing return", "missing function body", "imported as", "invalid type"}

// snipDropped reports whether a type error's message is one of
// snipDroppedMsgs.
func snipDropped(msg string) bool {
	if strings.HasPrefix(msg, "too many arguments in call to ") || strings.HasPrefix(msg, "not enough arguments in call to ") {
		// A count is wrong whatever the values' types (ory/pop's
		// Count(&users, "f") of a Count(model interface{})).
		return false
	}
	return slices.ContainsFunc(snipDroppedMsgs, func(drop string) bool { return strings.Contains(msg, drop) })
}

// snipAssignedUndeclared reports, for an undeclared name at the end of
// path, a plain assignment that should declare it: "tx, err = db.Begin()"
// in a function whose err is declared (go-sqlmock's README), where := would
// declare tx. The name must be a left-hand operand of a multi-value =,
// inside a function of the block, used nowhere before it, and another
// left-hand operand must be a variable the checked block declares. It
// returns that variable's name. An undeclared err is the reader's: the
// code around any snippet has one ("buf, err = ds.MarshalSSZTo(…)" in a
// loop, where := would shadow buf).
func snipAssignedUndeclared(path []ast.Node, info *types.Info, f *ast.File, name string, ownLine func(token.Pos) int) (string, bool) {
	if len(path) < 3 || name == "err" {
		return "", false
	}
	id, ok := path[len(path)-1].(*ast.Ident)
	if !ok || id.Name != name {
		return "", false
	}
	as, ok := path[len(path)-2].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) < 2 || !slices.Contains(as.Lhs, ast.Expr(id)) {
		return "", false
	}
	inFunc := false
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			inFunc = true
		}
	}
	if !inFunc {
		return "", false
	}
	other := ""
	for _, l := range as.Lhs {
		o, ok := l.(*ast.Ident)
		if !ok || o == id || o.Name == "_" {
			continue
		}
		if v, isVar := info.Uses[o].(*types.Var); isVar && ownLine(v.Pos()) > 0 {
			other = o.Name
		} else {
			return "", false
		}
	}
	if other == "" {
		return "", false
	}
	earlier := false
	ast.Inspect(f, func(n ast.Node) bool {
		if o, ok := n.(*ast.Ident); ok && o.Name == name && o.Pos() < id.Pos() {
			earlier = true
		}
		return !earlier
	})
	return other, !earlier
}

// snipCaseNamesake returns the one variable, declared before pos and in
// scope there, whose name differs from the undeclared name only in case
// after its first letter ("grpcs" for grpcS); names of three letters or
// more. Go's names are case-sensitive: no reader keeps an input so named
// beside it. A capital first letter is another thing, the reader's type
// beside its variable ("foo := Foo{…}"), and never counts.
func snipCaseNamesake(info *types.Info, pos token.Pos, name string) *types.Var {
	if len(name) < 3 || token.IsExported(name) {
		return nil
	}
	var found *types.Var
	for def, obj := range info.Defs {
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() || def.Name == name || !strings.EqualFold(def.Name, name) || def.Name[0] != name[0] || def.Pos() >= pos || !snipVisibleAt(v, pos) {
			continue
		}
		// In scope at pos, not declared by the statement that uses the
		// name: "minioFs := miniofs.NewMinioFs(…)" (afero's README)
		// selects from a package.
		if !snipDeclaredBefore(v, pos) {
			continue
		}
		if found != nil {
			return nil
		}
		found = v
	}
	return found
}

// snipParamInitial returns the parameter an undeclared one-letter name
// abbreviates: goproxy's README passes r to goproxy.NewResponse inside
// "func(req *http.Request, ctx *goproxy.ProxyCtx)". The func literal must
// stand in no other func of the block (an outer handler's r would be
// another request), and exactly one of its parameters may start with the
// letter and have the type the use takes.
func snipParamInitial(path []ast.Node, info *types.Info, name string) *types.Var {
	if len(name) != 1 || len(path) < 2 {
		return nil
	}
	id, ok := path[len(path)-1].(*ast.Ident)
	if !ok || id.Name != name {
		return nil
	}
	var lit *ast.FuncLit
	for i := len(path) - 1; i >= 0; i-- {
		switch n := path[i].(type) {
		case *ast.FuncLit:
			if lit != nil {
				return nil
			}
			lit = n
		case *ast.FuncDecl:
			if n.Name.Name != "_" {
				return nil // a func of the block's own, or the reader's
			}
		}
	}
	if lit == nil || lit.Type.Params == nil {
		return nil
	}
	var found *types.Var
	for _, field := range lit.Type.Params.List {
		for _, pn := range field.Names {
			v, ok := info.Defs[pn].(*types.Var)
			if !ok || len(pn.Name) < 2 || !strings.HasPrefix(pn.Name, name) || !typeKnownVar(v) || !snipUseTakes(path[len(path)-2], id, info, v) {
				continue
			}
			if found != nil {
				return nil
			}
			found = v
		}
	}
	return found
}

// snipUnusedDeclNamesake returns the one package-level type or func the
// checked source declares, never uses, and spells one letter away from
// name, an undeclared name of four letters or more; nil when there is none
// or more than one. A number added is another name, not a slip.
func snipUnusedDeclNamesake(info *types.Info, name string) types.Object {
	if len(name) < 4 {
		return nil
	}
	used := make(map[types.Object]bool, len(info.Uses))
	for _, obj := range info.Uses {
		used[obj] = true
	}
	var found types.Object
	for def, obj := range info.Defs {
		switch obj.(type) {
		case *types.TypeName, *types.Func:
		default:
			continue
		}
		if obj == nil || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() || used[obj] || def.Name == "main" ||
			retrieval.EditDistance(def.Name, name, 1) != 1 || snipNumbered(def.Name, name) || snipNumbered(name, def.Name) {
			continue
		}
		if found != nil {
			return nil
		}
		found = obj
	}
	return found
}

// snipParamOpaque reports whether the parameter of call that takes the
// argument at pos has a type whose underlying type is not known: it is
// invalid, or it comes from a placeholder package.
func (s *checker) snipParamOpaque(call *ast.CallExpr, info *types.Info, pos token.Pos) bool {
	tv, ok := info.Types[call.Fun]
	if !ok {
		return false
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() == 0 {
		return false
	}
	for i, a := range call.Args {
		if pos < a.Pos() || pos >= a.End() {
			continue
		}
		t := sig.Params().At(min(i, sig.Params().Len()-1)).Type()
		if sig.Variadic() && i >= sig.Params().Len()-1 && call.Ellipsis == token.NoPos {
			if sl, ok := t.(*types.Slice); ok {
				t = sl.Elem()
			}
		}
		return t.Underlying() == types.Typ[types.Invalid] || s.syms.UnknownMembers(t)
	}
	return false
}

// snipAllTypes reports whether args are two or more, each a type.
func snipAllTypes(args []ast.Expr, info *types.Info) bool {
	if len(args) < 2 {
		return false
	}
	for _, a := range args {
		if tv, ok := info.Types[a]; !ok || !tv.IsType() {
			return false
		}
	}
	return true
}

// snipNumbered reports whether name is base with a number after it.
func snipNumbered(name, base string) bool {
	rest, ok := strings.CutPrefix(name, base)
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

// snipUnusedReceiver returns the variable an undeclared receiver stands
// for, whatever its name: the one variable of the function around the use,
// declared before it and never used, whose type, a module type, has the
// member selected. eino's README compiles "compiledGraph, err :=
// graph.Compile(ctx)" and calls "r.Invoke(ctx, …)". It returns the member
// too.
func (s *checker) snipUnusedReceiver(path []ast.Node, info *types.Info, pos token.Pos, name string) (*types.Var, string) {
	if len(path) < 2 {
		return nil, ""
	}
	id, ok := path[len(path)-1].(*ast.Ident)
	sel, isSel := path[len(path)-2].(*ast.SelectorExpr)
	if !ok || id.Name != name || !isSel || sel.X != id {
		return nil, ""
	}
	v := snipOneUnused(path, info, pos, func(v *types.Var) bool {
		if v.Name() == name || s.snipModuleType(v.Type()) == nil {
			return false
		}
		m, _, _ := types.LookupFieldOrMethod(v.Type(), true, v.Pkg(), sel.Sel.Name)
		return m != nil
	})
	if v == nil {
		return nil, ""
	}
	return v, sel.Sel.Name
}

// snipOneUnused returns the one variable keep accepts among those of the
// function around pos (path leads to it) that are declared before pos,
// in scope there, never used and of a type the checker decided; nil when
// none or several are: which one is meant is then not certain.
func snipOneUnused(path []ast.Node, info *types.Info, pos token.Pos, keep func(*types.Var) bool) *types.Var {
	var fn ast.Node
	for i := len(path) - 1; i >= 0 && fn == nil; i-- {
		switch path[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			fn = path[i]
		}
	}
	if fn == nil {
		return nil
	}
	used := make(map[types.Object]bool, len(info.Uses))
	for _, obj := range info.Uses {
		used[obj] = true
	}
	var found *types.Var
	for def, obj := range info.Defs {
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() || def.Pos() < fn.Pos() || def.Pos() >= pos || used[v] || def.Name == "_" ||
			!snipVisibleAt(v, pos) || !typeKnownVar(v) || !keep(v) {
			continue
		}
		if found != nil {
			return nil
		}
		found = v
	}
	return found
}

// snipVisibleAt reports whether v's scope holds pos: a parameter of a
// func literal passed on an earlier line ("t.Run(…, func(t *td.T) {})")
// is not in scope on the next.
func snipVisibleAt(v *types.Var, pos token.Pos) bool {
	return v.Parent() != nil && v.Parent().Contains(pos)
}

// snipDeclaredBefore reports whether v's scope, looked up from pos, finds
// v: a variable declared by the statement that holds pos is not yet in
// scope there, whatever lines that statement spans.
func snipDeclaredBefore(v *types.Var, pos token.Pos) bool {
	if v.Parent() == nil {
		return false
	}
	_, o := v.Parent().LookupParent(v.Name(), pos)
	return o == v
}

// typeKnownVar reports whether v's type was decided by the checker.
func typeKnownVar(v *types.Var) bool { return typeKnown(v.Type()) }

// snipUseTakes reports whether id, used under parent, would accept v: as a
// call's argument, v is assignable to the parameter; as a selector's
// operand, v's type has the selected field or method.
func snipUseTakes(parent ast.Node, id *ast.Ident, info *types.Info, v *types.Var) bool {
	switch p := parent.(type) {
	case *ast.CallExpr:
		sig, ok := info.TypeOf(p.Fun).(*types.Signature)
		if !ok {
			return false
		}
		i := slices.IndexFunc(p.Args, func(a ast.Expr) bool { return a == id })
		if i < 0 {
			return false
		}
		if p.Ellipsis.IsValid() && sig.Variadic() && i >= sig.Params().Len()-1 {
			return false
		}
		want := snipParamType(sig, i)
		if want == nil {
			return false
		}
		if i, ok := want.Underlying().(*types.Interface); ok && i.Empty() {
			return false // fmt.Println(x) takes anything
		}
		return types.AssignableTo(v.Type(), want)
	case *ast.SelectorExpr:
		if p.X != id {
			return false
		}
		obj, _, _ := types.LookupFieldOrMethod(v.Type(), true, v.Pkg(), p.Sel.Name)
		return obj != nil
	case *ast.KeyValueExpr:
		// "EmailDeliveryPayload{TemplateID: templID}": the field
		// takes v.
		key, ok := p.Key.(*ast.Ident)
		if !ok || p.Value != id {
			return false
		}
		field, ok := info.Uses[key].(*types.Var)
		if !ok || !field.IsField() {
			return false
		}
		if i, ok := field.Type().Underlying().(*types.Interface); ok && i.Empty() {
			return false
		}
		return types.AssignableTo(v.Type(), field.Type())
	}
	return false
}

// snipSelectorAt returns the innermost selector whose selected name is at
// pos.
func snipSelectorAt(path []ast.Node, pos token.Pos) *ast.SelectorExpr {
	for i := len(path) - 1; i >= 0; i-- {
		if sel, ok := path[i].(*ast.SelectorExpr); ok && sel.Sel.Pos() == pos {
			return sel
		}
	}
	return nil
}

// snipLiteralKeyAt returns the composite literal whose key is at pos, and
// the key's name.
func snipLiteralKeyAt(path []ast.Node, pos token.Pos) (*ast.CompositeLit, string) {
	for i := len(path) - 1; i > 0; i-- {
		kv, ok := path[i].(*ast.KeyValueExpr)
		if !ok || kv.Key.Pos() != pos {
			continue
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			return nil, ""
		}
		if lit, ok := path[i-1].(*ast.CompositeLit); ok {
			return lit, id.Name
		}
	}
	return nil, ""
}

// snipCallAt returns the innermost call whose argument list holds pos.
func snipCallAt(path []ast.Node, pos token.Pos) *ast.CallExpr {
	for i := len(path) - 1; i >= 0; i-- {
		if call, ok := path[i].(*ast.CallExpr); ok && pos > call.Lparen && pos <= call.Rparen {
			return call
		}
	}
	return nil
}

// snipIsQualifier reports whether the identifier at pos is the X of a
// selector expression.
func snipIsQualifier(f *ast.File, pos token.Pos) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if found || n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Pos() == pos {
				found = true
			}
		}
		return true
	})
	return found
}

// snipElidedStmtBefore reports whether f has a placeholder statement
// ("...") before pos.
func snipElidedStmtBefore(f *ast.File, pos token.Pos) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= pos {
			return false
		}
		if st, ok := n.(*ast.ExprStmt); ok {
			if id, ok := st.X.(*ast.Ident); ok && id.Name == snipElided {
				found = true
			}
		}
		return true
	})
	return found
}

// snipHasElided reports whether n contains a placeholder.
func snipHasElided(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == snipElided {
			found = true
		}
		return !found
	})
	return found
}

// snipOneLine joins a multi-line go/types message: "...: have (x), want
// (y)".
func snipOneLine(msg string) string {
	lines := strings.Split(msg, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	if len(lines) == 1 {
		return lines[0]
	}
	return lines[0] + ": " + strings.Join(lines[1:], ", ")
}

// snipHasPackage reports whether a block starts with a package clause.
func snipHasPackage(text string) bool {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(text)), []byte(text), nil, 0)
	for {
		_, tok, _ := sc.Scan()
		if tok == token.SEMICOLON {
			continue
		}
		return tok == token.PACKAGE
	}
}

// snipRenamePackage renames a file's package to snippet, on the same line.
func snipRenamePackage(text string) string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(text))
	sc.Init(file, []byte(text), nil, 0)
	for {
		_, tok, _ := sc.Scan()
		if tok == token.SEMICOLON {
			continue
		}
		if tok != token.PACKAGE {
			return text
		}
		pos, tok, lit := sc.Scan()
		if tok != token.IDENT {
			return text
		}
		off := file.Offset(pos)
		return text[:off] + "snippet" + text[off+len(lit):]
	}
}

// snipSplitImports removes a fragment's leading import declarations and
// returns their specs, keeping the body's line numbers (the removed text
// becomes blanks).
func snipSplitImports(text string) ([]string, string) {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(text))
	sc.Init(file, []byte(text), nil, 0)
	next := func() (token.Pos, token.Token, string) {
		for {
			pos, tok, lit := sc.Scan()
			if tok == token.SEMICOLON && lit == "\n" {
				continue
			}
			return pos, tok, lit
		}
	}
	var specs []string
	end := 0
	pos, tok, _ := next()
	for tok == token.IMPORT {
		p, t, lit := next()
		spec := func() bool {
			name := ""
			if t == token.IDENT || t == token.PERIOD {
				name = lit
				if t == token.PERIOD {
					name = "."
				}
				p, t, lit = next()
			}
			if t != token.STRING {
				return false
			}
			if name != "" {
				specs = append(specs, name+" "+lit)
			} else {
				specs = append(specs, lit)
			}
			end = file.Offset(p) + len(lit)
			return true
		}
		if t == token.LPAREN {
			for {
				p, t, lit = next()
				if t == token.RPAREN {
					end = file.Offset(p) + 1
					break
				}
				if t == token.SEMICOLON {
					continue
				}
				if !spec() {
					return nil, text
				}
			}
		} else if !spec() {
			return nil, text
		}
		pos, tok, _ = next()
	}
	_ = pos
	if end == 0 {
		return nil, text
	}
	b := []byte(text)
	for i := 0; i < end; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	return specs, string(b)
}

// snipElide replaces "..." (and "…") placeholders standing for omitted
// arguments, elements or statements by an identifier; "..." of variadic
// calls and parameters and of [...] arrays is kept.
func snipElide(text string) string {
	text = snipPlaceholders(text)
	if !strings.Contains(text, "...") && !strings.Contains(text, "…") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		var b strings.Builder
		for j := 0; j < len(line); {
			var width int
			switch {
			case strings.HasPrefix(line[j:], "..."):
				width = 3
			case strings.HasPrefix(line[j:], "…"):
				width = len("…")
			default:
				b.WriteByte(line[j])
				j++
				continue
			}
			// A run of them ("……", "......") is one elision.
			for {
				if strings.HasPrefix(line[j+width:], "…") {
					width += len("…")
				} else if strings.HasPrefix(line[j+width:], ".") {
					width++
				} else {
					break
				}
			}
			if strings.HasPrefix(strings.TrimSpace(line[:j]), "//") || strings.Contains(line[:j], "//") {
				b.WriteString(line[j:])
				break
			}
			before := strings.TrimRight(line[:j], " \t")
			after := strings.TrimLeft(line[j+width:], " \t")
			prevOK := before == "" || strings.ContainsAny(before[len(before)-1:], "({,=:")
			nextOK := after == "" || strings.ContainsAny(after[:1], "),}") || strings.HasPrefix(after, "//")
			if prevOK && nextOK && strings.HasPrefix(after, ")") && snipParamListOpen(b.String()) {
				// "GetMeSomeExamples(ctx context.Context, ...)": the
				// parameters left out, as one parameter.
				b.WriteString(snipElided + " ...any")
			} else if prevOK && nextOK {
				b.WriteString(snipElided)
			} else {
				b.WriteString(line[j : j+width])
			}
			j += width
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// snipParamFuncRE matches the text before a parameter list's "(": a
// func literal's "func", or a declaration's name after "func" and its
// receiver.
var snipParamFuncRE = regexp.MustCompile(`\bfunc\s*(\([^()]*\)\s*)?([A-Za-z_]\w*\s*(\[[^\]]*\])?)?$`)

// snipParamListOpen reports whether line, up to an elision, is inside a
// func's parameter list: its last unclosed "(" opens one, and a named
// parameter comes before the elision.
func snipParamListOpen(line string) bool {
	depth := 0
	for i := len(line) - 1; i >= 0; i-- {
		switch line[i] {
		case ')':
			depth++
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			params := strings.TrimSpace(line[i+1:])
			return params != "" && strings.Contains(params, " ") && snipParamFuncRE.MatchString(strings.TrimRight(line[:i], " \t"))
		}
	}
	return false
}

// snipValueContext reports whether a "cannot use" message is about a
// value in a literal, an assignment, a declaration, a return or a send.
func snipValueContext(msg string) bool {
	for _, where := range []string{" in struct literal", " in assignment", " in variable declaration", " in return statement", " in map literal", " in slice literal", " in array or slice literal", " in send"} {
		if strings.Contains(msg, where) {
			return true
		}
	}
	return false
}

// snipRedeclaredParam returns the name of a parameter or receiver that
// as, a statement of its func body's top level, declares again with :=.
func snipRedeclaredParam(path []ast.Node, as *ast.AssignStmt, info *types.Info) (string, bool) {
	for i := len(path) - 1; i >= 0; i-- {
		var ft *ast.FuncType
		var recv *ast.FieldList
		var body *ast.BlockStmt
		switch fn := path[i].(type) {
		case *ast.FuncDecl:
			ft, recv, body = fn.Type, fn.Recv, fn.Body
		case *ast.FuncLit:
			ft, body = fn.Type, fn.Body
		default:
			continue
		}
		if body == nil || !slices.Contains(body.List, ast.Stmt(as)) {
			return "", false
		}
		params := map[types.Object]bool{}
		for _, l := range []*ast.FieldList{recv, ft.Params, ft.Results} {
			if l == nil {
				continue
			}
			for _, f := range l.List {
				for _, n := range f.Names {
					if obj := info.Defs[n]; obj != nil {
						params[obj] = true
					}
				}
			}
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" && params[info.Uses[id]] {
				return id.Name, true
			}
		}
		return "", false
	}
	return "", false
}

// snipAssignedVar returns the package and name of the package-level
// variable of a repository package that an assignment among outer gives
// x to, or nil.
func (s *checker) snipAssignedVar(outer []ast.Node, x ast.Expr, info *types.Info) (*retrieval.Package, string) {
	if len(outer) == 0 {
		return nil, ""
	}
	as, ok := outer[len(outer)-1].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
		return nil, ""
	}
	for i, r := range as.Rhs {
		if ast.Unparen(r) != ast.Unparen(x) {
			continue
		}
		var id *ast.Ident
		switch l := ast.Unparen(as.Lhs[i]).(type) {
		case *ast.SelectorExpr:
			id = l.Sel
		case *ast.Ident:
			id = l
		}
		if id == nil {
			return nil, ""
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || s.snipHasFake(v.Type(), 0) {
			return nil, ""
		}
		p := s.syms.PackageByPath(v.Pkg().Path())
		if p == nil {
			p, _ = s.syms.DepPackage(v.Pkg().Path())
		}
		if p == nil || p.Types != v.Pkg() || !p.Complete() {
			return nil, ""
		}
		return p, v.Name()
	}
	return nil, ""
}

// snipWrongType handles "cannot use x (... type T) as U value in ..."
// where T, U or the literal holding x is a repository type and nothing
// involved is a placeholder for a package docreview could not load.
func (s *checker) snipWrongType(path []ast.Node, info *types.Info, e types.Error, iss Issue) (Issue, bool) {
	var x ast.Expr
	at := -1
	for j := len(path) - 1; j >= 0; j-- {
		if ex, ok := path[j].(ast.Expr); ok && ex.Pos() == e.Pos {
			if _, ok := info.Types[ex]; ok {
				x, at = ex, j
			}
		}
	}
	if x == nil {
		return Issue{}, false
	}
	got := info.Types[x].Type
	want, lit := snipExpected(path[:at], x, info)
	if want == nil || s.snipHasFake(got, 0) || s.snipHasFake(want, 0) {
		return Issue{}, false
	}
	owner, name := s.snipModuleType(got), namedOf(got)
	if owner == nil {
		owner, name = s.snipModuleType(want), namedOf(want)
	}
	if owner == nil && lit != nil {
		if tv, ok := info.Types[lit]; ok && !s.snipHasFake(tv.Type, 0) {
			owner, name = s.snipModuleType(tv.Type), namedOf(tv.Type)
		}
	}
	if owner == nil {
		// A value assigned to a variable of a repository package whose
		// type is unnamed: zerolog's "zerolog.CallerMarshalFunc =
		// func(file string, line int) string {…}" for a
		// func(pc uintptr, file string, line int) string.
		owner, name = s.snipAssignedVar(path[:at], x, info)
	}
	if owner == nil {
		return Issue{}, false
	}
	iss.Kind = WrongType
	iss.Name, iss.Package = name, owner.ImportPath
	iss.Message = snipOneLine(e.Msg)
	return iss, true
}

// snipExpected returns the type the place of x expects (a field of a
// struct literal, an element of a slice, array or map literal, a declared
// or assigned variable) and the literal holding x when there is one; nil
// when the place is none of these.
func snipExpected(outer []ast.Node, x ast.Expr, info *types.Info) (types.Type, *ast.CompositeLit) {
	if len(outer) == 0 {
		return nil, nil
	}
	parent := outer[len(outer)-1]
	if kv, ok := parent.(*ast.KeyValueExpr); ok && kv.Value == x && len(outer) > 1 {
		lit, ok := outer[len(outer)-2].(*ast.CompositeLit)
		if !ok {
			return nil, nil
		}
		tv, ok := info.Types[lit]
		if !ok {
			return nil, lit
		}
		switch u := deref(tv.Type).Underlying().(type) {
		case *types.Struct:
			key, ok := kv.Key.(*ast.Ident)
			if !ok {
				return nil, lit
			}
			for f := range u.Fields() {
				if f.Name() == key.Name {
					return f.Type(), lit
				}
			}
		case *types.Map:
			return u.Elem(), lit
		case *types.Slice:
			return u.Elem(), lit
		case *types.Array:
			return u.Elem(), lit
		}
		return nil, lit
	}
	switch p := parent.(type) {
	case *ast.CompositeLit:
		tv, ok := info.Types[p]
		if !ok {
			return nil, p
		}
		switch u := deref(tv.Type).Underlying().(type) {
		case *types.Slice:
			return u.Elem(), p
		case *types.Array:
			return u.Elem(), p
		case *types.Struct:
			for i, el := range p.Elts {
				if el == x && i < u.NumFields() {
					return u.Field(i).Type(), p
				}
			}
		}
		return nil, p
	case *ast.ValueSpec:
		if p.Type == nil {
			return nil, nil
		}
		if tv, ok := info.Types[p.Type]; ok {
			return tv.Type, nil
		}
	case *ast.SendStmt:
		if p.Value != x {
			return nil, nil
		}
		if tv, ok := info.Types[p.Chan]; ok {
			if ch, ok := tv.Type.Underlying().(*types.Chan); ok {
				return ch.Elem(), nil
			}
		}
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r == x && len(p.Lhs) == len(p.Rhs) {
				if tv, ok := info.Types[p.Lhs[i]]; ok {
					return tv.Type, nil
				}
			}
		}
	}
	return nil, nil
}

// deref returns what t points to, or t when it is no pointer, through
// aliases ("type RunInfo = callbacks.RunInfo", re-exporting an internal
// package's type, stands for the type it names).
func deref(t types.Type) types.Type {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		return types.Unalias(p.Elem())
	}
	return t
}

// namedOf returns the name of t's named type (through a pointer).
func namedOf(t types.Type) string {
	if n, ok := deref(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// newInfo returns an Info with every map the checker reads.
func newInfo() *types.Info {
	return &types.Info{
		Defs:       make(map[*ast.Ident]types.Object),
		Uses:       make(map[*ast.Ident]types.Object),
		Types:      make(map[ast.Expr]types.TypeAndValue),
		Selections: make(map[*ast.SelectorExpr]*types.Selection),
		Implicits:  make(map[ast.Node]types.Object),
		Instances:  make(map[*ast.Ident]types.Instance),
	}
}

// typeCheck type-checks files as package snippet, its errors going to
// conf.Error. A panic of go/types (a bug, but one snippet must not bring
// the review down) ends the check with the errors met so far.
func typeCheck(conf *types.Config, fset *token.FileSet, files []*ast.File, info *types.Info) {
	defer func() { _ = recover() }()
	_, _ = conf.Check("snippet", fset, files, info)
}

// snipHasFake reports whether t is or contains a type of a package
// docreview did not load.
func (s *checker) snipHasFake(t types.Type, depth int) bool {
	if t == nil || depth > 5 {
		return t == nil
	}
	switch u := t.(type) {
	case *types.Pointer:
		return s.snipHasFake(u.Elem(), depth+1)
	case *types.Slice:
		return s.snipHasFake(u.Elem(), depth+1)
	case *types.Array:
		return s.snipHasFake(u.Elem(), depth+1)
	case *types.Map:
		return s.snipHasFake(u.Key(), depth+1) || s.snipHasFake(u.Elem(), depth+1)
	case *types.Chan:
		return s.snipHasFake(u.Elem(), depth+1)
	case *types.Named:
		return s.syms.Placeholder(u.Obj().Pkg()) || s.syms.UnknownMembers(u)
	case *types.Basic:
		return u.Kind() == types.Invalid
	}
	return false
}

// snipCloseUnqualified finds, for an exported name the snippet uses
// unqualified and nothing declares, the package it most likely misspells:
// fromDir's package (for a fragment) or a repository package the file
// dot-imports, when exactly one of its exported names is within one edit
// (two for names of ten letters or more). It returns nil otherwise.
func (s *checker) snipCloseUnqualified(from *retrieval.Package, f *snipFile, name string, full bool) (*retrieval.Package, string) {
	if !token.IsExported(name) {
		return nil, ""
	}
	var cands []*retrieval.Package
	if from != nil && from.Types != nil && !full && from.Name != "main" {
		cands = append(cands, from)
	}
	if f != nil && f.ast != nil {
		for _, imp := range f.ast.Imports {
			if imp.Name == nil || imp.Name.Name != "." {
				continue
			}
			ip, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				continue
			}
			if p := s.syms.PackageByPath(ip); p != nil && p.Types != nil && !slices.Contains(cands, p) {
				cands = append(cands, p)
			}
		}
		if f.dotIP != "" {
			if p := s.syms.PackageByPath(f.dotIP); p != nil && p.Types != nil && !slices.Contains(cands, p) {
				cands = append(cands, p)
			}
		}
	}
	limit := 1
	if len(name) >= 10 {
		limit = 2
	}
	// A name another repository package declares is that package's,
	// written unqualified (a doc of package exp naming goqu's Or).
	for _, p := range s.syms.Packages() {
		if p.Types != nil && p.Types.Scope().Lookup(name) != nil {
			return nil, ""
		}
	}
	var found *retrieval.Package
	closest := ""
	// A name written as a type ("&User{Name: …}") is close only to a
	// type (not ll's func Use).
	literal := f != nil && f.ast != nil && snipWrittenAsType(f.ast, name)
	for _, p := range cands {
		if !p.Complete() || p.ExcludedName(name) {
			continue
		}
		for _, n := range p.Types.Scope().Names() {
			if !token.IsExported(n) || retrieval.EditDistance(strings.ToLower(n), strings.ToLower(name), limit) > limit {
				continue
			}
			if _, isType := p.Types.Scope().Lookup(n).(*types.TypeName); literal && !isType {
				continue
			}
			if closest != "" && n != closest {
				return nil, ""
			}
			found, closest = p, n
		}
	}
	return found, closest
}

// snipWrongImports reports the imports of src that name a path the
// repository does not provide while one of its modules provides the same
// package under another major version.
func (s *checker) snipWrongImports(src string) []Issue {
	var issues []Issue
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		for _, q := range snipQuoted(line) {
			ip, err := strconv.Unquote(q)
			if err != nil || s.syms.PackageByPath(ip) != nil || !strings.Contains(ip, ".") {
				continue
			}
			// A block that also imports the right path compares the two
			// ("with go modules disabled").
			if !snipIsImportLine(lines, i) {
				continue
			}
			if want := s.snipDeclaringPath(ip, src); want != "" && s.snipNoPackage(ip) && !strings.Contains(src, strconv.Quote(want)) {
				// Several packages end like the path; the one that
				// declares what the block selects is meant (pulumi's
				// ".../v3/pf/tfgen" for MainWithMuxer: pkg/pf/tfgen,
				// not pkg/tfgen).
				issues = append(issues, Issue{
					Kind: WrongImport, Line: i + 1, Name: ip, Package: want, Closest: want,
					Message: fmt.Sprintf("the repository has no package %s; it provides %s, which declares what the block uses of it", ip, want),
				})
			} else if want := s.snipOtherMajor(ip); want != "" && !strings.Contains(src, strconv.Quote(want)) {
				issues = append(issues, Issue{
					Kind: WrongImport, Line: i + 1, Name: ip, Package: want,
					Message: fmt.Sprintf("the repository has no package %s; it provides %s", ip, want),
				})
			} else if want := s.snipMisspeltPath(ip); want != "" {
				issues = append(issues, Issue{
					Kind: WrongImport, Line: i + 1, Name: ip, Package: want, Closest: want,
					Message: fmt.Sprintf("the repository has no package %s; it provides %s (the path is misspelt)", ip, want),
				})
			} else if s.snipNoPackage(ip) && s.snipSameLastElement(ip) != "" {
				// Also in a fragment, whose imports the type checker
				// sees in a header of the checker's own, when the
				// repository has the package under another path: a
				// path it lacks altogether may be a nested module's,
				// which a module's zip leaves out (bun's
				// extra/bundebug).
				issues = append(issues, s.snipNoPackageIssue(Issue{Line: i + 1}, ip))
			}
		}
	}
	return issues
}

// snipOtherMajor returns the repository package that ip names under
// another major version of its module ("" if none): github.com/x/y/sub for
// a module github.com/x/y/v2 gives github.com/x/y/v2/sub.
func (s *checker) snipOtherMajor(ip string) string {
	for _, mp := range s.syms.ModulePaths() {
		base := snipStripMajor(mp)
		if base == "" {
			continue
		}
		rest, ok := strings.CutPrefix(ip, base)
		if !ok || rest != "" && rest[0] != '/' {
			continue
		}
		// Drop ip's own major version element, if any.
		if r := strings.TrimPrefix(rest, "/"); r != "" {
			first, after, _ := strings.Cut(r, "/")
			if snipIsMajor(first) {
				rest = ""
				if after != "" {
					rest = "/" + after
				}
			}
		}
		want := mp + rest
		if want != ip && s.syms.PackageByPath(want).Complete() {
			return want
		}
	}
	return ""
}

// snipSwappedVar returns the var spec whose undefined type is at pos when
// its one name is a predeclared type: "var int total = 200" written as C
// writes it.
func snipSwappedVar(path []ast.Node, pos token.Pos) *ast.ValueSpec {
	for i := len(path) - 1; i >= 0; i-- {
		vs, ok := path[i].(*ast.ValueSpec)
		if !ok {
			continue
		}
		typ, ok := vs.Type.(*ast.Ident)
		if !ok || typ.Pos() != pos || len(vs.Names) != 1 {
			return nil
		}
		if o, ok := types.Universe.Lookup(vs.Names[0].Name).(*types.TypeName); !ok || o == nil {
			return nil
		}
		return vs
	}
	return nil
}

// snipMisspeltPath returns the one repository package whose import path
// is within two edits of ip and ends in the same element ("" if none or
// several): github.com/klaupost/compress/dict for the module
// github.com/klauspost/compress gives github.com/klauspost/compress/dict.
func (s *checker) snipMisspeltPath(ip string) string {
	return s.snipOnePackageEndingLike(ip, func(path string) bool {
		return path != ip && retrieval.EditDistance(path, ip, 2) <= 2
	})
}

// snipOnePackageEndingLike returns the one complete package of the
// repository whose path ends in the same element as ip and that keep
// accepts, or "" when none or several do.
// snipLocalPaths rewrites the imports of src whose path has no dot, is
// no standard package and ends in the name of a package of the
// repository that declares every name src selects through it: lancet's
// retry page imports "lancet-demo/retry", a reader's checkout of the
// module, and calls retry.Retry and retry.Context, which
// github.com/duke-git/lancet/v2/retry declares, so the block is checked
// against that package (and its retry.RetryDuration, which the package
// lacks, is found). A path whose selected names the package lacks in
// part is the reader's own package of that name and stays.
func (s *checker) snipLocalPaths(ctx context.Context, src string) string {
	for _, q := range snipQuoted(src) {
		ip, err := strconv.Unquote(q)
		first, _, _ := strings.Cut(ip, "/")
		if err != nil || !strings.Contains(ip, "/") || strings.Contains(first, ".") || s.syms.PackageByPath(ip) != nil {
			continue
		}
		last := ip[strings.LastIndex(ip, "/")+1:]
		if slices.Contains(s.syms.StdPathsByPreference(last), ip) {
			continue
		}
		if !regexp.MustCompile(`(?m)^\s*(?:import\s+)?(?:\w+\s+)?` + regexp.QuoteMeta(q) + `\s*\)?\s*$`).MatchString(src) {
			continue // not an import line
		}
		var sels []string
		for _, m := range regexp.MustCompile(`\b`+regexp.QuoteMeta(last)+`\.([A-Z]\w*)`).FindAllStringSubmatch(src, -1) {
			if !slices.Contains(sels, m[1]) {
				sels = append(sels, m[1])
			}
		}
		if len(sels) < 2 {
			continue
		}
		want := ""
		for _, p := range s.syms.Packages() {
			path := p.ImportPath
			if s.syms.PackageByPath(path) != p || !p.Complete() || p.Types == nil || p.Name == "main" || p.Types.Name() != last {
				continue
			}
			if snipDeclares(p.Types.Scope(), sels) < len(sels)-1 || snipDeclares(p.Types.Scope(), sels) < 2 {
				continue
			}
			if want != "" {
				want = ""
				break
			}
			want = path
		}
		if want != "" {
			src = strings.ReplaceAll(src, q, strconv.Quote(want))
		}
	}
	return src
}

// snipDeclaringPath returns the one complete package of the repository
// whose path ends in the same element as ip and that declares every name
// src selects through that element ("tfgen.MainWithMuxer"), when more
// than one package ends so; "" otherwise.
func (s *checker) snipDeclaringPath(ip, src string) string {
	last := ip[strings.LastIndex(ip, "/")+1:]
	if !token.IsIdentifier(last) {
		return ""
	}
	var sels []string
	for _, m := range regexp.MustCompile(`\b`+last+`\.([A-Z]\w*)`).FindAllStringSubmatch(src, -1) {
		if !slices.Contains(sels, m[1]) {
			sels = append(sels, m[1])
		}
	}
	if len(sels) == 0 {
		return ""
	}
	ending, want := 0, ""
	for _, p := range s.syms.Packages() {
		path := p.ImportPath
		if s.syms.PackageByPath(path) != p || !p.Complete() || p.Types == nil || path[strings.LastIndex(path, "/")+1:] != last {
			continue
		}
		ending++
		if snipDeclares(p.Types.Scope(), sels) != len(sels) {
			continue
		}
		if want != "" {
			return ""
		}
		want = path
	}
	if ending < 2 {
		return ""
	}
	return want
}

func (s *checker) snipOnePackageEndingLike(ip string, keep func(path string) bool) string {
	last := ip[strings.LastIndex(ip, "/")+1:]
	want := ""
	for _, p := range s.syms.Packages() {
		path := p.ImportPath
		if s.syms.PackageByPath(path) != p || !p.Complete() || path[strings.LastIndex(path, "/")+1:] != last || !keep(path) {
			continue
		}
		if want != "" {
			return ""
		}
		want = path
	}
	return want
}

// snipNoPackage reports whether ip is a path under the repository's module
// paths that names none of its packages (nor one excluded, or one the go
// command ignores).
func (s *checker) snipNoPackage(ip string) bool {
	return s.syms.InModule(ip) && s.syms.PackageByPath(ip) == nil && !s.syms.Excluded(ip) && !goIgnoredPath(ip)
}

// snipNoPackageIssue fills iss for an import of ip, a package the
// repository does not have.
func (s *checker) snipNoPackageIssue(iss Issue, ip string) Issue {
	iss.Kind = UnknownName
	iss.Name, iss.Package, iss.Absent = ip, ip, true
	iss.Message = fmt.Sprintf("the repository has no package %s", ip)
	if want := s.snipSameLastElement(ip); want != "" {
		// goqu's doc imports ".../v9/adapters/postgres"; the dialect is
		// ".../v9/dialect/postgres".
		iss.Closest = want
		iss.Message += fmt.Sprintf("; its one package named %s is %s", want[strings.LastIndex(want, "/")+1:], want)
	}
	return iss
}

// snipSameLastElement returns the one complete package of the repository
// whose path ends in the same element as ip, or "".
func (s *checker) snipSameLastElement(ip string) string {
	return s.snipOnePackageEndingLike(ip, func(string) bool { return true })
}

// snipStripMajor removes a trailing /vN (N ≥ 2) from a module path.
func snipStripMajor(mod string) string {
	i := strings.LastIndex(mod, "/")
	if i > 0 && snipIsMajor(mod[i+1:]) {
		return mod[:i]
	}
	return mod
}

// snipIsMajor reports whether a path element is a major version suffix
// ("v2", "v10").
func snipIsMajor(el string) bool {
	if len(el) < 2 || el[0] != 'v' {
		return false
	}
	n, err := strconv.Atoi(el[1:])
	return err == nil && n >= 2
}

// snipQuoted returns the double-quoted string literals of a line.
func snipQuoted(line string) []string {
	var out []string
	for {
		i := strings.IndexByte(line, '"')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(line[i+1:], '"')
		if j < 0 {
			return out
		}
		out = append(out, line[i:i+j+2])
		line = line[i+j+2:]
	}
}

// snipIsImportLine reports whether line i of a block is an import spec:
// on an import line or inside an import ( ... ) group.
func snipIsImportLine(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "import\t") {
		return true
	}
	for j := i - 1; j >= 0; j-- {
		t := strings.TrimSpace(lines[j])
		switch {
		case strings.HasPrefix(t, "import (") || t == "import(":
			return true
		case strings.HasPrefix(t, ")"), strings.HasPrefix(t, "func "), strings.HasPrefix(t, "var "), strings.HasPrefix(t, "type "), strings.HasPrefix(t, "const "):
			return false
		}
	}
	return false
}

// snipGluedFence returns the 1-based line of a code line that ends with a
// closing fence glued to it ("}```"), which CommonMark does not take as the
// end of the block; 0 if there is none.
func snipGluedFence(src string) int {
	for i, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if rest, ok := strings.CutSuffix(t, "```"); ok && strings.TrimSpace(strings.TrimRight(rest, "`")) != "" && strings.Count(t, "`") == 3 {
			return i + 1
		}
	}
	return 0
}

// snipPlaceholderRE matches an angle-bracket placeholder: <your-token>,
// <bucket name>.
var snipPlaceholderRE = regexp.MustCompile(`<[A-Za-z][A-Za-z0-9_ .:/-]*>`)

// snipCommentValueRE matches an assignment whose value is a comment.
var snipCommentValueRE = regexp.MustCompile(`(:?=)[ \t]*//`)

// snipQualifiedRE matches a line that starts with a qualified call, as
// listings write methods ("result.Uint() int64").
var snipQualifiedRE = regexp.MustCompile(`(?m)^(\s*)[\pL_][\pL\pN_]*\.([\pL_][\pL\pN_]*\()`)

// snipProseArgRE matches an argument written as an English phrase, a
// determiner before a name ("proxy.OnRequest(some ReqConditions)",
// "Use(your Middleware)"): a placeholder for the reader's value.
var snipProseArgRE = regexp.MustCompile(`[(,]\s*(?:some|any|your|my|the|an?|another|other)\s+[A-Za-z_]\w*\s*[),]`)

// snipNumberWordRE matches a number followed by a word, outside quotes,
// which Go never writes and prose does: folio's table layouts,
// "offsets[count] (2 each, relative to subtable)".
var snipNumberWordRE = regexp.MustCompile(`(?:^|[^\w.])\d+(?:\.\d+)?[ \t]+[A-Za-z_]`)

// snipCodeOf returns line without its string literals' contents and its
// line comment.
func snipCodeOf(line string) string {
	line = snipQuotesRE.ReplaceAllString(line, `""`)
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	return line
}

// snipCallTypedRE matches a call followed by the type it returns, which
// Go never writes and an API listing does: ahocorasick's
// "b.AddStrings([]string{...}) *Builder", "m.Len() int".
var snipCallTypedRE = regexp.MustCompile(`^\s*(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*\(.*\)\s+(?:\*|\[\]|\(\*?)*[A-Za-z_][\w.]*(?:,\s*\w+\))?\s*$`)

// snipQuotesRE matches a Go string or rune literal on one line.
var snipQuotesRE = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`|'(?:[^'\\\\]|\\\\.)*'")

// snipForeignDeclRE matches a declaration written with the keyword of
// another language: val, let, def, fun, fn, function, dim, auto, and a
// name with an optional type.
var snipForeignDeclRE = regexp.MustCompile(`^\s*(?:val|let|def|fun|fn|function|dim|auto)\s+[A-Za-z_]\w*(?:\s+\*?[A-Za-z_][\w.]*)?\s*$`)

// snipNotCode reports whether a block that does not parse is something
// other than Go code gone wrong, so its syntax error is no finding: the
// error's line holds a placeholder ("...", "…", "<your-value>", an
// argument written as a phrase); the block is a listing of method
// signatures, struct fields or literal fields; it is a shell session,
// JSON, or a template.
func snipNotCode(src string, line int) bool {
	lines := strings.Split(src, "\n")
	if line >= 1 && line <= len(lines) {
		l := lines[line-1]
		if strings.Contains(l, "...") || strings.Contains(l, "…") || snipPlaceholderRE.MatchString(l) || snipProseArgRE.MatchString(l) ||
			snipNumberWordRE.MatchString(snipCodeOf(l)) || snipCallTypedRE.MatchString(snipCodeOf(l)) {
			return true
		}
		// A line without any of Go's brackets, quotes or assignment is
		// prose or program output, not code gone wrong, unless it
		// declares with another language's keyword ("val fromConfig
		// fromConfigType").
		if !strings.ContainsAny(l, "(){}[]=:\"`") && !snipForeignDeclRE.MatchString(l) {
			return true
		}
	}
	t := strings.TrimSpace(src)
	if strings.Contains(t, "{{") || json.Valid([]byte(t)) {
		return true
	}
	first := t
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		first = t[:i]
	}
	keyword := false
	for _, k := range []string{"//", "package ", "import ", "var ", "const ", "type ", "func ", "for ", "if ", "return ", "defer "} {
		keyword = keyword || strings.HasPrefix(first, k)
	}
	if !keyword && !strings.ContainsAny(first, "(){}[]=:\"`") {
		// The block does not open as Go: output or text under a go fence.
		return true
	}
	for _, p := range []string{"$ ", "go get ", "go install ", "go run ", "go mod ", "go test ", "> "} {
		if strings.HasPrefix(first, p) {
			return true
		}
	}
	return snipIsListing(src)
}

// snipIsListing reports whether a block lists members rather than being
// code: it parses as the body of an interface (method signatures, also
// written "x.Method() T"), of a struct type, or of a composite literal.
func snipIsListing(src string) bool {
	parses := func(text string) bool {
		_, err := parser.ParseFile(token.NewFileSet(), "", text, parser.SkipObjectResolution)
		return err == nil
	}
	if parses("package p; type _ struct {\n"+src+"\n}") || parses("package p; var _ = T{\n"+src+"\n}") {
		return true
	}
	return parses("package p; type _ interface {\n" + snipQualifiedRE.ReplaceAllString(src, "$1$2") + "\n}")
}

// snipPlaceholders replaces angle-bracket placeholders outside string
// literals (`token := <your-token>`) by an identifier the checker leaves
// alone.
func snipPlaceholders(text string) string {
	// A value written as a comment ("db := // initialize your db").
	text = snipCommentValueRE.ReplaceAllString(text, "${1} "+snipElided+" //")
	if !strings.Contains(text, "<") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		locs := snipPlaceholderRE.FindAllStringIndex(line, -1)
		for k := len(locs) - 1; k >= 0; k-- {
			from, to := locs[k][0], locs[k][1]
			if strings.Count(line[:from], "\"")%2 == 1 || strings.Count(line[:from], "`")%2 == 1 || strings.Contains(line[:from], "//") {
				continue
			}
			if from > 0 && (isSnipIdentByte(line[from-1]) || line[from-1] == ')' || line[from-1] == ']') {
				continue
			}
			line = line[:from] + snipElided + line[to:]
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

func isSnipIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// snipElidesAny reports whether text has an elision: "..." or "…" in a
// comment or as code.
func snipElidesAny(text string) bool {
	return strings.Contains(text, "...") || strings.Contains(text, "…") || strings.Contains(text, snipElided)
}

// snipUndefinedValue reports whether errs has a name undefined where a
// value goes, not as a qualifier.
func snipUndefinedValue(files []*snipFile, errs []types.Error) bool {
	for _, e := range errs {
		name, ok := strings.CutPrefix(e.Msg, "undefined: ")
		if !ok || name == snipElided || strings.Contains(name, ".") {
			continue
		}
		if f, _ := snipFileAt(e.Fset, files, e.Pos); f != nil && !snipIsQualifier(f.ast, e.Pos) {
			return true
		}
	}
	return false
}

// snipImports reports whether a file imports anything (true when its
// header does not parse).
func snipImports(text string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", text, parser.ImportsOnly)
	return err != nil || len(f.Imports) > 0
}

// snipBlankPackage blanks the package clause of a file, keeping its lines.
func snipBlankPackage(text string) string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(text))
	sc.Init(file, []byte(text), nil, 0)
	for {
		pos, tok, _ := sc.Scan()
		if tok == token.EOF {
			return text
		}
		if tok != token.PACKAGE {
			continue
		}
		from := file.Offset(pos)
		_, tok, lit := sc.Scan()
		if tok != token.IDENT {
			return text
		}
		to := strings.Index(text[from:], lit) + from + len(lit)
		return text[:from] + strings.Repeat(" ", to-from) + text[to:]
	}
}

// snipElidesDecls reports whether a file has an elision outside function
// bodies: a comment such as "// ..." among its imports or declarations,
// saying that some were left out. One inside a body leaves out statements
// only.
func snipElidesDecls(text string) bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return strings.Contains(text, "...") || strings.Contains(text, "…")
	}
	for _, cg := range f.Comments {
		t := cg.Text()
		if !strings.Contains(t, "...") && !strings.Contains(t, "…") {
			continue
		}
		// Inside a declaration other than the imports it leaves out
		// statements, fields or values ("// ... fields for struct"), not
		// declarations.
		inDecl := false
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				continue
			}
			if cg.Pos() > d.Pos() && cg.End() <= d.End() {
				inDecl = true
			}
		}
		if !inDecl {
			return true
		}
	}
	return false
}

// snipSeveralFiles reports whether a syntax error says a block holds more
// than one file ("// a_test.go" with its imports, then "// b_test.go"
// with its own): an import or package clause where statements or
// declarations go.
func snipSeveralFiles(msg string) bool {
	return strings.HasSuffix(msg, "found 'import'") || strings.HasSuffix(msg, "found 'package'") ||
		strings.HasSuffix(msg, "imports must appear before other declarations")
}

// goIgnoredPath reports an import path with an element the go tool
// ignores ("_examples", ".hidden", "testdata"): the repository may hold
// such a package, which docreview does not load (iris's
// _examples/mvc/vuejs-todo-mvc/src/todo), so it is unknown, not missing.
func goIgnoredPath(ip string) bool {
	for _, el := range strings.Split(ip, "/") {
		if strings.HasPrefix(el, "_") || strings.HasPrefix(el, ".") && el != "." && el != ".." || el == "testdata" {
			return true
		}
	}
	return false
}

// importerFunc adapts a function to [types.Importer].
type importerFunc func(path string) (*types.Package, error)

// Import implements [types.Importer].
func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// symStdPath reports whether ip is a standard library package.
func symStdPath(ctx context.Context, syms *retrieval.Symbols, ip string) bool {
	_, err := syms.StdPackage(ctx, ip)
	return err == nil
}

// snipVarDeclared returns the block line of the var statement, in the
// block's own lines, that declared the one variable as assigns with :=;
// false when as assigns several or the variable was declared otherwise.
func snipVarDeclared(f *snipFile, seg snipSeg, as *ast.AssignStmt, info *types.Info, fset *token.FileSet) (int, bool) {
	if len(as.Lhs) != 1 {
		return 0, false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return 0, false
	}
	obj, ok := info.Uses[id].(*types.Var)
	if !ok || !obj.Pos().IsValid() {
		return 0, false
	}
	found := false
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			for _, name := range vs.Names {
				if name.Pos() == obj.Pos() {
					found = true
				}
			}
		}
		return !found
	})
	line := fset.Position(obj.Pos()).Line
	if !found || line < seg.start || line > seg.end {
		return 0, false
	}
	return line - seg.start + 1, true
}

// snipContinuedDefine reports whether the := assignment as, which
// declares no new variable, goes on from one earlier := statement of the
// same block: that statement declared every name as assigns and another
// name that as's right-hand side uses. It returns the earlier statement's
// block line and the name used.
func snipContinuedDefine(f *snipFile, seg snipSeg, as *ast.AssignStmt, info *types.Info, fset *token.FileSet) (int, string, bool) {
	redeclared := map[token.Pos]bool{}
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return 0, "", false
		}
		if id.Name == "_" {
			continue
		}
		obj, ok := info.Uses[id].(*types.Var)
		if !ok || !obj.Pos().IsValid() {
			return 0, "", false
		}
		redeclared[obj.Pos()] = true
	}
	if len(redeclared) == 0 {
		return 0, "", false
	}
	var prev *ast.AssignStmt
	ast.Inspect(f.ast, func(n ast.Node) bool {
		a, ok := n.(*ast.AssignStmt)
		if !ok || a.Tok != token.DEFINE || a.Pos() >= as.Pos() {
			return prev == nil
		}
		n0 := 0
		for _, l := range a.Lhs {
			if id, ok := l.(*ast.Ident); ok && redeclared[id.Pos()] {
				n0++
			}
		}
		if n0 == len(redeclared) {
			prev = a
		}
		return prev == nil
	})
	if prev == nil {
		return 0, "", false
	}
	line := fset.Position(prev.Pos()).Line
	if line < seg.start || line > seg.end {
		return 0, "", false
	}
	others := map[token.Pos]string{}
	for _, l := range prev.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" && !redeclared[id.Pos()] {
			others[id.Pos()] = id.Name
		}
	}
	used := ""
	for _, r := range as.Rhs {
		ast.Inspect(r, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && used == "" {
				if obj := info.Uses[id]; obj != nil {
					used = others[obj.Pos()]
				}
			}
			return used == ""
		})
	}
	if used == "" {
		return 0, "", false
	}
	return line - seg.start + 1, used, true
}

// snipRedefinedAfterUse reports whether the := statement as, which
// declares no new variable, declares again exactly the names of an
// earlier := statement of the same statement list (outer ends with that
// list's block), within the checked block's lines, and a statement
// between the two uses one of them. It returns the earlier statement's
// block line and the names.
func snipRedefinedAfterUse(outer []ast.Node, seg snipSeg, as *ast.AssignStmt, info *types.Info, fset *token.FileSet) (int, []string, bool) {
	if len(outer) == 0 {
		return 0, nil, false
	}
	list, ok := outer[len(outer)-1].(*ast.BlockStmt)
	if !ok {
		return 0, nil, false
	}
	objs := map[types.Object]bool{}
	var names []string
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return 0, nil, false
		}
		if id.Name == "_" {
			continue
		}
		obj := info.Uses[id]
		if obj == nil {
			return 0, nil, false
		}
		objs[obj] = true
		names = append(names, id.Name)
	}
	if len(objs) == 0 {
		return 0, nil, false
	}
	at := slices.IndexFunc(list.List, func(st ast.Stmt) bool { return st == ast.Stmt(as) })
	if at < 0 {
		return 0, nil, false
	}
	for j := at - 1; j >= 0; j-- {
		prev, ok := list.List[j].(*ast.AssignStmt)
		if !ok || prev.Tok != token.DEFINE {
			continue
		}
		n := 0
		for _, l := range prev.Lhs {
			if id, ok := l.(*ast.Ident); ok && objs[info.Defs[id]] {
				n++
			}
		}
		if n == 0 {
			continue
		}
		if n != len(objs) {
			return 0, nil, false
		}
		line := fset.Position(prev.Pos()).Line
		if line < seg.start || line > seg.end {
			return 0, nil, false
		}
		used := false
		for _, st := range list.List[j+1 : at] {
			ast.Inspect(st, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && objs[info.Uses[id]] {
					used = true
				}
				return !used
			})
		}
		return line - seg.start + 1, names, used
	}
	return 0, nil, false
}

// snipMetaWords are the words that stand for any name in a pattern.
var snipMetaWords = map[string]bool{"Foo": true, "Bar": true, "Baz": true, "Qux": true, "Quux": true, "Xxx": true, "Xyz": true}

// snipMetasyntactic reports whether the last part of name ("HasFoo" of
// "buildfeatures.HasFoo", "FooBar") has a word that stands for any name:
// a doc writing the pattern of a family of names, which the module
// declares only with real words in its place (tailscale's
// `buildfeatures.HasFoo && feature.IsRegistered("foo")`).
func snipMetasyntactic(name string) bool {
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	start := 0
	for i := 1; i <= len(name); i++ {
		if i == len(name) || name[i] >= 'A' && name[i] <= 'Z' {
			if snipMetaWords[name[start:i]] {
				return true
			}
			start = i
		}
	}
	return false
}

// snipAddrOfUnknown reports an argument &x, x of a type the block does not
// decide (declared nowhere), passed to a module func whose parameter is
// neither a pointer nor an interface: a pointer is never such a value,
// whatever x is (sipgo's "sip.NewRequest(method, &recipment)" of
// NewRequest(method RequestMethod, recipient Uri)). The checker says
// nothing of it, x's type being invalid.
func (s *checker) snipAddrOfUnknown(fset *token.FileSet, f *snipFile, blocks []*snipBlock, info *types.Info) []Issue {
	if f.ast == nil {
		return nil
	}
	var out []Issue
	ast.Inspect(f.ast, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		tv, ok := info.Types[call.Fun]
		if !ok || !tv.IsValue() {
			return true
		}
		sig, ok := tv.Type.Underlying().(*types.Signature)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		name, ip, ok := s.snipModuleCallee(call, info)
		if !ok {
			return true
		}
		for i, arg := range call.Args {
			u, isAddr := ast.Unparen(arg).(*ast.UnaryExpr)
			if !isAddr || u.Op != token.AND {
				continue
			}
			if xt, known := info.Types[u.X]; known && xt.Type != nil && typeKnown(xt.Type) {
				continue // the checker judged it
			}
			if _, isID := ast.Unparen(u.X).(*ast.Ident); !isID {
				continue // &T{…} of an unknown T, &x.f: left to the reader
			}
			pt := snipParamType(sig, i)
			if pt == nil || !typeKnown(pt) || !typeKnown(pt.Underlying()) {
				continue
			}
			switch pt.Underlying().(type) {
			case *types.Pointer, *types.Interface, *types.Signature:
				continue
			}
			if _, isTP := pt.(*types.TypeParam); isTP {
				continue
			}
			if b, isBasic := pt.Underlying().(*types.Basic); isBasic && b.Kind() == types.UnsafePointer {
				continue
			}
			line := fset.Position(arg.Pos()).Line
			seg, ok := snipSegAt(f, line)
			if !ok || !blocks[seg.block].src {
				continue
			}
			qual := func(p *types.Package) string { return p.Name() }
			out = append(out, Issue{Kind: WrongArgs, Line: line - seg.start + 1, Name: name, Package: ip,
				Message: fmt.Sprintf("cannot use %s (a pointer) as %s value in argument to %s: the parameter takes a %s, not a pointer to one",
					types.ExprString(arg), types.TypeString(pt, qual), types.ExprString(call.Fun), types.TypeString(pt, qual))})
		}
		return true
	})
	return out
}

// snipParamType returns the type the i-th argument of a call of sig is
// assigned to: the variadic parameter's element past the last; nil past
// the end of a non-variadic signature.
func snipParamType(sig *types.Signature, i int) types.Type {
	n := sig.Params().Len()
	switch {
	case sig.Variadic() && i >= n-1:
		if sl, ok := sig.Params().At(n - 1).Type().(*types.Slice); ok {
			return sl.Elem()
		}
		return nil
	case i < n:
		return sig.Params().At(i).Type()
	}
	return nil
}

// typeKnown reports whether the checker decided t.
func typeKnown(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return t != nil && (!ok || b.Kind() != types.Invalid)
}

// snipMovedPackage returns the one module package that declares every
// name a block selects from an undeclared qualifier used as a package
// (in a type: "[]stateful.SimpleRule{…}"), when no package of the module,
// its dependencies, the standard library or any import in the repository
// has that name: participle v2's README writes stateful.MustSimple after
// package lexer/stateful was merged into lexer. It needs two names or
// more; a name of one selection is too weak a tie.
func (s *checker) snipMovedPackage(from *retrieval.Package, f *ast.File, name string) (*retrieval.Package, []string, bool) {
	module := s.syms.ModulePath(".") // a README beside no package of its own
	if from != nil {
		module = from.Module
	}
	if module == "" || !snipQualifierAsType(f, name) || len(s.syms.PackagesNamed(name)) > 0 || s.syms.StdNamed(name) {
		return nil, nil, false
	}
	if _, ok := s.syms.RepoImportedAs(name); ok {
		return nil, nil, false
	}
	sels := snipSelected(f, name)
	if len(sels) < 2 {
		return nil, nil, false
	}
	var found *retrieval.Package
	for _, p := range s.syms.Packages() {
		if p.Types == nil || p.Name == "main" || p.Module != module || !p.Complete() || snipNotForReaders(strings.TrimPrefix(p.ImportPath, p.Module)) {
			continue
		}
		all := true
		for _, sel := range sels {
			if obj := p.Types.Scope().Lookup(sel); obj == nil || !obj.Exported() {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		if found != nil {
			return nil, nil, false
		}
		found = p
	}
	return found, sels, found != nil
}

// snipQualifierAsType reports whether f writes name.T where only a type
// goes: a composite literal's type, an element of a slice, map or channel
// type, a field's or parameter's type, a var's type. (*name.T and a
// conversion name.T(x) read as expressions too.)
func snipQualifierAsType(f *ast.File, name string) bool {
	found := false
	isQual := func(x ast.Expr) bool {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && id.Name == name
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CompositeLit:
			found = n.Type != nil && isQual(n.Type)
		case *ast.ArrayType:
			found = isQual(n.Elt)
		case *ast.MapType:
			found = isQual(n.Key) || isQual(n.Value)
		case *ast.ChanType:
			found = isQual(n.Value)
		case *ast.Field:
			found = isQual(n.Type)
		case *ast.ValueSpec:
			found = n.Type != nil && isQual(n.Type)
		}
		return true
	})
	return found
}

// snipNotForReaders reports whether a package, by its path inside its
// module, is one no reader's code imports: internal, an example's or a
// test helper's, whose names (User, Post) are any program's.
func snipNotForReaders(ip string) bool {
	for _, part := range strings.Split(ip, "/") {
		switch {
		case part == "internal", part == "testdata", part == "cmd", strings.HasPrefix(part, "example"), strings.HasPrefix(part, "_example"),
			strings.HasPrefix(part, "test"), strings.HasPrefix(part, "mock"), strings.HasPrefix(part, "demo"):
			return true
		}
	}
	return false
}
