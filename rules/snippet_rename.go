package rules

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/rules/gocheck"
)

// renamedLocal finds, among a block's issues, the one undeclared name U
// that stands for the one function D the block declares and never uses:
// with U written as D, the block has no problem it did not have, and U's
// are gone. Undeclared names are otherwise inputs left to the reader; a
// declared function no code calls beside an undeclared one that fits its
// place is a rename half done.
func renamedLocal(ctx context.Context, syms *retrieval.Symbols, dir, text string, prelude []string, issues []gocheck.Issue) (gocheck.Issue, bool) {
	var undeclared *gocheck.Issue
	for i, is := range issues {
		if is.Kind != gocheck.Undeclared {
			continue
		}
		if undeclared != nil && undeclared.Name != is.Name {
			return gocheck.Issue{}, false // several inputs left to the reader
		}
		if undeclared == nil {
			undeclared = &issues[i]
		}
	}
	if undeclared == nil || undeclared.Name == "" || strings.Contains(undeclared.Name, ".") {
		return gocheck.Issue{}, false
	}
	u := undeclared.Name
	f := parseAnyForm(text)
	if f == nil {
		return gocheck.Issue{}, false
	}
	uses := identCounts(text)
	funcs := declaredFuncs(f)
	var unused []string
	for name := range funcs {
		if name != u && uses[name] == 1 && !testFuncName(name) {
			unused = append(unused, name)
		}
	}
	if len(unused) != 1 {
		return gocheck.Issue{}, false
	}
	d := unused[0]
	// U must be called as D would be: as many arguments as D has
	// parameters, and as many results used as D returns. A value passed
	// to fmt.Println fits any declaration.
	if !callsFit(f, u, funcs[d]) {
		return gocheck.Issue{}, false
	}
	// A call inside D's own body is D calling the reader's function
	// ("func process(stream chan int) { … handle(elem) … }"), unless it
	// is D's own name misspelt or kept from before a rename (a recursion:
	// "oldWalk(i)" in walk).
	if callsInside(f, u, d) && retrieval.EditDistance(u, d, 2) > 2 && !strings.Contains(strings.ToLower(u), strings.ToLower(d)) {
		return gocheck.Issue{}, false
	}
	after := checkBlock(ctx, syms, dir, replaceIdent(text, u, d), prelude)
	if len(after) > len(issues)-countNamed(issues, u) || slices.ContainsFunc(after, func(is gocheck.Issue) bool {
		return is.Name == d || strings.Contains(is.Message, d)
	}) {
		return gocheck.Issue{}, false
	}
	return gocheck.Issue{
		Kind: gocheck.Renamed, Line: undeclared.Line, Name: u, Closest: d,
		Message: fmt.Sprintf("%s is declared nowhere; the block declares %s, which it never uses and which fits where %s is used", u, d, u),
	}, true
}

// parseAnyForm parses a block as a file, as declarations or as statements
// (without parseFragment's reading of "..." as a placeholder, which a
// variadic call's "xs..." is not), or returns nil.
func parseAnyForm(text string) *ast.File {
	for _, src := range []string{text, "package p\n" + text, "package p\nfunc _() {\n" + text + "\n}"} {
		if f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution); err == nil {
			return f
		}
	}
	return nil
}

// declaredFuncs returns the functions a fragment declares, with their
// types: func declarations without a receiver, and variables given a func
// literal.
func declaredFuncs(f *ast.File) map[string]*ast.FuncType {
	out := map[string]*ast.FuncType{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Recv == nil && x.Name.Name != "_" && x.Name.Name != "main" && x.Name.Name != "init" {
				out[x.Name.Name] = x.Type
			}
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) == len(x.Rhs) {
				for i, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if fl, ok := x.Rhs[i].(*ast.FuncLit); ok {
							out[id.Name] = fl.Type
						}
					}
				}
			}
		case *ast.ValueSpec:
			if len(x.Names) == len(x.Values) {
				for i, id := range x.Names {
					if fl, ok := x.Values[i].(*ast.FuncLit); ok {
						out[id.Name] = fl.Type
					}
				}
			}
		}
		return true
	})
	return out
}

// callsInside reports whether f calls u inside the body of the function
// it declares as d.
func callsInside(f *ast.File, u, d string) bool {
	var bodies []*ast.BlockStmt
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			if x.Recv == nil && x.Name.Name == d && x.Body != nil {
				bodies = append(bodies, x.Body)
			}
		case *ast.AssignStmt:
			for i, l := range x.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == d && i < len(x.Rhs) {
					if fl, ok := x.Rhs[i].(*ast.FuncLit); ok {
						bodies = append(bodies, fl.Body)
					}
				}
			}
		}
		return true
	})
	found := false
	for _, body := range bodies {
		ast.Inspect(body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == u {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// testFuncName reports the names of functions go test calls, which no
// code of a block calls: TestX, BenchmarkX, FuzzX, ExampleX.
func testFuncName(name string) bool {
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// callsFit reports whether u is called at least once and every call of
// u fits a function of type ft: one argument per parameter (ft not
// variadic) and, where the results are assigned, one variable per
// result; a call used as a value needs exactly one result.
func callsFit(f *ast.File, u string, ft *ast.FuncType) bool {
	calls, fit := callsOf(f, u, ft)
	return calls > 0 && fit
}

// callsOf counts the calls of u in f and reports whether each fits a
// function of type ft (see [callsFit]).
func callsOf(f *ast.File, u string, ft *ast.FuncType) (int, bool) {
	if ft == nil {
		return 0, false
	}
	params, results := ft.Params.NumFields(), ft.Results.NumFields()
	if ft.Params != nil && len(ft.Params.List) > 0 {
		if _, ok := ft.Params.List[len(ft.Params.List)-1].Type.(*ast.Ellipsis); ok {
			return 0, false
		}
	}
	calls, fit := 0, true
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == u {
				calls++
				if len(call.Args) != params {
					fit = false
				}
				switch parent := stack[len(stack)-1].(type) {
				case *ast.ExprStmt:
				case *ast.AssignStmt:
					if len(parent.Rhs) == 1 && len(parent.Lhs) != results {
						fit = false
					}
				default:
					if results != 1 {
						fit = false
					}
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	return calls, fit
}

// identCounts counts the identifier tokens of code.
func identCounts(code string) map[string]int {
	counts := map[string]int{}
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(code)), []byte(code), nil, 0)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return counts
		}
		if tok == token.IDENT {
			counts[lit]++
		}
	}
}

// replaceIdent writes code with every identifier token from written as
// to, leaving strings and comments alone.
func replaceIdent(code, from, to string) string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(code))
	s.Init(file, []byte(code), nil, scanner.ScanComments)
	var b strings.Builder
	last := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT && lit == from {
			off := file.Offset(pos)
			b.WriteString(code[last:off])
			b.WriteString(to)
			last = off + len(from)
		}
	}
	b.WriteString(code[last:])
	return b.String()
}

// countNamed counts the issues about name.
func countNamed(issues []gocheck.Issue, name string) int {
	n := 0
	for _, is := range issues {
		if is.Name == name {
			n++
		}
	}
	return n
}

// docBlock is a doc comment's code block with what checking it found.
type docBlock struct {
	block    review.Mention
	codeLine int
	prelude  []string
	issues   []gocheck.Issue
}

// renamedAcross is [renamedLocal] across the code blocks of one doc
// comment, which a doc writes as one example in steps: fx's StartHook
// declares "func myhook() {…}" in one block, then calls StartHook(myfunc)
// and myfunc() in the next ones. U is the one undeclared name of the
// blocks used as a function (called or passed, never the left side of a
// selector, as a value of the reader's is: lifecycle.Append); D is the
// one function the blocks declare and never use. Every call of U fits D,
// and with U written as D the blocks that use U check with no new
// problem when they see D's block.
func renamedAcross(ctx context.Context, syms *retrieval.Symbols, dir string, blocks []docBlock) (snippetIssue, bool) {
	if len(blocks) < 2 {
		return snippetIssue{}, false
	}
	var all strings.Builder
	funcs := map[string]*ast.FuncType{}
	declaredIn := map[string]int{}
	files := make([]*ast.File, len(blocks))
	for i, b := range blocks {
		all.WriteString(b.block.Text + "\n")
		files[i] = parseAnyForm(b.block.Text)
		if files[i] == nil {
			return snippetIssue{}, false
		}
		for name, ft := range declaredFuncs(files[i]) {
			funcs[name] = ft
			declaredIn[name] = i
		}
	}
	var u string
	for i, b := range blocks {
		for _, is := range b.issues {
			if is.Kind != gocheck.Undeclared || is.Name == "" || strings.Contains(is.Name, ".") || selectorBase(files[i], is.Name) {
				continue
			}
			if u != "" && u != is.Name {
				return snippetIssue{}, false // several inputs left to the reader
			}
			u = is.Name
		}
	}
	if u == "" || funcs[u] != nil {
		return snippetIssue{}, false
	}
	uses := identCounts(all.String())
	var unused []string
	for name := range funcs {
		if uses[name] == 1 && !testFuncName(name) {
			unused = append(unused, name)
		}
	}
	if len(unused) != 1 {
		return snippetIssue{}, false
	}
	d := unused[0]
	calls := 0
	var first *docBlock
	var firstIssue gocheck.Issue
	for i := range blocks {
		if identCounts(blocks[i].block.Text)[u] == 0 {
			continue
		}
		n, fit := callsOf(files[i], u, funcs[d])
		if !fit {
			return snippetIssue{}, false
		}
		calls += n
		before := blocks[i].issues
		after := checkBlock(ctx, syms, dir, replaceIdent(blocks[i].block.Text, u, d), append(slices.Clone(blocks[i].prelude), blocks[declaredIn[d]].block.Text))
		if len(after) > len(before)-countNamed(before, u) || slices.ContainsFunc(after, func(is gocheck.Issue) bool {
			return is.Name == d || strings.Contains(is.Message, d)
		}) {
			return snippetIssue{}, false
		}
		if first == nil {
			first = &blocks[i]
			for _, is := range before {
				if is.Name == u {
					firstIssue = is
					break
				}
			}
		}
	}
	if calls == 0 || first == nil {
		return snippetIssue{}, false
	}
	line := first.codeLine + max(firstIssue.Line, 1) - 1
	line = min(max(line, first.block.Line), max(first.block.EndLine, first.block.Line))
	return snippetIssue{
		Issue: gocheck.Issue{
			Kind: gocheck.Renamed, Line: firstIssue.Line, Name: u,
			Message: fmt.Sprintf("%s is declared nowhere; another block of the doc declares %s, which no block uses and which fits where %s is used", u, d, u),
		},
		block: first.block, line: line, codeLine: first.codeLine,
	}, true
}

// selectorBase reports whether name is the left side of a selector in f
// (lifecycle in lifecycle.Append).
func selectorBase(f *ast.File, name string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// renamedCase finds, among a block's issues, an undeclared name U that
// the block declares as D, spelt with other cases and never used: fx's
// Annotated example declares "type result struct" and then returns
// "Result{Connection: conn}". With U written as D the block has no
// problem it did not have, and U's are gone. Other undeclared names may
// stay: they are the reader's.
//
// The name may also be declared by an earlier block of the same section
// (earlier, nearest first): gqlgen's field-collection page declares
// "func GetPreloads" and, in the next block, "So if we call these
// helpers", calls getPreloads(ctx). That block is then read before this
// one.
func renamedCase(ctx context.Context, syms *retrieval.Symbols, dir, text string, prelude, earlier []string, issues []gocheck.Issue) (gocheck.Issue, bool) {
	f := parseAnyForm(text)
	for closers := "\n}"; f == nil && len(closers) <= 3*len("\n}"); closers += "\n}" {
		// A body left open for the text after it ("func (r
		// *queryResolver) FlowBlocks(…) {" and its first line).
		f = parseAnyForm(text + closers)
	}
	if f == nil {
		// "func(...) (Result, error)": a placeholder in the parameters.
		if _, f, _ = parseFragment(text); f == nil {
			return gocheck.Issue{}, false
		}
	}
	uses := identCounts(text)
	declared := map[string]bool{}
	declaredNames(f, declared)
	seen := map[string]bool{}
	for _, is := range issues {
		u := is.Name
		if is.Kind != gocheck.Undeclared || u == "" || strings.Contains(u, ".") || seen[u] {
			continue
		}
		seen[u] = true
		var d string
		for name := range declared {
			if name != u && strings.EqualFold(name, u) && uses[name] == 1 {
				if d != "" {
					return gocheck.Issue{}, false
				}
				d = name
			}
		}
		with := prelude
		if d == "" && !declared[u] {
			d, with = earlierCase(earlier, u, uses)
			if d != "" {
				with = append(slices.Clip(prelude), with...)
			}
		}
		if d == "" {
			continue
		}
		after := checkBlock(ctx, syms, dir, replaceIdent(text, u, d), with)
		if len(after) > len(issues)-countNamed(issues, u) || slices.ContainsFunc(after, func(a gocheck.Issue) bool {
			return a.Name == u || a.Name == d || strings.Contains(a.Message, d)
		}) {
			continue
		}
		msg := fmt.Sprintf("%s is declared nowhere; the block declares %s, which differs from it only in case and which it never uses", u, d)
		if !declared[d] {
			msg = fmt.Sprintf("%s is declared nowhere; an earlier block of the section declares %s, which differs from it only in case", u, d)
		}
		return gocheck.Issue{Kind: gocheck.Renamed, Line: is.Line, Name: u, Closest: d, Message: msg}, true
	}
	return gocheck.Issue{}, false
}

// earlierCase returns the one name an earlier block declares that differs
// from u only in case, with that block's text, nearest block first; ""
// when none does, the nearest that does declares two, or this block uses
// the name as written.
func earlierCase(earlier []string, u string, uses map[string]int) (string, []string) {
	for _, text := range earlier {
		f := parseAnyForm(text)
		if f == nil {
			continue
		}
		declared := map[string]bool{}
		declaredNames(f, declared)
		var d string
		for name := range declared {
			if name != u && strings.EqualFold(name, u) {
				if d != "" {
					return "", nil
				}
				d = name
			}
		}
		if d != "" {
			if uses[d] > 0 {
				return "", nil
			}
			return d, []string{text}
		}
	}
	return "", nil
}
