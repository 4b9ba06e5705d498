package rules

import (
	"fmt"
	"go/ast"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// Numeric types a doc names: "It returns a bitmask represented as a
// uint8." on a func that returns uint32, "Float64ObservableCounterConfig
// contains options for … instruments that record int64 values." Two
// bindings, both in the doc comment of the declaration itself:
//
//   - a func's or method's one result (beside an error) of a basic numeric
//     type, and a sentence that says what it returns ("returns", "returned",
//     "represented as") and names another numeric type right after "a",
//     "an" or "as";
//   - a declaration whose name holds one numeric type (Float64…, …Int64)
//     and whose doc names another one, in "<type> values" or after
//     "record", "records", "holds", "observes", and never its own.
//
// The doc must name one numeric type only, the declaration (signature,
// fields, body) must not use the type the doc names, and the doc must not
// name the declaration's own type: a doc about a conversion names both.

// typeWordRE finds a Go numeric type name in prose, spelt as Go spells
// it: "returns an Int" is prose for an integer.
var typeWordRE = regexp.MustCompile(`\b(u?int(?:8|16|32|64)?|float(?:32|64)|complex(?:64|128)|byte|rune|uintptr)\b`)

// nameTypeRE finds a numeric type in a Go name's words ("Float64", "Int64").
var nameTypeRE = regexp.MustCompile(`(?:^|[a-z0-9])(U?[Ii]nt(?:8|16|32|64)|Float(?:32|64)|Complex(?:64|128))(?:[A-Z]|$)`)

// nameLeadTypeRE finds a numeric type that opens an unexported name
// ("uint8Strs", "float64Pool"): nameTypeRE would read "uint8Strs" as int8.
var nameLeadTypeRE = regexp.MustCompile(`^(u?int(?:8|16|32|64)|float(?:32|64)|complex(?:64|128))(?:[A-Z]|$)`)

// nameTypes returns the numeric types a Go name's words hold.
func nameTypes(name string) []string {
	if m := nameLeadTypeRE.FindStringSubmatch(name); m != nil {
		return []string{m[1]}
	}
	var out []string
	for _, m := range nameTypeRE.FindAllStringSubmatch(name, -1) {
		out = append(out, m[1])
	}
	return out
}

// returnsTypeRE is a sentence saying what a func returns, up to the
// type, in one clause: a comma or a condition before the type starts
// another ("returns the length in bytes…, never splitting a rune",
// "returns the value of x if it is representable as an int32").
var returnsTypeRE = regexp.MustCompile(`(?i)\b(?:returns?|returned|returning|represented)\b(?:[^.;:,]*?\b)?(?:an?|as(?:\s+an?)?)\s+$`)

// returnsClauseBreakRE finds a condition in the words between "returns"
// and the type.
var returnsClauseBreakRE = regexp.MustCompile(`(?i)\b(?:if|when|unless|whether|while|without|never|except)\b`)

// recordsTypeRE is a phrase naming the type of the values a declaration
// records or holds, before the type ("record", "holds"), or after it.
var (
	recordsTypeBeforeRE = regexp.MustCompile(`(?i)\b(?:records?|holds?|observes?|stores?)\s+$`)
	recordsTypeAfterRE  = regexp.MustCompile(`^\s+values?\b`)
)

// typeContainerRE starts right after a numeric type that names the
// elements of a container: "byte slice", "int64 array", "rune buffer".
var typeContainerRE = regexp.MustCompile(`(?i)^[\s-]+(?:slices?|arrays?|buffers?|strings?|streams?|maps?|channels?|chans?|pointers?|sequences?|readers?|writers?|order)\b`)

// insteadRE ends a sentence's text that sets what follows aside: "instead
// of returning a".
var insteadRE = regexp.MustCompile(`(?i)\b(?:instead\s+of|rather\s+than|not)\b[^.;]*$`)

// canonicalType maps the aliases byte and rune to the types they name.
func canonicalType(t string) string {
	t = strings.ToLower(t)
	switch t {
	case "byte":
		return "uint8"
	case "rune":
		return "int32"
	}
	return t
}

// judgeTypeWord reports a numeric type a declaration's doc names for
// its result or values that is not the one the declaration has.
func (r *LiteralMismatch) judgeTypeWord(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindDocComment || c.Symbol == "" || strings.HasPrefix(c.Symbol, "package ") || hasCodeBlock(c) {
		return nil
	}
	ms := typeWordRE.FindAllStringSubmatchIndex(c.Text, -1)
	// "a byte slice", "an int64 array": the type of the elements, not of
	// the value; "instead of returning a byte" is what it does not return.
	ms = slices.DeleteFunc(ms, func(m []int) bool {
		return typeContainerRE.MatchString(c.Text[m[1]:]) || insteadRE.MatchString(sentenceBefore(c.Text, m[0]))
	})
	if len(ms) == 0 {
		return nil
	}
	stated := canonicalType(c.Text[ms[0][2]:ms[0][3]])
	for _, m := range ms[1:] {
		if canonicalType(c.Text[m[2]:m[3]]) != stated {
			return nil // a doc naming two types: a conversion, a choice
		}
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || sym.Object == nil || sym.Package == nil || sym.Package.Fset == nil || sym.Path != c.Path {
		return nil
	}
	node := declNode(sym)
	if node == nil || declUsesType(sym.Package, node, stated) {
		return nil
	}
	start, end := ms[0][2], ms[0][3]
	var actual, why string
	switch sym.Kind {
	case retrieval.SymbolFunc, retrieval.SymbolMethod:
		res, ok := soleNumericResult(sym.Object)
		if before := sentenceBefore(c.Text, start); !ok || !returnsTypeRE.MatchString(before) || returnsClauseBreakRE.MatchString(before[returnsTypeRE.FindStringIndex(before)[0]:]) {
			break
		}
		actual, why = res, fmt.Sprintf("%s returns %s", lastPart(sym.Name), res)
	}
	if actual == "" {
		own := nameTypes(lastPart(sym.Name))
		if len(own) != 1 {
			return nil
		}
		before := sentenceBefore(c.Text, start)
		if !recordsTypeBeforeRE.MatchString(before) && !recordsTypeAfterRE.MatchString(c.Text[end:]) {
			return nil
		}
		actual = strings.ToLower(own[0])
		why = fmt.Sprintf("%s is named for %s values", lastPart(sym.Name), actual)
	}
	if actual == stated {
		return nil
	}
	pos := sym.Package.Fset.Position(node.Pos())
	endLine := pos.Line
	if fd, ok := node.(*ast.FuncDecl); ok {
		endLine = sym.Package.Fset.Position(fd.Type.End()).Line
	}
	suggestion := ""
	if len(ms) == 1 {
		suggestion = withArticle(c.Text[:start], actual) + actual + c.Text[end:]
	}
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Confidence: 0.75,
		Message:    fmt.Sprintf("The doc names %s, but %s.", c.Text[start:end], why),
		Suggestion: suggestion,
		Evidence: []review.Evidence{{
			Path: pos.Filename, StartLine: pos.Line, EndLine: endLine, Source: review.SourceCode,
			Why: why, Hops: []string{c.Symbol + " (doc)", c.Symbol},
		}},
	}
}

// sentenceBefore returns the text of the sentence of text before offset
// at.
func sentenceBefore(text string, at int) string {
	from := 0
	for _, end := range []string{". ", ".\n", "; ", "? ", "! ", "\n\n", ":\n"} {
		if i := strings.LastIndex(text[:at], end); i >= 0 && i+len(end) > from {
			from = i + len(end)
		}
	}
	return strings.ReplaceAll(text[from:at], "\n", " ")
}

// soleNumericResult returns the basic numeric type a func returns, when
// it returns one value (or one value and an error).
func soleNumericResult(obj types.Object) (string, bool) {
	sig, ok := obj.Type().(*types.Signature)
	if !ok {
		return "", false
	}
	var found []types.Type
	for v := range sig.Results().Variables() {
		if types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
			continue
		}
		found = append(found, v.Type())
	}
	if len(found) != 1 {
		return "", false
	}
	b, ok := types.Unalias(found[0]).(*types.Basic)
	if !ok || b.Info()&types.IsNumeric == 0 || b.Info()&types.IsUntyped != 0 {
		return "", false
	}
	return canonicalType(b.Name()), true
}

// declUsesType reports whether the declaration uses the basic type named
// name anywhere: in its signature, fields or body, as a type or in a
// conversion.
func declUsesType(p *retrieval.Package, node ast.Node, name string) bool {
	used := false
	ast.Inspect(node, func(n ast.Node) bool {
		if used {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if canonicalType(id.Name) == name {
			if _, ok := p.Info.Uses[id].(*types.TypeName); ok {
				used = true
			}
		}
		if tv, ok := p.Info.Types[id]; ok && tv.Type != nil {
			if b, ok := types.Unalias(tv.Type).(*types.Basic); ok && canonicalType(b.Name()) == name {
				used = true
			}
		}
		return true
	})
	return used
}

// withArticle returns before with a trailing "a " or "an " made the one
// that reads right in front of word ("an int64", "a uint32").
func withArticle(before, word string) string {
	art := "a " // "a uint32": of the numeric types only int… reads with "an"
	if strings.HasPrefix(word, "int") {
		art = "an "
	}
	for _, old := range []string{"an ", "a ", "An ", "A "} {
		if strings.HasSuffix(before, old) {
			head := before[:len(before)-len(old)]
			if len(head) > 0 && !strings.HasSuffix(head, " ") && !strings.HasSuffix(head, "\n") {
				return before // "...ma " ends a word, not an article
			}
			if old[0] == 'A' {
				art = strings.ToUpper(art[:1]) + art[1:]
			}
			return head + art
		}
	}
	return before
}
