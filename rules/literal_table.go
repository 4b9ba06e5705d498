package rules

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"io/fs"
	"regexp"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// Defaults in a Markdown table: a table whose header has a "Default"
// column (also "Default value") and whose first column names a struct
// field lists the field's default in that column:
//
//	| Property  | Type  | Description          | Default           |
//	| --------- | ----- | -------------------- | ----------------- |
//	| BodyLimit | `int` | Largest request body | `4 * 1024 * 1024` |
//
// The field is found among the structs of the packages the file's
// directory is in (the one the section heading names when several have
// it; none when it stays ambiguous), its default as for a field doc
// (fieldDefault), and the cell is read as a Go constant expression (`4 *
// 1024 * 1024`, `false`, `5 * time.Minute`) or a literal with a unit (30s,
// 1 MiB); strings are not compared.

// defaultHeaderRE is a table header cell naming the default column.
var defaultHeaderRE = regexp.MustCompile(`(?i)^\s*\**\s*default(?:\s+value)?\s*\**\s*$`)

// timeUnits are the time constants a cell may use, in nanoseconds.
var timeUnits = strings.NewReplacer(
	"time.Nanosecond", "(1)", "time.Microsecond", "(1000)", "time.Millisecond", "(1000000)",
	"time.Second", "(1000000000)", "time.Minute", "(60000000000)", "time.Hour", "(3600000000000)")

// splitRow returns the cells of a Markdown table row, trimmed; a "|"
// inside backticks or escaped does not split.
func splitRow(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var cells []string
	var cur strings.Builder
	inCode := false
	for i := 0; i < len(row); i++ {
		ch := row[i]
		switch {
		case ch == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteByte('|')
			i++
		case ch == '`':
			inCode = !inCode
			cur.WriteByte(ch)
		case ch == '|' && !inCode:
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(ch)
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// tableHeader returns the header cells of the table row at line of the
// claim's file, read from the head tree.
func tableHeader(ws *review.Workspace, c review.Claim) ([]string, bool) {
	if ws.HeadFS == nil {
		return nil, false
	}
	data, err := fs.ReadFile(ws.HeadFS, c.Path)
	if err != nil {
		return nil, false
	}
	lines := strings.Split(string(data), "\n")
	i := c.Line - 1
	if i < 0 || i >= len(lines) {
		return nil, false
	}
	for i > 0 && strings.HasPrefix(strings.TrimSpace(lines[i-1]), "|") {
		i--
	}
	if i+1 >= len(lines) || !isDelimiterRow(lines[i+1]) {
		return nil, false
	}
	return splitRow(lines[i]), true
}

func isDelimiterRow(l string) bool {
	cells := splitRow(l)
	for _, c := range cells {
		if strings.Trim(c, ":- ") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return len(cells) > 0
}

// judgeTable checks the Default cell of a Markdown table row.
func (r *LiteralMismatch) judgeTable(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindMarkdown || !strings.HasPrefix(c.Text, "|") {
		return nil
	}
	header, ok := tableHeader(ws, c)
	if !ok {
		return nil
	}
	col := -1
	for i, h := range header {
		if defaultHeaderRE.MatchString(h) {
			if col >= 0 {
				return nil // two default columns
			}
			col = i
		}
	}
	cells := splitRow(c.Text)
	if col <= 0 || len(cells) != len(header) {
		return nil
	}
	name := strings.Trim(cells[0], "`* ")
	if !isIdent(name) {
		return nil
	}
	cell := cells[col]
	field, ok := r.tableField(ws, c, name)
	if !ok {
		// A key of a dependency's struct the module's configuration
		// holds, as in a list (depKeyDefault).
		site, fname, ok := r.depKeyDefault(ws, c, name)
		if !ok || site.val == nil {
			return nil
		}
		hops := []string{fmt.Sprintf("%s:%d", c.Path, c.Line), fname}
		return r.compareDefaultText(c, "The table gives", cell, keyDefaultRepl(cell, site), "`"+name+"` ("+fname+")", hops, site)
	}
	site, ok := r.fieldDefault(ws, field)
	if !ok || site.val == nil {
		// The code sets no default the rules can read: the field's own
		// doc is what the table restates.
		own, ok := ownDocDefault(cell, field)
		if !ok {
			return nil
		}
		v := r.ownDocVerdict(c, "The table gives", cell, own, field)
		if strings.Count(c.Text, cell) == 1 {
			repl := strings.Trim(own, "`")
			if strings.HasPrefix(cell, "`") {
				repl = "`" + repl + "`"
			}
			v.Suggestion = strings.Replace(c.Text, cell, repl, 1)
		}
		return v
	}
	hops := []string{fmt.Sprintf("%s:%d", c.Path, c.Line), field.Name}
	return r.compareDefaultText(c, "The table gives", cell, "`"+site.expr+"`", field.Name, hops, site)
}

// compareDefaultText compares doc, a default as the claim writes it (a
// table cell, a field doc's "Default: …"), with the field's default
// site, and reports a contradiction led by lead ("The table gives"),
// whose suggestion writes repl in place of doc; nil when they agree or
// cannot be compared.
func (r *LiteralMismatch) compareDefaultText(c review.Claim, lead, doc, repl, subject string, hops []string, site valueSite) *review.Verdict {
	docs, ok := cellValue(doc, site)
	if !ok {
		return nil
	}
	for _, d := range docs {
		if sameConstant(d, site.val) {
			return nil
		}
	}
	code := site.expr
	if shown := constShown(site); shown != "" && shown != code {
		code += " (" + shown + ")"
	}
	suggestion := ""
	if strings.Count(c.Text, doc) == 1 {
		suggestion = strings.Replace(c.Text, doc, repl, 1)
	}
	if site.fn != "" {
		hops = append(hops, site.fn)
	}
	return &review.Verdict{
		Label:      review.Contradicted,
		Rule:       r.Name(),
		Message:    fmt.Sprintf("%s %s as the default of %s, but the code sets %s = %s.", lead, doc, subject, site.name, code),
		Confidence: 0.85,
		Suggestion: suggestion,
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
			Why: site.why, Hops: hops,
		}},
	}
}

// tableField finds the struct field name of the table's package: the one
// field of that name, or whose configuration tag (mapstructure, yaml, json,
// toml, koanf, hcl) has that name, among the structs of the packages in
// scope, or, when
// several structs have one, the field of the struct the section heading
// names.
func (r *LiteralMismatch) tableField(ws *review.Workspace, c review.Claim, key string) (retrieval.Symbol, bool) {
	name := lastKeyPart(key)
	sc := newScope(ws.Symbols, c)
	var found []retrieval.Symbol
	for _, p := range docScopePackages(ws, c, sc) {
		for sf := range structFields(p) {
			if f := sf.field(); !f.Embedded() && sf.keys(name) {
				if sym, ok := ws.Symbols.Lookup(p.Dir, sf.typeName+"."+f.Name()); ok && sym.Kind == retrieval.SymbolField {
					found = append(found, sym)
				}
			}
		}
		if len(found) > 0 {
			break // the nearest package with such a field
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	for _, f := range found {
		typ, _, _ := strings.Cut(f.Name, ".")
		if litNamesWord(c.Context, typ) {
			return f, true
		}
	}
	// The key's parent names the struct: "enabled" under "- `sending_queue`",
	// or "sending_queue.enabled", is the field of the struct held as
	// sending_queue.
	if parent := r.keyParent(ws, c, key); parent != "" {
		var under []retrieval.Symbol
		for _, f := range found {
			if f.Object != nil && heldAs(docScopePackages(ws, c, sc), f.Object.(*types.Var), parent) {
				under = append(under, f)
			}
		}
		if len(under) == 1 {
			return under[0], true
		}
	}
	return retrieval.Symbol{}, false
}

// parentKey returns the key of the list item a Markdown claim's item is
// nested in ("sending_queue" for "  - `enabled` …" under "- `sending_queue`"),
// "" when the claim is no nested item of a key.
func (r *LiteralMismatch) parentKey(ws *review.Workspace, c review.Claim) string {
	if c.Kind != review.KindMarkdown {
		return ""
	}
	lines, err := headLines(&r.lines, ws, c.Path)
	if err != nil || c.Line < 1 || c.Line > len(lines) {
		return ""
	}
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
	own := indent(lines[c.Line-1])
	if own == 0 {
		return ""
	}
	for i := c.Line - 2; i >= 0; i-- {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		if indent(l) >= own {
			continue
		}
		m := parentItemRE.FindStringSubmatch(l)
		if m == nil {
			return ""
		}
		parts := strings.Split(m[1], ".")
		return parts[len(parts)-1]
	}
	return ""
}

// parentItemRE is a list item opening with a backticked key.
var parentItemRE = regexp.MustCompile("^\\s*[-*+]\\s+`([A-Za-z][A-Za-z0-9_.-]*)`")

// heldAs reports whether a struct of pkgs holds the struct that declares
// field under a field tagged or named key.
func heldAs(pkgs []*retrieval.Package, field *types.Var, key string) bool {
	for _, p := range pkgs {
		for sf := range structFields(p) {
			if sf.keys(key) && declaresField(sf.field().Type(), field) {
				return true
			}
		}
	}
	return false
}

// declaresField reports whether t, or the struct it points to, has field.
func declaresField(t types.Type, field *types.Var) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if st.Field(i) == field {
			return true
		}
	}
	return false
}

// cellValue reads a Default cell as constants comparable with site's (a
// size in KB or MB has two readings): a backticked Go constant expression
// or a bare number, bool or literal with a unit; false when it is none of
// these or of another kind.
func cellValue(cell string, site valueSite) ([]constant.Value, bool) {
	src := cell
	if strings.HasPrefix(src, "`") && strings.HasSuffix(src, "`") && len(src) >= 2 && strings.Count(src, "`") == 2 {
		src = strings.TrimSpace(src[1 : len(src)-1])
	} else if strings.Contains(src, "`") {
		return nil, false
	}
	if src == "" {
		return nil, false
	}
	isDur := litIsDuration(site.typ)
	if v, unit, ok := prose.WholeLiteral(src); ok && unit != "" {
		switch prose.DimensionOf(unit) {
		case prose.Duration:
			if !isDur {
				return nil, false
			}
			return []constant.Value{constant.MakeFloat64(v * prose.Nanoseconds(unit))}, true
		case prose.Size:
			if isDur {
				return nil, false
			}
			var out []constant.Value
			for _, per := range prose.Bytes(unit) {
				out = append(out, constant.MakeFloat64(v*per))
			}
			return out, len(out) > 0
		}
		return nil, false
	}
	expr := src
	if isDur {
		expr = timeUnits.Replace(expr)
	} else if strings.Contains(expr, "time.") {
		return nil, false
	}
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, expr)
	if err != nil || tv.Value == nil {
		return nil, false
	}
	v := tv.Value
	if v.Kind() != site.val.Kind() && !(isNumeric(v) && isNumeric(site.val)) {
		return nil, false
	}
	// Strings are not compared: code normalises them ("index.html" is
	// served as "/index.html") and compares many case-insensitively
	// (header names), so a different spelling is no different default.
	if v.Kind() == constant.String {
		return nil, false
	}
	return []constant.Value{v}, true
}

func isNumeric(v constant.Value) bool {
	return v.Kind() == constant.Int || v.Kind() == constant.Float
}

// sameConstant reports whether two constants are equal, numbers compared
// by value.
func sameConstant(a, b constant.Value) bool {
	if isNumeric(a) && isNumeric(b) {
		return constant.Compare(constant.ToFloat(a), token.EQL, constant.ToFloat(b))
	}
	return a.Kind() == b.Kind() && constant.Compare(a, token.EQL, b)
}

// constShown is the code's value as a reader sees it when it differs from
// its expression: a duration as 10m0s, a number as its digits.
func constShown(site valueSite) string {
	if site.val.Kind() != constant.Int {
		return ""
	}
	if litIsDuration(site.typ) {
		if n, ok := constant.Int64Val(site.val); ok {
			return time.Duration(n).String()
		}
		return ""
	}
	return site.val.ExactString()
}

// isIdent reports whether s is a Go identifier.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, ch := range s {
		if !(ch == '_' || 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || i > 0 && '0' <= ch && ch <= '9') {
			return false
		}
	}
	return true
}

// fieldExprRE finds a default written as a Go constant expression in a
// field's doc: "Optional. Default: 5 * time.Minute", "Defaults to
// `256 * 1024`", "Default: false" (and `Default: "Lax"`, found so that a
// doc with a string default is not read for another, but not compared).
var fieldExprRE = regexp.MustCompile(`(?i)\b(?:default(?:\s+value)?\s*(?:is\s*)?[:=]|defaults\s+to)\s*(` + "`" + `[^` + "`" + `]+` + "`" + `|"[^"\n]*"|(?:true|false)\b|[0-9][0-9a-zA-Z_.]*(?:\s*(?:\*|<<|\+|-|/)\s*(?:[0-9][0-9a-zA-Z_.]*|time\.[A-Z][a-z]+))+)`)

// judgeFieldExpr checks a struct field's doc that gives its default as a
// Go constant expression or a bool, which the literal reader does not take
// as a literal.
func (r *LiteralMismatch) judgeFieldExpr(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindDocComment || c.Symbol == "" {
		return nil
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || sym.Kind != retrieval.SymbolField || sym.Path != c.Path {
		return nil
	}
	ms := fieldExprRE.FindAllStringSubmatchIndex(c.Text, -1)
	if len(ms) != 1 {
		return nil // none, or several: which is the default is not certain
	}
	doc := c.Text[ms[0][2]:ms[0][3]]
	site, ok := r.fieldDefault(ws, sym)
	if !ok || site.val == nil {
		return nil
	}
	repl := site.expr
	if strings.HasPrefix(doc, "`") {
		repl = "`" + repl + "`"
	}
	return r.compareDefaultText(c, "The doc gives", doc, repl, sym.Name, []string{sym.Name}, site)
}
