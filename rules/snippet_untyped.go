package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// untypedCall is a method call on a receiver the code block never declares
// ("flags.MarkDepercated(...)" with flags left to the reader), whose
// method no type has.
type untypedCall struct {
	recv, method string
	repl         string // the method it should call
	sym          retrieval.Symbol
	rename       *review.Rename // set when this diff renamed the method
	line         int            // the call's line in the claim's file
}

// untypedCalls finds the calls of the claim's Go blocks whose receiver is
// undeclared and whose method is certainly wrong: no field or method of
// the module's types, or of the types of the packages they import, has
// that name, and either this diff renamed a method of that name or exactly
// one member name of the module is a misspelling of it. Without a
// declared receiver the checker cannot type the call, so this is the only
// check such calls get. A receiver counts as undeclared when neither the
// block nor the blocks before it (prelude) declare it and it is not the
// name of a package the block or the module imports, or of a standard
// library package.
func untypedCalls(sc scope, blocks []review.Mention, prelude []string, lines []string, changes review.Changes) []untypedCall {
	declared := map[string]bool{}
	for _, p := range sc.scopePackages() {
		if p.Types == nil {
			continue
		}
		declared[p.Types.Name()] = true
		for _, imp := range p.Types.Imports() {
			declared[imp.Name()] = true
		}
	}
	var files []*ast.File
	for _, text := range prelude {
		if _, f, _ := parseFragment(text); f != nil {
			files = append(files, f)
		}
	}
	type parsed struct {
		fset   *token.FileSet
		file   *ast.File
		offset int
	}
	parsedBlocks := make([]parsed, len(blocks))
	for i, b := range blocks {
		fset, f, offset := parseFragment(b.Text)
		parsedBlocks[i] = parsed{fset, f, offset}
		if f != nil {
			files = append(files, f)
		}
	}
	for _, f := range files {
		declaredNames(f, declared)
	}
	var out []untypedCall
	for bi, b := range blocks {
		fset, f, offset := parsedBlocks[bi].fset, parsedBlocks[bi].file, parsedBlocks[bi].offset
		if f == nil {
			continue
		}
		codeLine := codeStart(lines, b)
		seen := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			recv, ok := sel.X.(*ast.Ident)
			// A receiver named like a standard package ("log.Errorf") is
			// that package or a logger of the reader's, not a misspelling.
			if !ok || declared[recv.Name] || isBuiltin(recv.Name) || seen[sel.Sel.Name] || sc.syms.StdNamed(recv.Name) {
				return true
			}
			method := sel.Sel.Name
			seen[method] = true
			if sc.hasMember(method) || sc.syms.Defined(method) || importedMember(sc, method) {
				return true
			}
			u := untypedCall{recv: recv.Name, method: method}
			u.line = codeLine + fset.Position(sel.Sel.Pos()).Line - offset - 1
			u.line = min(max(u.line, b.Line), max(b.EndLine, b.Line))
			for i, rn := range changes.Renamed {
				if strings.Contains(rn.Old.Name, ".") && lastPart(rn.Old.Name) == method {
					if sym, ok := sc.syms.Lookup(rn.New.Dir, rn.New.Name); ok {
						u.repl, u.sym, u.rename = lastPart(rn.New.Name), sym, &changes.Renamed[i]
					}
					break
				}
			}
			if u.repl == "" {
				repl, sym, ok := sc.closeMember(method)
				// A member of an unexported type is none a reader calls:
				// "serviceA.Ready" is no misspelt testConn.Read.
				if !ok || !token0Exported(strings.Split(sym.Name, ".")[0]) {
					return true
				}
				u.repl, u.sym = repl, sym
			}
			out = append(out, u)
			return true
		})
	}
	return out
}

// declaredNames adds to names every name f declares or imports: package
// names of imports, the names that qualify a type (a package's), and the
// names of declarations, := assignments, range variables, parameters and
// results, struct fields aside.
func declaredNames(f *ast.File, names map[string]bool) {
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, "`\"")
		name := path[strings.LastIndexByte(path, '/')+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	add := func(ids ...*ast.Ident) {
		for _, id := range ids {
			if id != nil {
				names[id.Name] = true
			}
		}
	}
	// A name that qualifies a type is a package's: "&logrus.JSONFormatter{}"
	// makes logrus the package of a dependency the module need not have,
	// and its logrus.SetFormatter no misspelt call on a variable.
	var qualifier func(t ast.Expr)
	qualifier = func(t ast.Expr) {
		switch t := t.(type) {
		case *ast.SelectorExpr:
			if id, ok := t.X.(*ast.Ident); ok {
				add(id)
			}
		case *ast.StarExpr:
			qualifier(t.X)
		case *ast.ArrayType:
			qualifier(t.Elt)
		case *ast.MapType:
			qualifier(t.Key)
			qualifier(t.Value)
		case *ast.Ellipsis:
			qualifier(t.Elt)
		case *ast.ChanType:
			qualifier(t.Value)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CompositeLit:
			qualifier(x.Type)
		case *ast.TypeAssertExpr:
			qualifier(x.Type)
		case *ast.Field:
			qualifier(x.Type)
		case *ast.FuncDecl:
			add(x.Name)
		case *ast.FuncType:
			for _, fl := range []*ast.FieldList{x.TypeParams, x.Params, x.Results} {
				if fl != nil {
					for _, fd := range fl.List {
						add(fd.Names...)
					}
				}
			}
		case *ast.ValueSpec:
			qualifier(x.Type)
			add(x.Names...)
		case *ast.TypeSpec:
			add(x.Name)
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				for _, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						add(id)
					}
				}
			}
		case *ast.RangeStmt:
			if x.Tok == token.DEFINE {
				for _, e := range []ast.Expr{x.Key, x.Value} {
					if id, ok := e.(*ast.Ident); ok {
						add(id)
					}
				}
			}
		}
		return true
	})
}

// parseFragment parses a code block as a file, as declarations, or as
// statements wrapped in a function; f is nil when none parses. offset is
// the number of lines put in front of the block's text.
func parseFragment(text string) (fset *token.FileSet, f *ast.File, offset int) {
	src := strings.ReplaceAll(text, "...", "_elided")
	tries := []struct {
		pre, post string
		lines     int
	}{{"", "", 0}, {"package p\n", "", 1}, {"package p\nfunc _() {\n", "\n}", 2}}
	if strings.HasPrefix(strings.TrimSpace(src), "package ") {
		tries = tries[:1]
	} else {
		tries = tries[1:]
	}
	for _, t := range tries {
		fset = token.NewFileSet()
		if f, err := parser.ParseFile(fset, "", t.pre+src+t.post, parser.SkipObjectResolution); err == nil {
			return fset, f, t.lines
		}
	}
	return nil, nil, 0
}

// importedMember reports whether a type of a package that the scope's
// packages import has the field or method name.
func importedMember(sc scope, name string) bool {
	for _, p := range sc.scopePackages() {
		if p.Types == nil {
			continue
		}
		for _, imp := range p.Types.Imports() {
			if scopeHasMember(sc.syms, imp, name) {
				return true
			}
		}
	}
	return false
}

// untypedVerdict reports the first untyped call and counts the others.
func (r *GoSnippet) untypedVerdict(ws *review.Workspace, c review.Claim, calls []untypedCall) *review.Verdict {
	u := calls[0]
	v := &review.Verdict{Label: review.Contradicted, Rule: r.Name(), Confidence: 0.8}
	owner := strings.TrimSuffix(u.sym.Name, "."+u.repl)
	msg := fmt.Sprintf("The Go code block calls %s.%s, but no type has a method %s; %s has %s", u.recv, u.method, u.method, owner, u.repl)
	if u.rename != nil {
		msg = fmt.Sprintf("The Go code block calls %s.%s, but %s was renamed to %s in this diff", u.recv, u.method, u.rename.Old.Name, u.rename.New.Name)
		v.Confidence = 0.9
	}
	if n := len(calls) - 1; n == 1 {
		msg += "; one more call of the same kind follows"
	} else if n > 1 {
		msg += fmt.Sprintf("; %d more calls of the same kind follow", n)
	}
	v.Message = msg + "."
	hop := c.Symbol
	if hop == "" {
		hop = fmt.Sprintf("%s:%d", c.Path, u.line)
	}
	hop += " (code block)"
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: c.Path, StartLine: u.line, EndLine: u.line, Source: review.SourceDoc,
		Why: fmt.Sprintf("code block calls %s.%s, which no type has", u.recv, u.method), Hops: []string{hop},
	})
	ref := ws.Symbols.Definition(u.sym)
	start, end := lineRange(ref.Line, ref.EndLine)
	why := "defines " + u.sym.Name
	if u.rename != nil {
		why += fmt.Sprintf(" (renamed from %s in this diff)", lastPart(u.rename.Old.Name))
	}
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode, Why: why, Hops: []string{hop, u.sym.Name},
	})
	suggestion := c.Text
	for _, call := range calls {
		suggestion = strings.ReplaceAll(suggestion, call.recv+"."+call.method+"(", call.recv+"."+call.repl+"(")
	}
	if suggestion != c.Text {
		v.Suggestion = suggestion
	}
	return v
}
