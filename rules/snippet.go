package rules

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/rules/gocheck"
)

var _ review.Judge = (*GoSnippet)(nil)

// GoSnippet is the go-snippet rule: it type-checks the Go code blocks of
// Markdown claims (fenced as go or golang), with the Go blocks of the same
// file the text ties to them as their prelude (see tiedPrelude), the code
// blocks of doc comments that parse as Go, and the bodies of Example
// functions, against the module's API, the way a reader pasting them would
// compile them. A call of a name, method or field the module does not
// have, arguments or a value its declaration does not accept, a block that
// does not parse, `_ :=`, a duplicate key, or an import of another major
// version labels the claim contradicted; a complete file that uses a
// package it does not import labels it incomplete. Names no block
// declares (inputs such as "source" are left undeclared on purpose) and
// placeholders ("...", "<your-key>") give no verdict, except a method
// called on an undeclared receiver that no type has and whose correction
// is certain (see untypedCalls).
//
// In Example functions and doc comments only wrong uses of module symbols
// count: an example may use helpers of its test file that the checker
// does not see. The zero value is ready to use and safe for concurrent
// use.
type GoSnippet struct {
	docs      memo[[]review.Claim]
	lines     memo[[]string]
	proposals proposals
}

// Name returns "go-snippet".
func (*GoSnippet) Name() string { return "go-snippet" }

// Judge checks the claim's Go blocks; see [GoSnippet]. It fails when the
// claim's Markdown file cannot be read or parsed again for the prelude.
func (r *GoSnippet) Judge(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	return r.judgeGo(ctx, ws, c)
}

// snippetIssue is an issue of one block with its place in the file.
type snippetIssue struct {
	gocheck.Issue
	block    review.Mention
	line     int // the issue's line in the claim's file
	codeLine int // the block's first code line in the claim's file
}

// judgeGo checks the claim's Go blocks and reports the first problem found,
// contradictions before omissions. It fails when the claim's Markdown file
// cannot be read or parsed again for the prelude.
func (r *GoSnippet) judgeGo(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || ws.Symbols == nil || isHistory(c.Path) || isOtherVersionDoc(ws, c.Path) || r.proposals.is(ws, c.Path) {
		return nil, nil
	}
	// An upgrade guide shows the old API beside the new: only its blocks
	// marked as the new code ("// v2" in a /v2 module, "// After",
	// "**New**:") are checked, each on its own.
	guide := isUpgradeGuide(c.Path)
	if guide && c.Kind != review.KindMarkdown {
		return nil, nil
	}
	blocks := goBlocks(c)
	if len(blocks) == 0 {
		return nil, nil
	}
	sc := newScope(ws.Symbols, c)
	var prior []priorBlock
	if c.Kind == review.KindMarkdown {
		var err error
		if prior, err = r.prelude(ws, c); err != nil {
			return nil, err
		}
	}
	lines, err := r.fileLines(ws, c.Path)
	if err != nil {
		return nil, err
	}
	// The diff's renames give certain corrections; without them (no base,
	// or an unreadable file) only close names are offered, so an error
	// here costs a suggestion, not the finding.
	changes, _ := ws.Changes(ctx)
	// A block the diff left alone, selected because it mentions what the
	// diff changed, is judged on what the diff changed only: its other
	// problems pre-date the diff and are left to --scope all.
	oldDebt := ws.Scope != review.ScopeAll && ws.BaseFS != nil && !c.Changed
	touched := diffNames(changes)
	// A Markdown file with no package nearer than the module root, named
	// after a package (docs/middleware/cache.md), is read from inside that
	// package: its blocks list the package's declarations and use its
	// names unqualified.
	from := sc.primary()
	if c.Kind == review.KindMarkdown && from == "." {
		if p := namedDocPackage(ws, c); p != nil {
			from = p.Dir
		}
	}
	var worst []snippetIssue
	worstSev := 0
	var listing *sigMismatch
	var typeListed *typeMismatch
	// The packages listings and headings copy, once per claim.
	pkgs := sync.OnceValue(func() []*retrieval.Package { return docScopePackages(ws, c, sc) })
	var docBlocks []docBlock
	major := 0
	if c.Kind == review.KindMarkdown {
		major = moduleMajor(ws.Symbols.ModulePath(c.Path))
	}
	exampleImports := ""
	if c.Kind == review.KindExample {
		// An Example function's body uses the packages its test file
		// imports: cedar-go's ast_test imports cedar-go/ast, not
		// x/exp/ast, which has that name too.
		exampleImports = fileImports(ws, c.Path)
	}
	// The file lines of code left unchecked: an upgrade guide's blocks of
	// old code, lines marked old, suppositions. The check of calls on
	// undeclared receivers below leaves them alone too.
	unchecked := map[int]bool{}
	skip := func(b review.Mention) {
		for l := b.Line; l <= max(b.EndLine, b.Line); l++ {
			unchecked[l] = true
		}
	}
	for _, b := range blocks {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		codeLine := codeStart(lines, b)
		if guide && !newCode(lines, codeLine, max(b.EndLine, codeLine), major) {
			skip(b)
			continue
		}
		// "For this example this could look like:" above a block of an
		// API the text says does not exist: a supposition may invent the
		// module's API, never the standard library's (gqlgen's server
		// that "could look like" one calling os.GetEnv).
		sketch := c.Kind == review.KindMarkdown && sketchIntro(lines, codeLine)
		if sketch {
			skip(b)
		}
		var old map[int]bool
		if c.Kind == review.KindMarkdown && !sketch {
			old = oldCode(lines, codeLine, max(b.EndLine, codeLine), major)
			for l := range old {
				unchecked[l] = true
			}
			entries := sigListing(b.Text)
			if b.Lang == review.LangGoSignature {
				// A heading's signature is compared, never compiled. One
				// without a receiver under a heading such as "RecordReplay
				// Methods" may be a method's: it is compared only when no
				// type of the package has a method of its name.
				entries = slices.DeleteFunc(entries, func(e sigLine) bool { return e.recv == "" && methodNamed(pkgs(), e.name) })
				if len(entries) == 0 {
					continue
				}
			}
			if entries != nil {
				// A listing of signatures is compared with the
				// declarations it copies, not compiled.
				entries = slices.DeleteFunc(entries, func(e sigLine) bool { return old[codeLine+e.line-1] })
				if listing == nil {
					keep := func(d sigDecl) bool { return !oldDebt || touched[d.fn.Name()] || touched[d.sym.Name] }
					if m, ok := sigListingMismatch(ws, c, pkgs(), entries, keep); ok {
						m.line = codeLine + m.entry.line - 1
						listing = &m
					}
				}
				prior = append(prior, priorBlock{text: b.Text, section: c.Context})
				continue
			}
			if listed := typeListing(b.Text); listed != nil && typeListed == nil {
				// A copy of the package's type is compared with the
				// declaration it copies; the compiler sees it as the
				// package's own source.
				keep := func(name string) bool { return !oldDebt || touched[name] }
				if m, ok := typeListingMismatch(ws, c, pkgs(), listed, keep); ok && !old[codeLine+m.entry.line-1] {
					m.line = codeLine + m.entry.line - 1
					typeListed = &m
				}
			}
		}
		isPackage := func(name string) bool { return packageName(ws.Symbols, name) }
		// An import carries over under a name the checker resolves
		// itself only to give it another package of the repository or
		// the standard library: not an earlier block's path of another
		// major version, and not the package the checker would import
		// anyway (which it reads as written from outside, so that a
		// name of it used bare is reported).
		override := func(name, ip string) bool {
			if !isPackage(name) {
				return false
			}
			if scopeOf(ctx, ws.Symbols, ip) == nil {
				return false
			}
			for _, p := range ws.Symbols.PackagesNamed(name) {
				if p.ImportPath == ip {
					return false
				}
			}
			return !slices.Contains(ws.Symbols.StdPathsByPreference(name), ip)
		}
		imported := priorImports(b.Text, prior)
		pre := append(importLines(imported, func(name, _ string) bool { return !isPackage(name) }), tiedPrelude(b.Text, c.Context, prior, isPackage)...)
		overrides := importLines(imported, override)
		if guide {
			pre, overrides = nil, nil
		}
		if c.Kind == review.KindDocComment {
			pre, overrides = docContext(ws.Symbols, sc.primary(), c.Symbol, c), nil
		}
		if exampleImports != "" {
			pre = append(pre, exampleImports)
		}
		blockFrom := from
		if endsInDot(b.Text) {
			// "session, _ := client.Live.Connect(model, cfg)." at the end
			// of a doc comment's sentence, or a chain cut off after its
			// last selector: the code before the dot is checked.
			b.Text = dropFinalDot(b.Text)
		}
		inBody := openBody(prior)
		if c.Kind == review.KindMarkdown && inBody {
			// The closing braces of a function an earlier block opened
			// ("return nil\n}" at the end of a tutorial's last step)
			// close nothing in the block alone.
			b.Text = blankExcessBraces(b.Text)
		}
		blockIssues := checkBlock(ctx, ws.Symbols, from, b.Text, pre)
		if c.Kind == review.KindMarkdown {
			if p := namesPackage(ws.Symbols, from, blockIssues); p != nil {
				// The block uses names of one package bare: it is read
				// from inside that package.
				blockFrom = p.Dir
				blockIssues = checkBlock(ctx, ws.Symbols, blockFrom, b.Text, pre)
			}
		}
		if len(overrides) > 0 {
			// A name an earlier block imports as another package than
			// the checker's is read the way that works: pflag's README
			// imports flag "github.com/spf13/pflag" and later writes
			// flag.Lookup(…).NoOptDefVal, pflag's; logrus's imports log
			// "github.com/sirupsen/logrus" and later builds a standard
			// log.New(w, "", 0) for http.Server's ErrorLog.
			with := append(slices.Clone(overrides), pre...)
			if is := checkBlock(ctx, ws.Symbols, blockFrom, b.Text, with); len(is) < len(blockIssues) || namesOnlyIn(ctx, ws.Symbols, b.Text, overrides) {
				blockIssues, pre = is, with
			}
		}
		if illustrative(blockIssues) {
			// "openai.ExampleParams{…}", "openai.FooParams": a block
			// about a made-up type shows a shape, not the package's API.
			blockIssues = slices.DeleteFunc(blockIssues, func(is gocheck.Issue) bool {
				return is.Kind == gocheck.UnknownName || is.Kind == gocheck.UnknownMember
			})
		}
		if otherDependencyVersion(ws.Symbols, blockIssues) {
			// Names missing from three or more packages of the
			// dependencies (gofakes3's README: aws-sdk-go v1's
			// credentials.NewStaticCredentials, session.New and
			// aws.Config{Endpoint: …} against the v2 its go.mod
			// requires): the block is written for another version of
			// them, which is the reader's choice, not an error.
			blockIssues = slices.DeleteFunc(blockIssues, func(is gocheck.Issue) bool { return dependencyIssue(ws.Symbols, is) })
		}
		if signatureLines(b.Text) {
			// A listing of signatures is prose about the API in Go's
			// words: one written loosely ("(orb.Point, err error)",
			// named and unnamed results mixed) is no code that fails to
			// parse.
			blockIssues = slices.DeleteFunc(blockIssues, func(is gocheck.Issue) bool { return is.Kind == gocheck.Syntax })
		}
		if c.Kind == review.KindDocComment {
			docBlocks = append(docBlocks, docBlock{block: b, codeLine: codeLine, prelude: pre, issues: blockIssues})
		}
		if c.Kind == review.KindMarkdown {
			if is, ok := renamedLocal(ctx, ws.Symbols, blockFrom, b.Text, pre, blockIssues); ok {
				blockIssues = append(blockIssues, is)
			}
		}
		if is, ok := renamedCase(ctx, ws.Symbols, blockFrom, b.Text, pre, sectionBlocks(prior, c.Context), blockIssues); ok {
			blockIssues = append(blockIssues, is)
		}
		if sketch {
			blockIssues = slices.DeleteFunc(blockIssues, func(is gocheck.Issue) bool { return !is.Std })
		}
		for _, is := range blockIssues {
			if old[min(max(codeLine+max(is.Line, 1)-1, b.Line), max(b.EndLine, b.Line))] {
				continue // code the doc shows as old or wrong
			}
			if is.Kind == gocheck.Redefined {
				// A gallery of alternatives, unless the document's
				// earlier blocks left a function body open that this
				// block goes on in (opensearch-go's guides: "func
				// example() error {" in the setup block, then
				// "createResp, err :=" twice in the next).
				if !inBody {
					continue
				}
				is.Kind = gocheck.Compile
			}
			if valueNamedLikePackage(ws, c, sc, b.Text, is) || readersPackage(ws, b.Text, is) || excerptSyntax(b.Text, is) || listsOwnTypes(ws, b.Text, is) {
				continue
			}
			sev := issueSeverity(is, c.Kind, sc)
			if sev == 0 || sev < worstSev || oldDebt && (is.Kind == gocheck.MissingImport || !touched[lastPart(is.Name)]) {
				continue
			}
			if sev > worstSev {
				worst, worstSev = nil, sev
			}
			line := codeLine + max(is.Line, 1) - 1
			line = min(max(line, b.Line), max(b.EndLine, b.Line))
			worst = append(worst, snippetIssue{Issue: is, block: b, line: line, codeLine: codeLine})
		}
		if !sketch {
			prior = append(prior, priorBlock{text: b.Text, section: c.Context})
		}
	}
	if len(worst) == 0 && c.Kind == review.KindDocComment {
		if is, ok := renamedAcross(ctx, ws.Symbols, from, docBlocks); ok && (!oldDebt || touched[is.Name]) {
			return r.verdict(ws, sc, c, []snippetIssue{is}, changes), nil
		}
		return nil, nil
	}
	if len(worst) == 0 && listing != nil {
		v := r.sigVerdict(ws, c, *listing)
		if slices.ContainsFunc(blocks, func(b review.Mention) bool { return b.Lang == review.LangGoSignature }) {
			// A heading's claim text is its signature, not its line:
			// no rewrite of it is certain.
			v.Suggestion = ""
		}
		return v, nil
	}
	if len(worst) == 0 && typeListed != nil {
		return r.typeVerdict(ws, c, *typeListed), nil
	}
	if len(worst) == 0 {
		// What any earlier block declares counts as declared here: an
		// undeclared receiver is a finding only when nothing before
		// declares it.
		prelude := make([]string, len(prior))
		for i, p := range prior {
			prelude[i] = p.text
		}
		if c.Kind == review.KindExample {
			// An Example function's body uses the packages its test file
			// imports, which the module need not load (a dependency's).
			prelude = append(prelude, fileImports(ws, c.Path))
		}
		calls := untypedCalls(sc, blocks, prelude, lines, changes)
		calls = slices.DeleteFunc(calls, func(u untypedCall) bool { return unchecked[u.line] })
		if oldDebt {
			calls = slices.DeleteFunc(calls, func(u untypedCall) bool { return u.rename == nil })
		}
		if len(calls) > 0 {
			return r.untypedVerdict(ws, c, calls), nil
		}
		return nil, nil
	}
	return r.verdict(ws, sc, c, worst, changes), nil
}

// namesPackage returns the one module package, other than from's, that
// declares the exported names a block uses undeclared, when they are
// several: eino's README builds "graph := NewGraph[…]()" and adds edges
// from START to END, all compose's names, written as in that package. No
// other package may declare as many of them, and a package main, an
// example's or a test's, is no package a reader writes in.
func namesPackage(syms *retrieval.Symbols, from string, issues []gocheck.Issue) *retrieval.Package {
	var names []string
	for _, is := range issues {
		if is.Kind == gocheck.Undeclared && token.IsExported(is.Name) && !strings.Contains(is.Name, ".") && !slices.Contains(names, is.Name) {
			names = append(names, is.Name)
		}
	}
	if len(names) < 2 {
		return nil
	}
	var best *retrieval.Package
	most, tie := 0, false
	for _, p := range syms.Packages() {
		if p.Types == nil || p.Name == "main" || p.Dir == from || exampleDir(p.Dir) || !p.Complete() {
			continue
		}
		n := 0
		for _, name := range names {
			if p.Types.Scope().Lookup(name) != nil {
				n++
			}
		}
		switch {
		case n > most:
			best, most, tie = p, n, false
		case n == most && n > 0:
			tie = true
		}
	}
	if most < 2 || tie {
		return nil
	}
	return best
}

// docContext declares, for the code blocks of a function's or method's
// doc comment, what the declaration itself declares: its receiver and
// parameters, as package-level variables of their types (so a block that
// declares them again with := shadows them). "db.Table("users").take(&r)"
// under func (db *DB) Table is a call on a *DB. A name whose type uses an
// unexported name (the checker sees the package from outside) or a type
// parameter is left out, and so is a name one of the doc's blocks declares
// itself (any of its blocks): "db := goqu.New(…)" in one block is the db
// of the next.
func docContext(syms *retrieval.Symbols, dir, symbol string, c review.Claim) []string {
	if symbol == "" {
		return nil
	}
	own := map[string]bool{}
	for _, b := range c.Mentions {
		if b.Kind != review.MentionBlock {
			continue
		}
		for name := range anyDeclared(b.Text) {
			own[name] = true
		}
	}
	// Code the doc comment indents without a blank line before it is
	// prose to go/doc, and still declares what the next block uses.
	for _, m := range declaredInTextRE.FindAllStringSubmatch(c.Text, -1) {
		for _, name := range strings.Split(m[1]+m[2], ",") {
			own[strings.TrimSpace(name)] = true
		}
	}
	sym, ok := syms.Lookup(dir, symbol)
	if !ok || sym.Package == nil || sym.Package.Dir != dir {
		return nil
	}
	fn, ok := sym.Object.(*types.Func)
	if !ok {
		return nil
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
		return nil
	}
	pkg := fn.Pkg()
	// The package's own names unqualified (the checker imports it with a
	// dot), others by the name its files import them under.
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	var decls []string
	add := func(v *types.Var) {
		if v == nil || v.Name() == "" || v.Name() == "_" || own[v.Name()] || !writableType(v.Type(), pkg) {
			return
		}
		decls = append(decls, fmt.Sprintf("var %s %s", v.Name(), types.TypeString(v.Type(), qual)))
	}
	// A block that calls the documented method on another name, one it
	// declares itself ("cookie := NewCookie(t, c)", then "cookie.Raw()"
	// under "func (c *Cookie) Raw()") or not (wechat's "kfClient.VerifyURL"
	// under "func (r *Client) VerifyURL", beside the reader's router
	// "r.GET(…)"), has its own receiver: the receiver's name is another
	// of its inputs.
	ownRecv := false
	if recv := sig.Recv(); recv != nil {
		for _, b := range c.Mentions {
			if b.Kind != review.MentionBlock {
				continue
			}
			for _, m := range selectorCallRE.FindAllStringSubmatch(b.Text, -1) {
				if m[2] == fn.Name() && m[1] != recv.Name() {
					ownRecv = true
				}
			}
		}
	}
	if !ownRecv {
		add(sig.Recv())
	}
	for i := range sig.Params().Len() {
		add(sig.Params().At(i))
	}
	// A block that calls the documented method on a name it does not
	// declare calls it on a value of the receiver's type: the doc of an
	// interface method has no receiver name, and a method's doc may name
	// the receiver otherwise ("client.Get(…)" under "func (c *Client)").
	if recv := sig.Recv(); recv != nil && writableType(recv.Type(), pkg) {
		declared := map[string]bool{recv.Name(): true}
		for i := range sig.Params().Len() {
			declared[sig.Params().At(i).Name()] = true
		}
		for _, b := range c.Mentions {
			if b.Kind != review.MentionBlock {
				continue
			}
			for _, ix := range selectorCallRE.FindAllStringSubmatchIndex(b.Text, -1) {
				x, method := b.Text[ix[2]:ix[3]], b.Text[ix[4]:ix[5]]
				if ix[0] > 0 && (b.Text[ix[0]-1] == '.' || isIdentByte(b.Text[ix[0]-1])) {
					continue // a field's selector ("c.store.Get("), not a receiver
				}
				if method != fn.Name() || own[x] || declared[x] || packageName(syms, x) || syms.StdNamed(x) || isBuiltin(x) {
					continue
				}
				declared[x] = true
				decls = append(decls, fmt.Sprintf("var %s %s", x, types.TypeString(recv.Type(), qual)))
			}
		}
	}
	if len(decls) == 0 {
		return nil
	}
	// A blank function makes the block declarations, so the variables
	// are the package's, not the example's statements'.
	return []string{strings.Join(decls, "\n") + "\nfunc _() {}"}
}

// selectorCallRE finds calls on a lower-case name: "store.Get(" gives
// "store" and "Get".
var selectorCallRE = regexp.MustCompile(`([a-z_]\w*)\.(\w+)\(`)

// declaredInTextRE matches a declaration in text: "a, b :=" (group 1)
// or "var a" (group 2).
var declaredInTextRE = regexp.MustCompile(`(?m)(?:^|[^\pL\pN_.])((?:[\pL_][\pL\pN_]*\s*,\s*)*[\pL_][\pL\pN_]*)\s*:=|\bvar\s+([\pL_][\pL\pN_]*)`)

// anyDeclared returns every name a code block declares, at any depth:
// variables, constants, types, functions, parameters and := targets.
func anyDeclared(text string) map[string]bool {
	_, f, _ := parseFragment(text)
	out := map[string]bool{}
	if f == nil {
		return out
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, x := range n.Lhs {
					if id, ok := x.(*ast.Ident); ok {
						out[id.Name] = true
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, x := range []ast.Expr{n.Key, n.Value} {
					if id, ok := x.(*ast.Ident); ok {
						out[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				out[id.Name] = true
			}
		case *ast.TypeSpec:
			out[n.Name.Name] = true
		case *ast.FuncDecl:
			out[n.Name.Name] = true
		case *ast.Field:
			for _, id := range n.Names {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}

// writableType reports whether t names only exported types, none a type
// parameter, so a snippet outside own can write it.
func writableType(t types.Type, own *types.Package) bool {
	switch t := t.(type) {
	case *types.Basic:
		return true
	case *types.Pointer:
		return writableType(t.Elem(), own)
	case *types.Slice:
		return writableType(t.Elem(), own)
	case *types.Array:
		return writableType(t.Elem(), own)
	case *types.Map:
		return writableType(t.Key(), own) && writableType(t.Elem(), own)
	case *types.Chan:
		return writableType(t.Elem(), own)
	case *types.Named:
		o := t.Obj()
		if o.Pkg() == nil { // error, comparable
			return true
		}
		if !o.Exported() || t.TypeArgs().Len() > 0 {
			return false
		}
		return o.Pkg() == own || o.Pkg().Path() != "" && !strings.Contains(o.Pkg().Path(), "internal")
	case *types.Interface:
		return t.Empty()
	case *types.Alias:
		return writableType(types.Unalias(t), own)
	}
	return false
}

// checkBlock type-checks a code block. A complete file that only misses
// imports is checked a second time as the fragment it would be with them
// filled in (its package clause and imports blanked, so lines keep their
// numbers): a wrong call behind a missing import is a contradiction, which
// outranks the omission.
func checkBlock(ctx context.Context, syms *retrieval.Symbols, dir, text string, prelude []string) []gocheck.Issue {
	issues := gocheck.Check(ctx, syms, dir, text, prelude)
	if len(issues) == 0 || slices.ContainsFunc(issues, func(is gocheck.Issue) bool { return is.Kind != gocheck.MissingImport }) {
		return issues
	}
	frag, ok := blankFileHeader(text)
	if !ok {
		return issues
	}
	for _, is := range gocheck.Check(ctx, syms, dir, frag, prelude) {
		if is.Kind != gocheck.MissingImport && is.Kind != gocheck.Undeclared {
			issues = append(issues, is)
		}
	}
	return issues
}

// blankFileHeader blanks the package clause and the import declarations of
// a Go file, line for line; false when text has no package clause or does
// not parse.
func blankFileHeader(text string) (string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", text, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return "", false
	}
	lines := strings.Split(text, "\n")
	blank := func(from, to token.Pos) {
		for l := fset.Position(from).Line; l <= fset.Position(to).Line && l-1 < len(lines); l++ {
			lines[l-1] = ""
		}
	}
	blank(f.Package, f.Name.End())
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			blank(g.Pos(), g.End())
		}
	}
	return strings.Join(lines, "\n"), true
}

// dependencyIssue reports whether is is about a name of a dependency's
// package, not the module's or the standard library's.
func dependencyIssue(syms *retrieval.Symbols, is gocheck.Issue) bool {
	first, _, _ := strings.Cut(is.Package, "/")
	return is.Package != "" && !is.Std && strings.Contains(first, ".") && !syms.InModule(is.Package)
}

// otherDependencyVersion reports whether issues are about names of three
// or more packages of the dependencies.
func otherDependencyVersion(syms *retrieval.Symbols, issues []gocheck.Issue) bool {
	pkgs := map[string]bool{}
	for _, is := range issues {
		if dependencyIssue(syms, is) {
			pkgs[is.Package] = true
		}
	}
	return len(pkgs) >= 3
}

// metasyntacticRE matches a name made up for an example: Foo, BarParams,
// ExampleParams, MyType, YourConfig, and the fill-in names XXX and YYY.
var metasyntacticRE = regexp.MustCompile(`^(?:(?:Foo|Bar|Baz|Qux|Quux|Example|My|Your)(?:[A-Z0-9_]|$)|(?:XX+|YY+|ZZ+)$)`)

// illustrative reports whether a block uses a name of a package that the
// package lacks and that is made up for an example.
func illustrative(issues []gocheck.Issue) bool {
	return slices.ContainsFunc(issues, func(is gocheck.Issue) bool {
		return (is.Kind == gocheck.UnknownName || is.Kind == gocheck.UnknownMember) && is.Absent && metasyntacticRE.MatchString(lastPart(is.Name))
	})
}

// literalElement reports whether a block, comments aside, is one
// brace-enclosed element of a composite literal: its first line of code
// opens with "{" and its last is "}" or "},".
func literalElement(block string) bool {
	code := codeLines(block)
	if len(code) < 2 {
		return false
	}
	last := code[len(code)-1]
	return strings.HasPrefix(code[0], "{") && (last == "}" || last == "},")
}

// endsInDot reports whether the last line of code of a block, comments
// aside, ends in a selector's dot after a call, an index or a literal
// ("Title(\"Country\")."), not a sentence's full stop.
// dropFinalDot removes the dot that ends the last line of code of a
// block ([endsInDot]).
func dropFinalDot(block string) string {
	lines := strings.Split(block, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		t := strings.TrimRight(lines[i], " \t")
		if t == "" || strings.HasPrefix(strings.TrimSpace(t), "//") {
			continue
		}
		if strings.HasSuffix(t, ".") {
			lines[i] = strings.TrimSuffix(t, ".")
		}
		break
	}
	return strings.Join(lines, "\n")
}

func endsInDot(block string) bool {
	code := codeLines(block)
	if len(code) == 0 {
		return false
	}
	last := code[len(code)-1]
	return strings.HasSuffix(last, ").") || strings.HasSuffix(last, "}.") || strings.HasSuffix(last, "].")
}

// codeLines returns the lines of a block that hold code, trimmed: blank
// lines and line comments left out.
func codeLines(block string) []string {
	var code []string
	for _, line := range strings.Split(block, "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "//") {
			code = append(code, t)
		}
	}
	return code
}

// diffNames holds the last name component of every declaration the diff
// changed, removed or renamed (the old name).
func diffNames(ch review.Changes) map[string]bool {
	out := map[string]bool{}
	for _, r := range ch.Changed {
		out[lastPart(r.Name)] = true
	}
	for _, r := range ch.Removed {
		out[lastPart(r.Name)] = true
	}
	for _, r := range ch.Renamed {
		out[lastPart(r.Old.Name)] = true
	}
	return out
}

// goBlocks returns the claim's code blocks the rule checks.
func goBlocks(c review.Claim) []review.Mention {
	var out []review.Mention
	for _, m := range c.Mentions {
		if m.Kind != review.MentionBlock || strings.TrimSpace(m.Text) == "" {
			continue
		}
		switch c.Kind {
		case review.KindMarkdown:
			// A block with no language (a fence without an info string,
			// an indented block) is checked when it is plainly Go: it
			// parses, holds a call, and writes what only Go writes.
			if isGoLang(m.Lang) || m.Lang == review.LangGoSignature || m.Lang == "" && parsesAsGo(m.Text) && goSpelled(m.Text) {
				out = append(out, m)
			}
		case review.KindExample:
			if m.Lang == "" || isGoLang(m.Lang) {
				out = append(out, m)
			}
		case review.KindDocComment:
			// A doc comment's code block has no language: it is checked
			// when it parses as Go (output, grammars and shell lines do
			// not).
			if m.Lang == "" && docBlockIsGo(m.Text) {
				out = append(out, m)
			}
		}
	}
	return out
}

// goSpelledRE is what only Go writes: a short variable declaration, a
// func or package clause, a call of an exported name of a package
// ("http.ListenAndServe(").
var goSpelledRE = regexp.MustCompile(`:=|\bfunc\s*[\w(]|(?m)^\s*package\s+\w+\s*$|\b[a-z]\w*\.[A-Z]\w*\(`)

// goSpelled reports whether an untagged Markdown block writes Go and
// not another language whose lines also parse as Go expressions.
func goSpelled(text string) bool { return goSpelledRE.MatchString(text) }

// docBlockIsGo reports whether a doc comment's code block is Go: it
// parses as Go and holds a call, or would but for a missing comma, a few
// lines, or a declaration beside the one that parses.
func docBlockIsGo(text string) bool {
	return parsesAsGo(text) || commaTypo(text) || mostlyGo(text) || someDeclGo(text) ||
		endsInDot(text) && parsesAsGo(dropFinalDot(text))
}

// mostlyGo reports whether a doc comment's block that does not parse is Go
// but for a line or two: it parses, with calls, once at most a quarter of
// its lines (and at most three) are replaced as gocheck replaces them
// ("for chunk, err := sr.Recv() {" in eino's Pipe doc), so the calls on
// the other lines are checked.
func mostlyGo(text string) bool {
	fixed, n, ok := gocheck.Repair(text)
	if !ok {
		return false
	}
	if n == 0 {
		// It parses as gocheck reads elisions: a line of dots
		// ("       ....") is code left out.
		return parsesAsGo(gocheck.Elide(text))
	}
	lines := 0
	for l := range strings.SplitSeq(text, "\n") {
		if strings.TrimSpace(l) != "" {
			lines++
		}
	}
	return n*4 <= lines && parsesAsGo(fixed)
}

// someDeclGo reports whether a doc comment's block that does not parse is
// several top-level declarations of which one is Go: gomock's Controller
// doc shows "func TestFoo(t *testing.T) {…}", which parses, beside a
// TestBar whose "t.Run("Sub-Test-1", st) {" does not. The ones that parse
// are checked.
func someDeclGo(text string) bool {
	for _, d := range gocheck.TopDecls(text) {
		if parsesAsGo(d) {
			return true
		}
	}
	return false
}

func isGoLang(lang string) bool {
	lang = strings.ToLower(strings.TrimSpace(lang))
	return lang == "go" || lang == "golang"
}

// commaTypo reports whether a doc comment's code block is Go but for one
// missing comma: as statements it has exactly one syntax error, "missing
// ','" ("e.Str("foo": value)", a last argument's "})" without its comma),
// and holds a call. Pseudo-code, output and grammars fail in more places
// or otherwise.
func commaTypo(text string) bool {
	src := "package p\nfunc _() {\n" + strings.ReplaceAll(text, "...", "_elided") + "\n}"
	_, err := parser.ParseFile(token.NewFileSet(), "", src, parser.AllErrors|parser.SkipObjectResolution)
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) != 1 || !strings.HasPrefix(list[0].Msg, "missing ','") {
		return false
	}
	return strings.Contains(text, "(") && strings.Contains(text, ")")
}

// parsesAsGo reports whether a doc comment's code block is Go: it parses
// as a file, declarations or statements, and holds a call.
func parsesAsGo(text string) bool {
	_, f, _ := parseFragment(text)
	if f == nil {
		return false
	}
	call := false
	ast.Inspect(f, func(n ast.Node) bool {
		if _, ok := n.(*ast.CallExpr); ok {
			call = true
		}
		return !call
	})
	return call
}

// issueSeverity ranks an issue: 2 contradicts the doc, 1 makes it
// incomplete, 0 is not certain enough to report.
func issueSeverity(is gocheck.Issue, kind review.Kind, sc scope) int {
	if (kind == review.KindExample || kind == review.KindDocComment) && is.Name != "" && !token.IsExported(lastPart(is.Name)) &&
		!is.Absent {
		// An Example of the package's own test files, and a doc comment's
		// example of an unexported method, see the package's unexported
		// names; the checker reaches the package from outside. A type
		// that has no such member at all lacks it inside too, and a
		// package that declares no such name at all
		// ("workflow.newDisconnectedContext" for NewDisconnectedContext).
		return 0
	}
	if kind == review.KindDocComment {
		// Doc comment examples are sketches around the declaration
		// they document: only a wrong use of a module name counts.
		switch is.Kind {
		case "unknown-name", "unknown-member", "wrong-args", "wrong-type", gocheck.Unqualified:
			// An import of a path under the module's own that names no
			// package of it, while one package has that name, is as
			// wrong in a sketch.
			missingPkg := is.Kind == gocheck.UnknownName && is.Name == is.Package && is.Closest != "" && sc.syms.InModule(is.Package)
			if moduleIssue(sc, is) || is.Kind == gocheck.WrongArgs && is.Std || missingPkg {
				// A literal of the wrong kind passed to a standard
				// function is as certain as a module name's misuse.
				return 2
			}
		case "compile":
			// The results of a module function miscounted ("v :=
			// cache.Get(k)" of a Get that also returns an error) are a
			// wrong use of its name too; the block's own slips (`_ :=`,
			// a duplicate key) are a sketch's.
			if is.Name != "" && moduleIssue(sc, is) {
				return 2
			}
		case gocheck.Renamed:
			// A use that kept a renamed declaration's old name is wrong
			// in a sketch too.
			return 2
		case "syntax":
			// Only blocks that are Go but for a missing comma are
			// checked with a syntax error (see commaTypo).
			if strings.Contains(is.Message, "missing ','") {
				return 2
			}
		}
		return 0
	}
	switch is.Kind {
	case "unknown-name", "unknown-member", "wrong-args":
		if kind == review.KindExample && (is.Kind == "unknown-name" || !moduleIssue(sc, is)) {
			return 0
		}
		return 2
	case gocheck.Unqualified:
		// An Example function compiled: it is in the package, or
		// qualifies everything.
		if kind == review.KindExample {
			return 0
		}
		return 2
	case "missing-import":
		if kind == review.KindExample {
			return 0
		}
		return 1
	case "compile", "wrong-type", "wrong-import":
		if kind == review.KindExample && is.Kind != "compile" && !moduleIssue(sc, is) {
			return 0
		}
		return 2
	case gocheck.Renamed:
		return 2
	case "syntax":
		// An Example function compiled; a syntax error there is the
		// extractor's, not the doc's.
		if kind == review.KindExample {
			return 0
		}
		return 2
	}
	// "undeclared" is not reported: documentation leaves inputs
	// undeclared on purpose ("Convert(source, &buf)"), and the checker
	// cannot tell those from a missing step. Syntax and other issues are
	// not certain.
	return 0
}

// moduleIssue reports whether an issue is about a module package.
func moduleIssue(sc scope, is gocheck.Issue) bool {
	return issueDir(sc, is) != ""
}

// openBody reports whether the blocks before, read in order as one
// program, leave a brace open: the next block goes on inside a function
// body they started.
func openBody(prior []priorBlock) bool {
	depth := 0
	for _, p := range prior {
		open, excess := braceBalance(p.text)
		depth = max(depth-len(excess), 0) + open
	}
	return depth > 0
}

// blankExcessBraces blanks the lines that hold only a closing brace
// that closes nothing opened in text itself, line for line.
func blankExcessBraces(text string) string {
	_, excess := braceBalance(text)
	lines := strings.Split(text, "\n")
	for _, l := range excess {
		if strings.TrimSpace(lines[l-1]) == "}" {
			lines[l-1] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// braceBalance scans text's tokens (braces in strings and comments do not
// count) and returns how many braces it leaves open and the lines of the
// closing braces that close nothing opened in text.
func braceBalance(text string) (open int, excess []int) {
	var sc scanner.Scanner
	file := token.NewFileSet().AddFile("", -1, len(text))
	sc.Init(file, []byte(text), nil, 0)
	for {
		pos, tok, _ := sc.Scan()
		switch tok {
		case token.EOF:
			return open, excess
		case token.LBRACE:
			open++
		case token.RBRACE:
			if open > 0 {
				open--
			} else {
				excess = append(excess, file.Line(pos))
			}
		}
	}
}

// priorBlock is a Go block that comes before the one checked, with the
// heading path of its section.
type priorBlock struct {
	text, section string
}

// sectionBlocks returns the texts of the earlier blocks of section,
// nearest first.
func sectionBlocks(prior []priorBlock, section string) []string {
	var out []string
	for i := len(prior) - 1; i >= 0; i-- {
		if prior[i].section == section {
			out = append(out, prior[i].text)
		}
	}
	return out
}

// prelude returns the Go blocks of the claims that come before c in its
// Markdown file.
func (r *GoSnippet) prelude(ws *review.Workspace, c review.Claim) ([]priorBlock, error) {
	claims, err := r.docs.get(ws, c.Path, func() ([]review.Claim, error) {
		src, err := fs.ReadFile(ws.HeadFS, c.Path)
		if err != nil {
			return nil, fmt.Errorf("read %s for the snippet prelude: %w", c.Path, err)
		}
		if ws.Docs == nil {
			return nil, fmt.Errorf("read %s for the snippet prelude: the review has no doc reader", c.Path)
		}
		return ws.Docs.FileClaims(c.Path, src)
	})
	if err != nil {
		return nil, err
	}
	var prior []priorBlock
	for _, o := range claims {
		if o.Line >= c.Line {
			continue
		}
		for _, b := range goBlocks(o) {
			if b.Lang == review.LangGoSignature {
				continue // a heading's signature declares nothing for the code
			}
			if b.Line < c.Line {
				prior = append(prior, priorBlock{text: b.Text, section: o.Context})
			}
		}
	}
	return prior, nil
}

// parseImportsThenStmts parses a block that opens with import
// declarations and goes on with statements, as a file with those imports
// and one func holding the statements; nil when it is not such a block.
func parseImportsThenStmts(text string) *ast.File {
	src := "package p\n" + strings.ReplaceAll(text, "...", "_elided")
	fset := token.NewFileSet()
	head, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil || len(head.Imports) == 0 || len(head.Decls) == 0 {
		return nil
	}
	end := fset.Position(head.Decls[len(head.Decls)-1].End()).Offset
	rest := src[end:]
	if strings.TrimSpace(rest) == "" {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src[:end]+"; func _() {"+rest+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	return f
}

// tiedPrelude picks the earlier blocks whose declarations carry into a
// block (a name isPackage reports, a package of the module or the
// standard library, ties no blocks: `param.Null[string]()` uses package
// param even after a block declared a variable param): the blocks of its section, and, walking back from the nearest
// without a gap, each block the text continues: it declares a name the
// block (or a block already picked) uses without declaring and no other
// earlier block declares. A block in between that uses such a name
// without declaring it (another step of the same walk-through) is no
// gap. A block that declares what the picked ones declare themselves is
// never picked, nor one that declares at package level what the block
// declares there; the block's statements may declare again what an
// earlier block's did ("schema, err := compiler.Compile(…)" in each step
// of a reference). Other blocks are unrelated examples: their variables do not
// carry over. It returns the picked blocks' texts in document order.
func tiedPrelude(text, section string, prior []priorBlock, isPackage func(string) bool) []string {
	declared, used, ownStmts := blockScope(text)
	if declared == nil {
		declared, used = map[string]bool{}, map[string]bool{}
	}
	// The block's own names conflict only with an earlier block's
	// package-level ones when it declares at package level too: checked
	// statements are a scope of their own (gocheck nests them).
	own := maps.Clone(declared)
	pickedNames := map[string]bool{}
	names := make([]map[string]bool, len(prior))
	uses := make([]map[string]bool, len(prior))
	stmts := make([]bool, len(prior))
	declarers := map[string]int{}
	for i, p := range prior {
		names[i], uses[i], stmts[i] = blockScope(p.text)
		for name := range names[i] {
			declarers[name]++
		}
	}
	// Which earlier block declares each name declared once, import names
	// aside (a package every example uses ties none of them).
	declIdx := map[string]int{}
	for i := range prior {
		for name := range names[i] {
			if declarers[name] == 1 && !isPackage(name) {
				declIdx[name] = i
			}
		}
	}
	for _, p := range prior {
		for _, m := range importNameRE.FindAllStringSubmatch(p.text, -1) {
			delete(declIdx, importName(m[1], m[2]))
		}
	}
	// sibling reports whether earlier block i is itself a step of a
	// walk-through: it uses, without declaring it, a name one block before
	// it declares (appLogger, declared once at the top of a logger's
	// README; subsystemLogger, derived from it a section later). Such a
	// block keeps the chain going without being picked. A block that does
	// not parse is one when such a name is a word of it.
	sibling := func(i int) bool {
		for name, j := range declIdx {
			if j >= i {
				continue
			}
			if names[i] == nil {
				if litNamesWord(prior[i].text, name) {
					return true
				}
				continue
			}
			if uses[i][name] && !names[i][name] {
				return true
			}
		}
		return false
	}
	var picked []string
	chain := true // the blocks picked so far run back without a gap
	for i := len(prior) - 1; i >= 0; i-- {
		d, u := names[i], uses[i]
		same := prior[i].section == section && section != ""
		if d == nil {
			chain = chain && (same || sibling(i))
			continue
		}
		continues := false
		conflict := false
		for name := range d {
			// A name two earlier blocks declare does not say which one
			// is meant: it ties neither.
			if chain && used[name] && !declared[name] && declarers[name] == 1 && !isPackage(name) {
				continues = true
			}
			if pickedNames[name] || own[name] && !ownStmts && !stmts[i] {
				conflict = true
			}
		}
		if !same && !continues || conflict {
			// A step that uses what an earlier block declared without
			// declaring it keeps the chain without being picked.
			chain = chain && (same || sibling(i))
			continue
		}
		picked = append(picked, prior[i].text)
		for name := range d {
			declared[name] = true
			pickedNames[name] = true
		}
		for name := range u {
			used[name] = true
		}
	}
	// A setup block whose name most blocks after it use without
	// declaring (genai's guide declares client once, under
	// "Initialization", and eleven of the thirteen examples after it call
	// client.Models…) carries into each of them, whatever stands between:
	// the document is written on top of it. A name a few later blocks
	// use is no such setup (lo's "in := []*foo{…}" and a Replace hundreds
	// of lines on).
	var setup []int
	for name, i := range declIdx {
		if !used[name] || declared[name] || isPackage(name) || slices.Contains(setup, i) {
			continue
		}
		between := len(prior) - i - 1
		users := 0
		for k := i + 1; k < len(prior); k++ {
			if uses[k][name] && !names[k][name] {
				users++
			}
		}
		if users < 2 || 2*users < between {
			continue
		}
		conflict := false
		for n := range names[i] {
			if pickedNames[n] || own[n] && !ownStmts && !stmts[i] {
				conflict = true
			}
		}
		if !conflict {
			setup = append(setup, i)
		}
	}
	slices.Sort(setup)
	slices.Reverse(picked)
	for k := len(setup) - 1; k >= 0; k-- {
		picked = append([]string{prior[setup[k]].text}, picked...)
	}
	return picked
}

// packageName reports whether name is the name of a package of the
// module or of the standard library.
func packageName(syms *retrieval.Symbols, name string) bool {
	if syms == nil {
		return false
	}
	if syms.StdNamed(name) {
		return true
	}
	for _, p := range syms.Packages() {
		if p.Name == name {
			return true
		}
	}
	return false
}

// importNameRE finds the imports of a block: an optional name and the
// path.
var importNameRE = regexp.MustCompile(`(?m)^\s*(?:import\s+)?(?:\(\s*)?([A-Za-z_][A-Za-z0-9_]*\s+)?"([^"\s]+)"\s*$`)

// importName is the name an import declares: its alias, else the path's
// last element without a major version suffix.
func importName(alias, path string) string {
	if a := strings.TrimSpace(alias); a != "" {
		return a
	}
	parts := strings.Split(path, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2]
	}
	return strings.TrimPrefix(strings.TrimSuffix(last, "-go"), "go-")
}

// topLevelNames adds to names what a block declares where a later block
// could see it: imports and top-level declarations of a file, or the
// declarations directly in the body of a block of statements (stmts, as
// parseFragment wraps them in one function).
func topLevelNames(f *ast.File, stmts bool, names map[string]bool) {
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, "`\"")
		name := path[strings.LastIndexByte(path, '/')+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	spec := func(g *ast.GenDecl) {
		for _, sp := range g.Specs {
			switch x := sp.(type) {
			case *ast.ValueSpec:
				for _, id := range x.Names {
					names[id.Name] = true
				}
			case *ast.TypeSpec:
				names[x.Name.Name] = true
			}
		}
	}
	for _, d := range f.Decls {
		switch x := d.(type) {
		case *ast.GenDecl:
			spec(x)
		case *ast.FuncDecl:
			if !stmts {
				if x.Recv == nil {
					names[x.Name.Name] = true
				}
				continue
			}
			if x.Body == nil {
				continue
			}
			for _, st := range x.Body.List {
				switch y := st.(type) {
				case *ast.DeclStmt:
					if g, ok := y.Decl.(*ast.GenDecl); ok {
						spec(g)
					}
				case *ast.AssignStmt:
					if y.Tok == token.DEFINE {
						for _, l := range y.Lhs {
							if id, ok := l.(*ast.Ident); ok {
								names[id.Name] = true
							}
						}
					}
				}
			}
		}
	}
}

// reusable names are declared again and again by unrelated blocks and
// by blocks that continue one another; declaring one twice ties nothing
// and conflicts with nothing.
var reusable = map[string]bool{"err": true, "_": true, "ok": true, "ctx": true}

// blockScope returns the names a code block declares and the identifiers
// it uses, nil maps when it does not parse, and whether the block is
// statements (its names are a function body's, not the package's).
func blockScope(text string) (declared, used map[string]bool, stmts bool) {
	_, f, offset := parseFragment(text)
	if f == nil {
		// Imports, then statements (genai's setup block: its imports,
		// "ctx := context.Background()", "client, err :=
		// genai.NewClient(ctx, nil)"): the statements of a func body
		// whose file has those imports.
		if f = parseImportsThenStmts(text); f == nil {
			return nil, nil, false
		}
		offset = 2
	}
	declared, used = map[string]bool{}, map[string]bool{}
	topLevelNames(f, offset == 2, declared)
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	for name := range reusable {
		delete(declared, name)
	}
	return declared, used, offset == 2
}

// fileLines returns the lines of a file at head.
func (r *GoSnippet) fileLines(ws *review.Workspace, path string) ([]string, error) {
	return headLines(&r.lines, ws, path)
}

// headLines returns the lines of a file at head, cached in m.
func headLines(m *memo[[]string], ws *review.Workspace, path string) ([]string, error) {
	return m.get(ws, path, func() ([]string, error) {
		if ws.HeadFS == nil {
			return nil, nil
		}
		src, err := fs.ReadFile(ws.HeadFS, path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		return strings.Split(string(src), "\n"), nil
	})
}

// sketchRE matches prose that introduces code as a supposition: what an
// API could or would look like, or one to imagine.
var sketchRE = regexp.MustCompile(`(?i)\b(?:could|would|might)\s+(?:look|be\s+written)\s+(?:like|as)\b|\bimagine\b|\bhypothetical(?:ly)?\b|\bcould\s+expose\b|\bpseudo-?code\b`)

// sketchIntro reports whether the prose just above the block starting at
// codeLine (1-based; its fence on the line before) introduces it as a
// supposition: the three lines of text nearest above it, up to a heading
// or another block.
func sketchIntro(lines []string, codeLine int) bool {
	var text []string
	for i := codeLine - 3; i >= 0 && len(text) < 3; i-- {
		t := strings.TrimSpace(lines[i])
		if t == "" {
			if len(text) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			break
		}
		text = append(text, t)
	}
	return sketchRE.MatchString(strings.Join(text, " "))
}

// codeStart finds the file line of a block's first code line: the
// mention's Line may be the opening fence or the code itself, so it looks
// for the code's first non-blank line at or just after it.
func codeStart(lines []string, b review.Mention) int {
	first := ""
	skipped := 0
	for l := range strings.SplitSeq(b.Text, "\n") {
		if strings.TrimSpace(l) != "" {
			first = strings.TrimSpace(l)
			break
		}
		skipped++
	}
	for k := 0; k <= 2+skipped; k++ {
		i := b.Line - 1 + k
		if i >= 0 && i < len(lines) && strings.TrimSpace(lines[i]) == first {
			return b.Line + k - skipped
		}
	}
	if i := b.Line - 1; i >= 0 && i < len(lines) {
		if t := strings.TrimSpace(lines[i]); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			return b.Line + 1
		}
	}
	return b.Line
}

// ownerRE finds the type named in a type checker's message about a
// missing member: "type *example.com/inventory.Store has no field or
// method Reserve", "unknown field Size in struct literal of type Options".
var ownerRE = regexp.MustCompile(`(?:^|\s)type \*?(?:\S+\.)?([\pL_][\pL\pN_]*)(?:\[[^\]]*\])?(?:\s|$)`)

// subject is what an issue is about, with its certain correction if any.
type subject struct {
	dir     string // directory of the module package concerned; "" if unknown
	name    string // as shown: "Store.Reserve", "inventory.Neww", "inventory.New"
	owner   string // for a member: its type ("Store"); else ""
	member  string // for a member: its name ("Reserve"); else ""
	closest string // the correction in the same form as name; "" if none
	rename  *review.Rename
	// elsewhere names the other types of the package that have member
	// ("Route.HeadersRegexp"): then the receiver, not the name, is wrong, and
	// no rename is suggested.
	elsewhere []string
}

// subjectOf works out what an issue is about and how to correct it: the
// rename of this diff when there is one, else the unique close name.
func subjectOf(sc scope, is gocheck.Issue, changes review.Changes) subject {
	sub := subject{dir: issueDir(sc, is), name: is.Name}
	var prefix, rel string
	switch is.Kind {
	case "unknown-member":
		sub.member = is.Name
		if m := ownerRE.FindStringSubmatch(is.Message); m != nil {
			sub.owner = m[1]
			sub.name = sub.owner + "." + sub.member
		}
		if is.Std {
			// A standard library type: its own closest member is the
			// correction; nothing in the repository to cite.
			if pkg := path.Base(is.Package); sub.owner != "" {
				sub.owner = pkg + "." + sub.owner
				sub.name = sub.owner + "." + sub.member
			}
			if is.Closest != "" {
				sub.closest = sub.owner + "." + is.Closest
			}
			return sub
		}
		if sub.owner == "" {
			return sub
		}
		rel = sub.name
	case "unknown-name":
		if is.Std {
			// A standard library package: the name it declares in other
			// letter case is the correction.
			if q, _, ok := strings.Cut(is.Name, "."); ok && is.Closest != "" {
				sub.closest = q + "." + is.Closest
			}
			return sub
		}
		if q, rest, ok := strings.Cut(is.Name, "."); ok && !strings.Contains(is.Name, "/") {
			prefix, rel = q+".", rest
		}
	}
	if rel == "" || sub.dir == "" {
		return sub
	}
	if sub.member != "" {
		sub.elsewhere = membersElsewhere(sc.syms.Package(sub.dir), sub.owner, sub.member)
		if len(sub.elsewhere) > 0 {
			return sub
		}
	}
	for i, rn := range changes.Renamed {
		if rn.Old.Dir == sub.dir && rn.Old.Name == rel {
			sub.rename = &changes.Renamed[i]
			sub.closest = prefix + rn.New.Name
			return sub
		}
	}
	if got, ok := sc.syms.Suggest(sub.dir, rel); ok && got != rel && sameForm(rel, got) && certainlyClose(rel, got, sc.syms.Package(sub.dir), is.Kind == "unknown-member") {
		sub.closest = prefix + got
	}
	return sub
}

// issueDir is the directory of the module package an issue is about, or "".
func issueDir(sc scope, is gocheck.Issue) string {
	if is.Package == "" {
		return ""
	}
	if p := sc.syms.PackageByPath(is.Package); p != nil {
		return p.Dir
	}
	return ""
}

// lookupIn finds a module symbol by name in the package in dir, the name
// possibly qualified by the package's name.
func lookupIn(sc scope, dir, name string) (retrieval.Symbol, bool) {
	if dir == "" || name == "" {
		return retrieval.Symbol{}, false
	}
	if sym, ok := sc.syms.Lookup(dir, name); ok && sc.inModule(sym) {
		return sym, true
	}
	if _, rest, ok := strings.Cut(name, "."); ok {
		if sym, ok := sc.syms.Lookup(dir, rest); ok && sc.inModule(sym) {
			return sym, true
		}
	}
	return retrieval.Symbol{}, false
}

// moreIssues lists the issues of a claim after its first one (whose
// message is first), each distinct message once with its lines: the same
// slip written twice is one problem. Over three, they are counted.
func moreIssues(first string, rest []snippetIssue) string {
	var msgs []string
	lines := map[string][]string{}
	for _, is := range rest {
		m := strings.TrimPrefix(is.Message, "syntax error: ")
		if lines[m] == nil && m != first {
			msgs = append(msgs, m)
		}
		lines[m] = append(lines[m], strconv.Itoa(is.line))
	}
	out := ""
	if same := lines[first]; len(same) > 0 {
		out = "; the same on line" + pluralS(len(same)) + " " + strings.Join(same, ", ")
	}
	if len(msgs) == 0 {
		return out
	}
	if len(msgs) > 3 {
		var all []string
		for _, m := range msgs {
			all = append(all, lines[m]...)
		}
		return out + fmt.Sprintf("; %d more problems follow, on lines %s", len(msgs), strings.Join(all, ", "))
	}
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = fmt.Sprintf("line%s %s: %s", pluralS(len(lines[m])), strings.Join(lines[m], ", "), m)
	}
	return out + "; also " + strings.Join(parts, "; ")
}

// pluralS is "s" for a count other than one.
func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// verdict reports the worst issues of a claim: the first one in the
// message and evidence, the others counted.
func (r *GoSnippet) verdict(ws *review.Workspace, sc scope, c review.Claim, issues []snippetIssue, changes review.Changes) *review.Verdict {
	is := issues[0]
	sub := subjectOf(sc, is.Issue, changes)
	docSource := review.SourceDoc
	if c.Kind == review.KindExample {
		docSource = review.SourceExample
	}
	v := &review.Verdict{Label: review.Contradicted, Rule: r.Name(), Confidence: 0.9}
	var why, msg string
	mixed := false // a doc comment's block mostly bare, one name qualified
	switch is.Kind {
	case "unknown-member":
		why = fmt.Sprintf("code block uses %s, which does not exist", sub.name)
		msg = fmt.Sprintf("The Go code block uses %s, but ", sub.name)
		if ptr := pointerToInterfaceRE.FindStringSubmatch(is.Message); ptr != nil {
			// A pointer to an interface has no methods: the type was a
			// struct once (fiber v2's *fiber.Ctx) and is an interface now.
			why = fmt.Sprintf("code block calls %s through a pointer to an interface", sub.member)
			msg = fmt.Sprintf("The Go code block calls %s on a *%s, a pointer to an interface, which has no methods: %s is an interface, so write %s, not *%s", sub.member, ptr[1], ptr[1], ptr[1], ptr[1])
			sub.elsewhere, sub.closest = nil, ""
		} else if sub.owner != "" {
			msg += fmt.Sprintf("%s has no field or method %s", sub.owner, sub.member)
		} else {
			msg += "no such field or method exists"
		}
	case gocheck.Unqualified:
		why = fmt.Sprintf("code block uses %s bare but qualifies the other names of its package", is.Name)
		msg = fmt.Sprintf("The Go code block uses %s bare, but it writes the other names of package %s with their qualifier, so it is read from outside the package, where %s is undefined: write %s",
			is.Name, is.Package, is.Name, is.Closest)
		if q, _, ok := strings.Cut(is.Closest, "."); ok && !strings.Contains(is.block.Text, q+".") {
			// The block imports the package and never qualifies a name
			// of it (lancet's "result, err := ToJson(aMap)" under an
			// import of convertor).
			why = fmt.Sprintf("code block imports package %s and uses its %s bare", is.Package, is.Name)
			msg = fmt.Sprintf("The Go code block imports package %s and uses %s bare, which is undefined outside the package: write %s",
				is.Package, is.Name, is.Closest)
		}
		if bare, qualified := mixedNames(issues, is); c.Kind == review.KindDocComment && len(bare) > len(qualified) && ownPackage(ws, sc, is.Package) {
			mixed = true
			// Mostly bare in the package's own doc (starlark's
			// UnpackArgs doc, with one starlark.None): the qualifier is
			// the slip.
			why = fmt.Sprintf("code block qualifies %s but writes the package's other names bare", strings.Join(qualified, ", "))
			msg = fmt.Sprintf("The Go code block writes the names of package %s bare, as the package's own code does (%s), but %s with its qualifier, so it compiles neither inside the package nor outside it: inside it, drop the qualifier",
				is.Package, strings.Join(bare, ", "), strings.Join(qualified, ", "))
		}
	case "unknown-name":
		why = fmt.Sprintf("code block uses %s, which does not exist", sub.name)
		msg = fmt.Sprintf("The Go code block uses %s, which does not exist (%s)", sub.name, is.Message)
		if strings.HasPrefix(is.Message, "package ") && is.Std {
			why = fmt.Sprintf("code block uses %s, which the standard library does not declare", sub.name)
			msg = fmt.Sprintf("The Go code block uses %s, which the standard library's package %s does not declare", sub.name, is.Package)
		} else if strings.HasPrefix(is.Message, "package ") {
			msg = fmt.Sprintf("The Go code block uses %s, which the module does not declare", sub.name)
			if mod, version, ok := depOf(ws, is.Package); ok {
				msg = fmt.Sprintf("The Go code block uses %s, which package %s does not declare in %s %s, the version go.mod requires", sub.name, is.Package, mod, version)
			}
		}
	case "wrong-args":
		why = fmt.Sprintf("code block calls %s with arguments its signature does not accept", sub.name)
		msg = fmt.Sprintf("The Go code block calls %s with arguments its signature does not accept (%s)", sub.name, is.Message)
	case "syntax":
		why = "code block is not valid Go"
		msg = fmt.Sprintf("The Go code block does not parse (%s)", strings.TrimPrefix(is.Message, "syntax error: "))
	case gocheck.Renamed:
		why = fmt.Sprintf("code block uses %s, which it declares nowhere", is.Name)
		msg = fmt.Sprintf("The Go code block does not compile (%s)", is.Message)
	case "compile":
		why = "code block does not compile"
		msg = fmt.Sprintf("The Go code block does not compile (%s)", is.Message)
	case "wrong-type":
		why = "code block uses a value of the wrong type"
		msg = fmt.Sprintf("The Go code block does not compile (%s)", is.Message)
	case "wrong-import":
		why = fmt.Sprintf("code block imports %s, which the repository does not provide", is.Name)
		msg = fmt.Sprintf("The Go code block imports %s, which the repository does not provide; it provides %s", is.Name, is.Package)
	default: // missing-import
		v.Label, v.Confidence = review.Incomplete, 0.6
		why = fmt.Sprintf("code block uses package %s without importing it", sub.name)
		msg = fmt.Sprintf("The Go code block uses package %s without importing %q", sub.name, is.Package)
		if is.Also != "" {
			msg += fmt.Sprintf(" (or the standard library's %q)", is.Also)
		}
	}
	switch {
	case len(sub.elsewhere) > 0:
		owners := make([]string, len(sub.elsewhere))
		for i, name := range sub.elsewhere {
			owners[i] = strings.TrimSuffix(name, "."+sub.member)
		}
		msg += fmt.Sprintf("; %s is declared on %s", sub.member, strings.Join(owners, ", "))
	case sub.rename != nil:
		msg += fmt.Sprintf(" (%s was renamed to %s in this diff)", sub.rename.Old.Name, sub.rename.New.Name)
	case sub.closest != "":
		msg += fmt.Sprintf(" (closest: %s)", sub.closest)
	}
	rest := issues[1:]
	if mixed {
		// The bare names are listed already.
		rest = slices.DeleteFunc(slices.Clone(rest), func(o snippetIssue) bool { return o.Kind == gocheck.Unqualified && o.Package == is.Package })
	}
	msg += moreIssues(strings.TrimPrefix(is.Message, "syntax error: "), rest)
	v.Message = msg + "."

	hop := c.Symbol
	if hop == "" {
		hop = fmt.Sprintf("%s:%d", c.Path, is.block.Line)
	}
	hop += " (code block)"
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: c.Path, StartLine: is.line, EndLine: is.line, Source: docSource, Why: why, Hops: []string{hop},
	})
	if mod, version, ok := depOf(ws, is.Package); ok {
		// A dependency's API decides: cite the requirement that names
		// the version read.
		if line := requireLine(ws, mod); line > 0 {
			v.Evidence = append(v.Evidence, review.Evidence{
				Path: "go.mod", StartLine: line, EndLine: line, Source: review.SourceCode,
				Why: fmt.Sprintf("requires %s %s, whose package %s the block was checked against", mod, version, is.Package), Hops: []string{hop, "go.mod"},
			})
		}
	}
	cite := func(sym retrieval.Symbol, why string) {
		ref := ws.Symbols.Definition(sym)
		start, end := lineRange(ref.Line, ref.EndLine)
		v.Evidence = append(v.Evidence, review.Evidence{
			Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode, Why: why,
			Hops: []string{hop, sym.Name},
		})
	}
	ptrToInterface := pointerToInterfaceRE.MatchString(is.Message)
	switch is.Kind {
	case "unknown-member":
		if sym, ok := lookupIn(sc, sub.dir, sub.owner); ok && ptrToInterface {
			ref := ws.Symbols.Definition(sym)
			start, _ := lineRange(ref.Line, ref.EndLine)
			v.Evidence = append(v.Evidence, review.Evidence{
				Path: ref.Path, StartLine: start, EndLine: start, Source: review.SourceCode,
				Why: fmt.Sprintf("%s is an interface", sub.owner), Hops: []string{hop, sym.Name},
			})
		} else if ok {
			w := fmt.Sprintf("%s has no field or method %s", sub.owner, sub.member)
			if sub.closest != "" {
				w += "; closest: " + lastPart(sub.closest)
			}
			if list := memberList(sym); list != "" {
				// The member list decides the verdict, not the body of
				// the type: cite its declaration line with the list.
				w += "; it has " + list
				ref := ws.Symbols.Definition(sym)
				start, _ := lineRange(ref.Line, ref.EndLine)
				v.Evidence = append(v.Evidence, review.Evidence{
					Path: ref.Path, StartLine: start, EndLine: start, Source: review.SourceCode, Why: w,
					Hops: []string{hop, sym.Name},
				})
			} else {
				cite(sym, w)
			}
		}
		for _, name := range sub.elsewhere {
			if sym, ok := lookupIn(sc, sub.dir, name); ok {
				cite(sym, fmt.Sprintf("%s is declared on %s, not %s", sub.member, strings.TrimSuffix(name, "."+sub.member), sub.owner))
			}
		}
	case gocheck.Unqualified:
		if sym, ok := lookupIn(sc, sub.dir, is.Name); ok {
			cite(sym, fmt.Sprintf("declares %s, which outside its package is %s", is.Name, is.Closest))
		}
	case "unknown-name":
		if sym, ok := lookupIn(sc, sub.dir, sub.closest); ok {
			cite(sym, fmt.Sprintf("closest existing name to %s: %s", sub.name, sub.closest))
		}
	case "wrong-type":
		if sym, ok := lookupIn(sc, sub.dir, sub.name); ok {
			cite(sym, "declares "+sym.Name)
		}
	case "wrong-args", "compile":
		if sym, ok := lookupIn(sc, sub.dir, sub.name); ok {
			if sym.Signature == "" {
				cite(sym, "defines "+sym.Name)
				break
			}
			// The signature decides the verdict: cite the line that
			// declares it, not the body.
			ref := ws.Symbols.Definition(sym)
			start, end := lineRange(ref.Line, ref.EndLine)
			if sig := declLines(ws, ref.Path, start, end); sig > 0 {
				end = start + sig - 1
			}
			v.Evidence = append(v.Evidence, review.Evidence{
				Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode, Why: "signature: " + sym.Signature,
				Hops: []string{hop, sym.Name},
			})
		}
	}
	if sub.rename != nil {
		if ev, ok := hunkEvidence(ws.Diff, sub.rename.New, false); ok {
			ev.Why = fmt.Sprintf("%s renamed to %s in this diff", sub.rename.Old.Name, sub.rename.New.Name)
			ev.Hops = []string{hop, "diff " + ev.Path}
			v.Evidence = append(v.Evidence, ev)
		}
	}
	if is.Kind == "unknown-member" && sub.closest != "" && c.Kind == review.KindMarkdown {
		v.Suggestion = memberFix(c.Text, issues, gocheck.UnknownMember, sub.member, sub.member, lastPart(sub.closest))
	}
	if is.Kind == "unknown-name" && is.Std && is.Closest != "" && c.Kind == review.KindMarkdown {
		v.Suggestion = memberFix(c.Text, issues, gocheck.UnknownName, is.Name, lastPart(is.Name), is.Closest)
	}
	if is.Kind == gocheck.Renamed && is.Closest != "" {
		v.Suggestion = renameFix(c.Text, is.block.Text, is.Name, is.Closest)
	}
	if is.Kind == gocheck.Unqualified && !mixed && c.Kind == review.KindMarkdown {
		v.Suggestion = unqualifiedFix(c.Text, issues)
	}
	return v
}

// unqualifiedFix qualifies the bare names of a block whose every issue is
// a name of one package written bare ("Config{Max: 3}" beside
// "limits.New" becomes "limits.Config{Max: 3}"); "" when another issue
// remains, the block is not found once in text, or a name is not found
// bare. A name written as a composite literal's key ("Config: c") is a
// field, not the package's name, and stays.
func unqualifiedFix(text string, issues []snippetIssue) string {
	if len(issues) == 0 {
		return ""
	}
	block := issues[0].block
	repl := map[string]string{}
	for _, is := range issues {
		if is.Kind != gocheck.Unqualified || is.Closest == "" || is.block.Line != block.Line {
			return ""
		}
		repl[is.Name] = is.Closest
	}
	at := strings.Index(text, block.Text)
	if at < 0 || block.Text == "" || strings.Contains(text[at+1:], block.Text) {
		return ""
	}
	code := block.Text
	for _, name := range slices.Sorted(maps.Keys(repl)) {
		var n int
		if code, n = qualifyBare(code, name, repl[name]); n == 0 {
			return ""
		}
	}
	return text[:at] + code + text[at+len(block.Text):]
}

// qualifyBare writes repl for each bare use of name in code (not after a
// dot, not a key before a colon) and returns how many it wrote.
func qualifyBare(code, name, repl string) (string, int) {
	return replaceNameUnless(code, name, repl, func(after string) bool {
		rest := strings.TrimLeft(after, " \t")
		return strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, ":=")
	})
}

// renameFix rewrites a name the block declares nowhere to the variable it
// stands for ("st" to "t"), when every use of the name in the text is in
// the block; "" otherwise.
func renameFix(text, block, name, repl string) string {
	_, inBlock := replaceName(block, name, repl)
	fixed, inText := replaceName(text, name, repl)
	if inText == 0 || inText != inBlock {
		return ""
	}
	return fixed
}

// pointerToInterfaceRE reads the type of the checker's message about a
// selector through a pointer to an interface.
var pointerToInterfaceRE = regexp.MustCompile(`type \*([\w.]+) is pointer to interface`)

// declLines is how many lines, from start, a func declaration's signature
// takes in path at head (up to the line that opens its body), or 0 when
// the lines cannot be read or no body opens by end.
func declLines(ws *review.Workspace, path string, start, end int) int {
	data, err := fs.ReadFile(ws.HeadFS, path)
	if err != nil {
		return 0
	}
	lines := strings.Split(string(data), "\n")
	for i := start; i <= end && i <= len(lines); i++ {
		if strings.HasSuffix(strings.TrimRight(lines[i-1], " \t"), "{") {
			return i - start + 1
		}
	}
	return 0
}

// memberList names the exported fields and methods of a named type (its
// pointer's method set), "fields A, B; methods C, D", at most 12 names in
// all; "" for anything else.
func memberList(sym retrieval.Symbol) string {
	tn, ok := sym.Object.(*types.TypeName)
	if !ok || tn == nil {
		return ""
	}
	var fields, methods []string
	if st, ok := tn.Type().Underlying().(*types.Struct); ok {
		for i := range st.NumFields() {
			if f := st.Field(i); f.Exported() {
				fields = append(fields, f.Name())
			}
		}
	}
	ms := types.NewMethodSet(types.NewPointer(tn.Type()))
	for i := range ms.Len() {
		if m := ms.At(i).Obj(); m.Exported() {
			methods = append(methods, m.Name())
		}
	}
	const most = 12
	cut := func(names []string, room int) string {
		if len(names) > room {
			return strings.Join(names[:max(room, 0)], ", ") + fmt.Sprintf(" and %d more", len(names)-max(room, 0))
		}
		return strings.Join(names, ", ")
	}
	noun := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	var parts []string
	if len(fields) > 0 {
		parts = append(parts, noun(len(fields), "field ", "fields ")+cut(fields, most))
	}
	if len(methods) > 0 {
		parts = append(parts, noun(len(methods), "method ", "methods ")+cut(methods, most-min(len(fields), most)))
	}
	if len(parts) == 0 {
		return "no exported fields or methods"
	}
	return strings.Join(parts, "; ")
}

// memberFix replaces ".member" by ".repl" in a code block's claim text,
// but only when every issue is this same one (of kind and name: the
// member, or "os.GetEnv" for a standard package's name) and every
// occurrence of the selector in the blocks sits on a flagged line, so the
// corrected text is certain. Otherwise it returns "".
func memberFix(text string, issues []snippetIssue, kind gocheck.IssueKind, name, member, repl string) string {
	flagged := map[int]bool{}
	for _, is := range issues {
		if is.Kind != kind || is.Name != name {
			return ""
		}
		flagged[is.line] = true
	}
	for _, is := range issues {
		for i, l := range strings.Split(is.block.Text, "\n") {
			if countSelector(l, member) > 0 && !flagged[is.codeLine+i] {
				return ""
			}
		}
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], "."+member)
		if j < 0 {
			b.WriteString(text[i:])
			break
		}
		j += i
		end := j + 1 + len(member)
		b.WriteString(text[i:j])
		if end == len(text) || !isIdentByte(text[end]) {
			b.WriteString("." + repl)
			n++
		} else {
			b.WriteString(text[j:end])
		}
		i = end
	}
	if n == 0 {
		return ""
	}
	return b.String()
}

// countSelector counts ".member" selectors in a line of code.
func countSelector(line, member string) int {
	n := 0
	for i := 0; i < len(line); {
		j := strings.Index(line[i:], "."+member)
		if j < 0 {
			break
		}
		end := i + j + 1 + len(member)
		if end == len(line) || !isIdentByte(line[end]) {
			n++
		}
		i = end
	}
	return n
}

// membersElsewhere lists, as "Type.Member", the named types of pkg other
// than owner that have a field or method called member, sorted.
func membersElsewhere(pkg *retrieval.Package, owner, member string) []string {
	if pkg == nil || pkg.Types == nil {
		return nil
	}
	var out []string
	scope := pkg.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || name == owner || tn.IsAlias() {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg.Types, member)
		if obj != nil {
			out = append(out, name+"."+member)
		}
	}
	return out
}

// valueNamedLikePackage reports an issue that reads a value named like a
// package as that package: "err := publisher.Publish(…)" in a README of a
// module with a package publisher, or "<-message.Acked()" in a doc of
// package message under (*Message).Acked. It holds when the block does
// not import the qualifier itself (a doc comment imports nothing), the
// package does not declare the name, and a type of the module has a
// member of that name: the name is a method called on a value, whose type
// the block does not say.
func valueNamedLikePackage(ws *review.Workspace, c review.Claim, sc scope, block string, is gocheck.Issue) bool {
	if is.Kind != gocheck.UnknownName && is.Kind != gocheck.Undeclared {
		return false
	}
	qual, name, ok := strings.Cut(is.Name, ".")
	if !ok || strings.Contains(name, ".") {
		return false
	}
	var others []string
	if _, f, _ := parseFragment(block); f != nil {
		for _, imp := range f.Imports {
			ip := strings.Trim(imp.Path.Value, "`\"")
			name := path.Base(ip)
			if imp.Name != nil {
				name = imp.Name.Name
			} else if p := ws.Symbols.PackageByPath(ip); p != nil && p.Types != nil {
				name = p.Types.Name()
			}
			if name == qual {
				return false // the block imports it: qual is the package
			}
		}
		declared := false
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == qual && n.Sel.Name != name {
					others = append(others, n.Sel.Name)
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == qual && n.Tok == token.DEFINE {
						declared = true
					}
				}
			case *ast.ValueSpec:
				declared = declared || slices.ContainsFunc(n.Names, func(id *ast.Ident) bool { return id.Name == qual })
			case *ast.Field:
				declared = declared || slices.ContainsFunc(n.Names, func(id *ast.Ident) bool { return id.Name == qual })
			}
			return true
		})
		if declared {
			// "publisher, err := publisher.New(…)" then
			// "publisher.Publish(…)": the name is a value from there on.
			others = nil
		}
	}
	for _, p := range ws.Symbols.PackagesNamed(qual) {
		if p.Types == nil {
			continue
		}
		if p.Types.Scope().Lookup(name) != nil {
			return false
		}
		// The block names types or funcs of the package through the
		// same qualifier ("&mcp.StreamableClientTransport{…}" beside
		// "mcp.Connect(…)"): qual is the package there too.
		for _, o := range others {
			if obj := p.Types.Scope().Lookup(o); obj != nil && obj.Exported() {
				if _, isVar := obj.(*types.Var); !isVar {
					return false
				}
			}
		}
	}
	return sc.hasMember(name)
}

// mixedNames returns, for the package of an Unqualified issue, the names
// the block writes bare (the issues of its kind) and the ones it writes
// with the qualifier ("starlark.None"), each once, in order.
func mixedNames(issues []snippetIssue, is snippetIssue) (bare, qualified []string) {
	qual := strings.TrimSuffix(is.Closest, "."+is.Name)
	for _, o := range issues {
		if o.Kind == gocheck.Unqualified && o.Package == is.Package && o.block.Line == is.block.Line && !slices.Contains(bare, o.Name) {
			bare = append(bare, o.Name)
		}
	}
	if qual == "" || qual == is.Closest {
		return bare, nil
	}
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(qual) + `\.([A-Za-z_]\w*)`)
	for _, m := range re.FindAllStringSubmatch(is.block.Text, -1) {
		if q := qual + "." + m[1]; !slices.Contains(qualified, q) {
			qualified = append(qualified, q)
		}
	}
	return bare, qualified
}

// ownPackage reports whether import path ip is the package of the claim.
func ownPackage(ws *review.Workspace, sc scope, ip string) bool {
	p := ws.Symbols.Package(sc.primary())
	return p != nil && p.ImportPath == ip
}

// listsOwnTypes reports whether an issue of a name written bare is about
// a package whose declarations the block lists itself: dynamicgo's
// introduction sketches "type TypeDescriptor interface { Type() Type … }"
// and "type Value struct { Node; Desc thrift.TypeDescriptor }", package
// thrift's own types, so its bare names are the package's, written from
// inside.
func listsOwnTypes(ws *review.Workspace, block string, is gocheck.Issue) bool {
	if is.Kind != gocheck.Unqualified || ws.Symbols == nil {
		return false
	}
	p := ws.Symbols.PackageByPath(is.Package)
	if p == nil || p.Types == nil {
		return false
	}
	f := parseAnyForm(block)
	if f == nil {
		return false
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			if name := spec.(*ast.TypeSpec).Name.Name; name != is.Name && p.Types.Scope().Lookup(name) != nil {
				return true
			}
		}
	}
	return false
}

// readersPackage reports whether an unknown name of a module package that
// the block uses without importing it may be a name of the reader's own
// package of that name. A code generator's docs write the packages it
// generates for the reader: ent's "obj *ent.Todo", its schema's
// privacy.AlwaysAllowReadWrite(). That is so when another package of the
// module with the name declares it (a generated package of an
// integration test), when an example of the module generates a package
// of the name, or when the package the checker took lies in a
// directory of examples, integration tests or test data (ent's
// entc/integration/ent/role, for a role.Unknown of the reader's schema),
// which is no package a block leaves the reader to import either.
func readersPackage(ws *review.Workspace, block string, is gocheck.Issue) bool {
	if is.Std || is.Package == "" {
		return false
	}
	if is.Kind == gocheck.MissingImport {
		// Nor is a package of examples or tests one a block leaves the
		// reader to import.
		p := ws.Symbols.PackageByPath(is.Package)
		return p != nil && exampleDir(p.Dir)
	}
	if is.Kind != gocheck.UnknownName {
		return false
	}
	qual, name, ok := strings.Cut(is.Name, ".")
	if !ok || strings.Contains(name, ".") || strings.Contains(block, strconv.Quote(is.Package)) {
		return false
	}
	taken := ws.Symbols.PackageByPath(is.Package)
	for _, p := range ws.Symbols.PackagesNamed(qual) {
		if p.ImportPath == is.Package {
			if exampleDir(p.Dir) {
				return true
			}
			continue
		}
		if taken != nil && generatedPackage(taken) {
			// The package taken is generated code itself: the doc
			// means generated code of that name, which the module
			// has.
			continue
		}
		if p.Types != nil && p.Types.Scope().Lookup(name) != nil {
			return true
		}
		if exampleDir(p.Dir) && generatedPackage(p) {
			return true
		}
	}
	return false
}

// generatedPackage reports whether most files of a package are generated
// code ("Code generated … DO NOT EDIT."); a stringer file beside
// hand-written ones does not make it so.
func generatedPackage(p *retrieval.Package) bool {
	n := 0
	for _, f := range p.Syntax {
		if ast.IsGenerated(f) {
			n++
		}
	}
	return n > 0 && 2*n > len(p.Syntax)
}

// exampleDir reports whether a slash-separated directory lies under one
// of examples, integration tests or test data.
func exampleDir(dir string) bool {
	for _, part := range strings.Split(dir, "/") {
		switch strings.TrimPrefix(part, "_") {
		case "example", "examples", "integration", "testdata", "e2e", "test", "tests":
			return true
		}
	}
	return false
}

// fileImports returns an import declaration of the names the Go file at
// path imports, as a prelude block ("import (status "…"; …)"), or "" when
// it cannot be read.
func fileImports(ws *review.Workspace, path string) string {
	src, err := fs.ReadFile(ws.HeadFS, path)
	if err != nil {
		return ""
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
	if err != nil || len(f.Imports) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("import (\n")
	for _, imp := range f.Imports {
		if imp.Name != nil {
			b.WriteString(imp.Name.Name + " ")
		}
		b.WriteString(imp.Path.Value + "\n")
	}
	b.WriteString(")\n")
	return b.String()
}

// packageClauseRE finds a package clause at the start of a line.
var packageClauseRE = regexp.MustCompile(`(?m)^package\s+[A-Za-z_]\w*\s*$`)

// topDeclRE finds a declaration at the start of a line: "func main() {",
// "type CLI struct {".
var topDeclRE = regexp.MustCompile(`(?m)^(?:func|type)\s`)

// elisionLineRE matches a line that leaves code out: "// ...", "...",
// "/* ... */", "…".
var elisionLineRE = regexp.MustCompile(`^\s*(?://\s*(?:\.\.\.|…)|/\*\s*(?:\.\.\.|…)\s*\*/|\.\.\.|…)\s*$`)

// goLineKeywordRE matches a line that opens a Go declaration or
// statement by its keyword.
var goLineKeywordRE = regexp.MustCompile(`^\s*(?:package|import|func|type|var|const|return|defer|go|if|for|switch|select)\b`)

// goLineStartRE matches a line that opens as Go statements do: a short
// variable declaration, or a call of a name or selector.
var goLineStartRE = regexp.MustCompile(`^[A-Za-z_][\w, ]*:=|^[A-Za-z_][\w.]*\(`)

// anyGoLine reports whether one line of a block, read on its own, is Go:
// it opens with a keyword of Go, a short variable declaration or a call,
// or it parses as a statement that calls, assigns or sends (a line that
// opens a block is read closed).
func anyGoLine(block string) bool {
	for _, l := range strings.Split(block, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		if goLineKeywordRE.MatchString(t) || goLineStartRE.MatchString(t) {
			return true
		}
		t = strings.TrimSuffix(strings.TrimPrefix(t, "}"), "{")
		src := "package p\nfunc _() {\n" + strings.ReplaceAll(t, "...", "_elided") + "\n}"
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		goStmt := false
		ast.Inspect(f.Decls[0].(*ast.FuncDecl).Body, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.CallExpr, *ast.AssignStmt, *ast.SendStmt, *ast.IncDecStmt:
				goStmt = true
			}
			return !goStmt
		})
		if goStmt {
			return true
		}
	}
	return false
}

// switchRE finds a switch or select statement.
var switchRE = regexp.MustCompile(`\b(?:switch|select)\b`)

// excerptSyntax reports an error that only says the block is an excerpt
// (or its types the reader's): a fragment that opens a block it does not close ("if err :=
// w.Write(b); err != nil {" shown as the line a change touched), or a file
// whose "// ..." leaves out the func its statements belong to ("package
// main", its imports, "// ...", then "signer := jwt.NewSigner(…)").
func excerptSyntax(block string, is gocheck.Issue) bool {
	if is.Kind == gocheck.WrongArgs && strings.Contains(is.Message, "have (func[") {
		// A generic function passed uninstantiated: its type arguments
		// are the reader's ("auth.New[MyUser](config)" with MyUser
		// undeclared), so the call's arguments are not known.
		return true
	}
	if is.Kind != gocheck.Syntax {
		return false
	}
	if !anyGoLine(block) {
		// Not Go at all, only fenced as Go: a query language's paths
		// ("name.last   \"Anderson\"", "friends.#(age>45)#.last"), a
		// code generator's DSL, a grammar.
		return true
	}
	if literalElement(block) {
		// "{ \"Test Input prompt interaction\", &Input{…}, … }": an
		// element of a table, shown without the table.
		return true
	}
	if (strings.Contains(is.Message, "found 'case'") || strings.Contains(is.Message, "found 'default'")) && !switchRE.MatchString(strings.Join(codeLines(block), "\n")) {
		// "// in switch:" above "case prometheusIstioTargetsAnnotation:"
		// (istio's design doc): clauses lifted out of a switch the
		// block does not show.
		return true
	}
	if endsInDot(block) {
		// A chain cut off after its last selector ("Title(\"Country\")."):
		// an excerpt of a longer expression the text shows around it.
		return true
	}
	file := packageClauseRE.MatchString(block)
	if !file && !topDeclRE.MatchString(block) && strings.Contains(is.Message, "expected '}', found 'EOF'") {
		// A fragment of statements only: a block of declarations whose
		// last func is left open was cut short (kong's README ends its
		// main without its closing brace).
		return true
	}
	if file && strings.Contains(is.Message, "expected declaration, found") {
		lines := strings.Split(block, "\n")
		for i := 0; i < len(lines) && i < is.Line-1; i++ {
			if elisionLineRE.MatchString(lines[i]) {
				return true
			}
		}
	}
	return false
}

// depOf returns the module and version of package ip when it is a
// dependency loaded from the module cache, not a repository package.
func depOf(ws *review.Workspace, ip string) (mod, version string, ok bool) {
	if ip == "" || ws.Symbols.PackageByPath(ip) != nil {
		return "", "", false
	}
	if _, ok := ws.Symbols.DepPackage(ip); !ok {
		return "", "", false
	}
	return ws.Symbols.DepModule(ip)
}

// requireLine returns the line of the root go.mod that requires mod, or 0.
func requireLine(ws *review.Workspace, mod string) int {
	if ws.HeadFS == nil {
		return 0
	}
	src, err := fs.ReadFile(ws.HeadFS, "go.mod")
	if err != nil {
		return 0
	}
	for i, l := range strings.Split(string(src), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "require"))
		if len(f) >= 2 && f[0] == mod {
			return i + 1
		}
	}
	return 0
}

// priorImports returns import declarations for the qualifiers a fragment
// uses without importing or declaring them, as an earlier block of the
// same document imports them: telebot's README imports
// tb "gopkg.in/tucnak/telebot.v2" in its first example, and its later
// fragments write tb.NewBot and tb.OnText with no import of their own. An
// import names a package, not a value of an example, so it carries over
// whatever ties the blocks, also over the package the checker would
// import by that name when the path is the repository's or the standard
// library's: pflag's README imports flag "github.com/spf13/pflag" and then
// writes flag.Lookup(…).NoOptDefVal, pflag's field. It maps each such
// qualifier to its path; a qualifier two earlier blocks import as
// different paths gets none.
func priorImports(text string, prior []priorBlock) map[string]string {
	if len(prior) == 0 || packageClauseRE.MatchString(text) {
		return nil
	}
	_, f, _ := parseFragment(text)
	if f == nil {
		return nil
	}
	own := map[string]bool{}
	for _, m := range importNameRE.FindAllStringSubmatch(text, -1) {
		own[importName(m[1], m[2])] = true
	}
	declared, _, _ := blockScope(text)
	quals := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && !own[id.Name] && !declared[id.Name] {
				quals[id.Name] = true
			}
		}
		return true
	})
	if len(quals) == 0 {
		return nil
	}
	paths := map[string]string{}
	for _, p := range prior {
		for _, m := range importNameRE.FindAllStringSubmatch(p.text, -1) {
			name := importName(m[1], m[2])
			if !quals[name] {
				continue
			}
			if was, ok := paths[name]; ok && was != m[2] {
				paths[name] = "" // two paths: which one is meant is not certain
				continue
			}
			paths[name] = m[2]
		}
	}
	maps.DeleteFunc(paths, func(_, path string) bool { return path == "" })
	return paths
}

// importLines writes the imports of paths (qualifier to path) that keep
// accepts as import declarations, sorted by qualifier.
func importLines(paths map[string]string, keep func(name, path string) bool) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(paths)) {
		if keep(name, paths[name]) {
			out = append(out, "import "+name+" "+strconv.Quote(paths[name]))
		}
	}
	return out
}

// signatureLines reports whether every line of a block, blank lines and
// comments aside, is a func signature without a body (orb's wkt README
// lists "func UnmarshalPoint(string) (orb.Point, err error)" and its
// like).
func signatureLines(text string) bool {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		if !strings.HasPrefix(t, "func ") || strings.ContainsAny(t, "{}") {
			return false
		}
		n++
	}
	return n > 0
}

// namesOnlyIn reports whether, for one of the imports (`import flag
// "example.com/x/flag"`), the block selects from its name a name that
// the package the checker would take for that name lacks, and the
// imported package declares every name the block selects: the block can
// only mean the imported package.
func namesOnlyIn(ctx context.Context, syms *retrieval.Symbols, text string, imports []string) bool {
	_, f, _ := parseFragment(text)
	if f == nil {
		return false
	}
	for _, imp := range imports {
		m := importNameRE.FindStringSubmatch(imp)
		if m == nil {
			continue
		}
		name, ip := importName(m[1], m[2]), m[2]
		var sels []string
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
					sels = append(sels, sel.Sel.Name)
				}
			}
			return true
		})
		imported := scopeOf(ctx, syms, ip)
		var usual *types.Scope
		if ps := syms.PackagesNamed(name); len(ps) > 0 && ps[0].Types != nil {
			usual = ps[0].Types.Scope()
		} else if std := syms.StdPathsByPreference(name); len(std) > 0 {
			usual = scopeOf(ctx, syms, std[0])
		}
		if imported == nil || usual == nil || len(sels) == 0 {
			continue
		}
		all, lacking := true, false
		for _, sel := range sels {
			all = all && imported.Lookup(sel) != nil
			lacking = lacking || usual.Lookup(sel) == nil
		}
		if all && lacking {
			return true
		}
	}
	return false
}

// scopeOf returns the scope of a repository or standard package, or nil.
func scopeOf(ctx context.Context, syms *retrieval.Symbols, ip string) *types.Scope {
	if p := syms.PackageByPath(ip); p != nil && p.Types != nil {
		return p.Types.Scope()
	}
	if p, err := syms.StdPackage(ctx, ip); err == nil && p.Types != nil {
		return p.Types.Scope()
	}
	return nil
}
