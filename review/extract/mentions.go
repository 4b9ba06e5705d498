package extract

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"sort"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// Resolver answers whether a name exists in the module at head. The
// extractor consumes it to tell identifiers from prose; the retrieval
// package's symbol table satisfies it. A nil Resolver resolves nothing.
type Resolver interface {
	// Defined reports whether any package of the module declares name,
	// either top-level ("New") or as a member ("Cache.Purge").
	Defined(name string) bool
	// Suggest returns an existing name close to name, preferring the
	// package in the slash-separated directory fromDir, and false when
	// there is none.
	Suggest(fromDir, name string) (string, bool)
}

// Mentions returns what text refers to, in order of appearance. text starts
// at line firstLine of its file, and every mention's Line and EndLine are in
// the file's numbering; fromDir is the slash-separated directory of the
// text's package or file, passed to r.Suggest.
//
//   - Go doc links (`[Name]`, `[pkg.Name]`, `[Type.Method]`, `[*Type]`,
//     `[import/path.Name]`) are [review.MentionDocLink], without brackets
//     and "*". Markdown links, reference links, `[1]` and task boxes are
//     not.
//   - Backticked spans are a [review.MentionFlag] (`--name`, `--name=v`,
//     and inside backticks `-x` and `-name`), a [review.MentionLiteral], a
//     [review.MentionPath] (`./x`, `docs/a.md`, `go.mod`) or a
//     [review.MentionCode] holding the name without "*", "&", type
//     arguments and call arguments (`GoClaims(path, src)` gives
//     "GoClaims"). Lower-case
//     and all-capital single words (`git`, `HOME`) and Go keywords and
//     predeclared names are code mentions only when r defines them. A
//     backticked command line gives its flags and paths.
//   - Bare words are [review.MentionIdent] when they have identifier shape
//     (CamelCase, dotted, followed by "()") and r defines them or suggests
//     a close name, when they are snake_case and r defines them, or when
//     they are capitalised mid-sentence and r defines them.
//   - Numbers with units are [review.MentionLiteral] with Value and a
//     canonical Unit: durations ("30s", "1h30m", "5 minutes" -> "m"),
//     sizes ("10 MB" -> "mb", "512 bytes" -> "b"), percentages ("%") and
//     counts ("at most 10 items" -> "items").
//   - Markdown link targets that are not URLs ("docs/a.md#x", "#anchor")
//     and path-like words ("./scripts/x.sh", "docs/setup.md") are
//     [review.MentionPath]; import paths and URLs are not.
//   - "--name" in prose is a [review.MentionFlag].
//
// A nil r resolves nothing, so no bare word is an identifier.
func Mentions(text string, firstLine int, r Resolver, fromDir string) []review.Mention {
	return mentions(text, firstLine, newMemo(r), fromDir, scanOpts{})
}

// scanOpts says where a text comes from.
type scanOpts struct {
	// markdown makes bare bracketed words doc links only when they are
	// qualified or resolve, because Markdown uses brackets for prose far
	// more than Go comments do.
	markdown bool
	// pkg is the name of the Go package whose doc comment the text is;
	// a capitalised plain word then counts only when that package declares
	// it, as in Go, where an unqualified name refers to its own package.
	pkg string
	// doc says the text is a Go doc comment, where Go convention makes an
	// identifier-shaped bare word a name of the package: such a word is a
	// mention even when nothing declares it or anything close to it (see
	// [prose.CodeShaped]), so that a rule can report it absent.
	doc bool
	// locals are the receiver and parameter names of the documented func:
	// "c.Run" with receiver c is a mention, resolved through c's type.
	locals map[string]bool
}

// mentions is [Mentions] with a caching resolver and options.
func mentions(text string, firstLine int, r *memo, fromDir string, opts scanOpts) []review.Mention {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	s := &mentionScanner{
		text:    text,
		mask:    make([]bool, len(text)),
		r:       r,
		fromDir: fromDir,
		opts:    opts,
	}
	s.codeSpans()
	s.links()
	s.urls()
	s.docLinks()
	s.flags()
	s.literals()
	s.paths()
	s.idents()
	if len(s.found) == 0 {
		return nil
	}
	sort.SliceStable(s.found, func(i, j int) bool { return s.found[i].start < s.found[j].start })
	lines := newLineIndexString(text)
	out := make([]review.Mention, len(s.found))
	for i, f := range s.found {
		m := f.m
		end := f.end - 1
		if end < f.start {
			end = f.start
		}
		m.Line = firstLine + lines.line(f.start) - 1
		m.EndLine = firstLine + lines.line(end) - 1
		out[i] = m
	}
	return out
}

type foundMention struct {
	start, end int
	m          review.Mention
}

type mentionScanner struct {
	text    string
	mask    []bool // bytes already explained by an earlier mention or markup
	found   []foundMention
	r       *memo
	fromDir string
	opts    scanOpts
}

func (s *mentionScanner) add(start, end int, m review.Mention) {
	s.found = append(s.found, foundMention{start: start, end: end, m: m})
	s.cover(start, end)
}

func (s *mentionScanner) cover(start, end int) {
	for i := max(start, 0); i < end && i < len(s.mask); i++ {
		s.mask[i] = true
	}
}

func (s *mentionScanner) free(start, end int) bool {
	for i := max(start, 0); i < end && i < len(s.mask); i++ {
		if s.mask[i] {
			return false
		}
	}
	return true
}

// codeSpans finds backticked spans. Runs of backticks are paired with the
// next run of the same length, as CommonMark does; the pairing is linear in
// the number of runs.
func (s *mentionScanner) codeSpans() {
	type run struct{ pos, n int }
	var runs []run
	for i := 0; i < len(s.text); {
		if s.text[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s.text) && s.text[j] == '`' {
			j++
		}
		if i == 0 || s.text[i-1] != '\\' {
			runs = append(runs, run{i, j - i})
		}
		i = j
	}
	if len(runs) == 0 {
		return
	}
	// next[k] is the index of the next run with the same length as run k.
	next := make([]int, len(runs))
	last := map[int]int{}
	for k := len(runs) - 1; k >= 0; k-- {
		if nk, ok := last[runs[k].n]; ok {
			next[k] = nk
		} else {
			next[k] = -1
		}
		last[runs[k].n] = k
	}
	used := make([]bool, len(runs))
	for k := 0; k < len(runs); k++ {
		if used[k] || next[k] < 0 {
			continue
		}
		c := next[k]
		for c >= 0 && used[c] {
			c = next[c]
		}
		if c < 0 {
			continue
		}
		// Runs between k and c are inside the span.
		for m := k; m <= c; m++ {
			used[m] = true
		}
		open, close := runs[k], runs[c]
		s.cover(open.pos, close.pos+close.n)
		s.codeSpan(open.pos+open.n, close.pos)
	}
}

var (
	flagRE    = regexp.MustCompile(`^(--?[A-Za-z][A-Za-z0-9_-]*)(?:=.*)?$`)
	codeExpr  = regexp.MustCompile(`^[*&]*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?:\[[^\]]*\])?(\(.*\)|\{.*\})?$`)
	fileExtRE = regexp.MustCompile(`^\.?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.([a-z0-9]{1,10})$`)
)

// codeSpan classifies the content text[start:end] of a backticked span.
func (s *mentionScanner) codeSpan(start, end int) {
	for start < end && isSpace(s.text[start]) {
		start++
	}
	for end > start && isSpace(s.text[end-1]) {
		end--
	}
	if start >= end {
		return
	}
	c := strings.ReplaceAll(s.text[start:end], "\n", " ")
	if m := flagRE.FindStringSubmatch(c); m != nil && !strings.ContainsAny(c, " \t") {
		s.add(start, end, review.Mention{Kind: review.MentionFlag, Text: m[1]})
		return
	}
	if v, unit, ok := prose.WholeLiteral(c); ok {
		s.add(start, end, review.Mention{Kind: review.MentionLiteral, Text: c, Value: v, Unit: unit})
		return
	}
	if isPathLike(c, true) || isFileName(c) {
		s.add(start, end, review.Mention{Kind: review.MentionPath, Text: c})
		return
	}
	if m := codeExpr.FindStringSubmatch(c); m != nil {
		name, call := m[1], m[2] != ""
		if s.codeName(name, call) {
			s.add(start, end, review.Mention{Kind: review.MentionCode, Text: name})
		}
		return
	}
	// An arithmetic expression of names (`maxBatchSize * maxPacketSize`):
	// the names the module defines.
	if operands, ok := prose.ArithOperands(c); ok {
		for _, o := range operands {
			if strings.Contains(o.Name, ".") && !isAbbrev(o.Name) || s.r.defined(o.Name) {
				s.found = append(s.found, foundMention{start + o.Start, start + o.End, review.Mention{Kind: review.MentionCode, Text: o.Name}})
			}
		}
		return
	}
	// A Go statement (`f := CombineFeatures(CMOV, SSE)`): the funcs it
	// calls.
	if calls := stmtCalls(c); len(calls) > 0 {
		for _, n := range calls {
			if s.codeName(n.name, true) {
				s.found = append(s.found, foundMention{start + n.start, start + n.start + len(n.name), review.Mention{Kind: review.MentionCode, Text: n.name}})
			}
		}
		return
	}
	// A command line or expression: pick out its flags and paths.
	for i := start; i < end; {
		for i < end && isSpace(s.text[i]) {
			i++
		}
		j := i
		for j < end && !isSpace(s.text[j]) {
			j++
		}
		if i < j {
			tok := s.text[i:j]
			if m := flagRE.FindStringSubmatch(tok); m != nil {
				s.found = append(s.found, foundMention{i, j, review.Mention{Kind: review.MentionFlag, Text: m[1]}})
			} else if isPathLike(tok, true) {
				s.found = append(s.found, foundMention{i, j, review.Mention{Kind: review.MentionPath, Text: tok}})
			}
		}
		i = j
	}
}

// codeName decides whether a backticked name is worth a mention.
func (s *mentionScanner) codeName(name string, call bool) bool {
	if strings.Contains(name, ".") {
		return !isAbbrev(name)
	}
	if isGoBuiltin(name) {
		return s.r.defined(name)
	}
	if call || (hasLower(name) && hasUpper(name)) {
		return true
	}
	return s.r.defined(name)
}

// links records the targets of inline Markdown links and images,
// [text](target "title"), and hides the targets from later passes.
func (s *mentionScanner) links() {
	t := s.text
	for from := 0; ; {
		k := strings.Index(t[from:], "](")
		if k < 0 {
			return
		}
		open := from + k + 1
		from = open + 1
		if s.mask[open-1] || s.mask[open] {
			continue
		}
		dStart, dEnd, close, ok := parseLinkTarget(t, open+1)
		if !ok {
			continue
		}
		dest := t[dStart:dEnd]
		s.cover(open, close+1)
		if isLinkPath(dest) {
			s.found = append(s.found, foundMention{dStart, dEnd, review.Mention{Kind: review.MentionPath, Text: dest}})
		}
		from = close + 1
	}
}

// maxLinkTarget bounds the bytes a link destination and title may take, so
// that text full of "](" stays linear to scan.
const maxLinkTarget = 2048

// parseLinkTarget parses a link destination and optional title starting at
// i (just after "("), returning the destination bounds and the offset of the
// closing parenthesis.
func parseLinkTarget(t string, i int) (dStart, dEnd, close int, ok bool) {
	if len(t)-i > maxLinkTarget {
		t = t[:i+maxLinkTarget]
	}
	for i < len(t) && isSpace(t[i]) {
		i++
	}
	if i < len(t) && t[i] == '<' {
		j := strings.IndexAny(t[i+1:], ">\n")
		if j < 0 || t[i+1+j] != '>' {
			return 0, 0, 0, false
		}
		dStart, dEnd = i+1, i+1+j
		i = dEnd + 1
	} else {
		dStart = i
		depth := 0
	scan:
		for ; i < len(t); i++ {
			switch c := t[i]; {
			case c == '\\' && i+1 < len(t):
				i++
			case c == '[' || c == ']' || depth > 32:
				// Brackets in a destination are legal but rarer than
				// unclosed links; stopping here keeps "[a](" * n linear.
				break scan
			case c == '(':
				depth++
			case c == ')':
				if depth == 0 {
					break scan
				}
				depth--
			case isSpace(c) || c < 0x20:
				break scan
			}
		}
		dEnd = i
	}
	for i < len(t) && isSpace(t[i]) {
		i++
	}
	if i < len(t) && (t[i] == '"' || t[i] == '\'' || t[i] == '(') {
		q := t[i]
		if q == '(' {
			q = ')'
		}
		j := strings.IndexByte(t[i+1:], q)
		if j < 0 {
			return 0, 0, 0, false
		}
		i = i + 1 + j + 1
		for i < len(t) && isSpace(t[i]) {
			i++
		}
	}
	if i >= len(t) || t[i] != ')' {
		return 0, 0, 0, false
	}
	return dStart, dEnd, i, true
}

// isLinkPath reports whether a link destination points into the repository:
// a relative path, a root-relative path or an anchor, but not a URL with a
// scheme, a protocol-relative URL or mailto.
func isLinkPath(dest string) bool {
	if dest == "" || strings.HasPrefix(dest, "//") || hasScheme(dest) {
		return false
	}
	return !strings.ContainsAny(dest, " \t\n")
}

var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

func hasScheme(s string) bool { return schemeRE.MatchString(s) }

var urlRE = regexp.MustCompile(`(?i)(?:\b[a-z][a-z0-9+.-]*://|\bmailto:|\bwww\.)[^\s<>\x60"]*|<[a-z][a-z0-9+.-]*:[^\s<>]*>`)

// urls hides bare URLs and autolinks from later passes.
func (s *mentionScanner) urls() {
	if !strings.Contains(s.text, ":") && !strings.Contains(s.text, "www.") {
		return
	}
	for _, m := range urlRE.FindAllStringIndex(s.text, -1) {
		if s.free(m[0], m[0]+1) {
			s.cover(m[0], m[1])
		}
	}
}

// standardRE matches the name of a standards document: RFC2960, BCP47.
var standardRE = regexp.MustCompile(`^(?:RFC|BCP|STD|FYI)\d+$`)

// docLinks records the Go doc links ([prose.DocLinks]) outside code; in
// Markdown, a link to a single name only when the name is defined.
func (s *mentionScanner) docLinks() {
	for _, l := range prose.DocLinks(s.text) {
		i, j := l.Span.Start, l.Span.End
		if s.mask[i] || !s.free(i, j) {
			continue
		}
		if standardRE.MatchString(l.Name) {
			// "[RFC2960]" cites a document, as "[RFC 2960]" does.
			continue
		}
		if i > 0 && j < len(s.text) && strings.ContainsRune(`"'`, rune(s.text[i-1])) && s.text[j] == s.text[i-1] {
			// A bracketed word in quotes is text: golog's "Defaults to
			// \"[INFO]\"" is the prefix a log line gets.
			continue
		}
		if s.opts.markdown && !strings.ContainsAny(l.Name, "./") && !s.r.defined(l.Name) {
			continue
		}
		s.add(i, j, review.Mention{Kind: review.MentionDocLink, Text: l.Name})
	}
}

var proseFlagRE = regexp.MustCompile(`(?:^|[\s(\["'])(--[A-Za-z][A-Za-z0-9_-]*)(?:=[^\s)\]"',;]*)?`)

// flags finds long flags in prose; single-dash flags count only in code.
func (s *mentionScanner) flags() {
	if !strings.Contains(s.text, "--") {
		return
	}
	for _, m := range proseFlagRE.FindAllStringSubmatchIndex(s.text, -1) {
		if !s.free(m[2], m[1]) {
			continue
		}
		s.add(m[2], m[1], review.Mention{Kind: review.MentionFlag, Text: s.text[m[2]:m[3]]})
	}
}

// literals finds numbers with units.
func (s *mentionScanner) literals() {
	for _, l := range prose.Literals(s.text) {
		if !s.free(l.Start, l.End) {
			continue
		}
		s.add(l.Start, l.End, review.Mention{Kind: review.MentionLiteral, Text: s.text[l.Start:l.End], Value: l.Value, Unit: l.Unit})
	}
}

// paths finds path-like words of prose: ./x, ../x, docs/setup.md.
func (s *mentionScanner) paths() {
	t := s.text
	for i := 0; i < len(t); {
		for i < len(t) && isSpace(t[i]) {
			i++
		}
		j := i
		for j < len(t) && !isSpace(t[j]) {
			j++
		}
		a, b := i, j
		i = j
		for a < b && strings.IndexByte("(\"'<[*_", t[a]) >= 0 {
			a++
		}
		for b > a && strings.IndexByte(")\"'>],.;:!?*_", t[b-1]) >= 0 {
			b--
		}
		if a >= b || strings.IndexByte(t[a:b], '/') < 0 || !s.free(a, b) {
			continue
		}
		if tok := t[a:b]; isPathLike(tok, false) {
			s.add(a, b, review.Mention{Kind: review.MentionPath, Text: tok})
		}
	}
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?`)

// idents finds identifier-like words of prose that resolve or nearly
// resolve.
func (s *mentionScanner) idents() {
	if s.r == nil || (s.r.r == nil && len(s.r.extra) == 0) {
		return
	}
	t := s.text
	for _, m := range identRE.FindAllStringIndex(t, -1) {
		start, end := m[0], m[1]
		if start > 0 {
			if p := t[start-1]; isWordByte(p) || p == '.' || p == '/' || p == '-' || p == '$' || p == '@' || p >= 0x80 {
				continue
			}
		}
		if end < len(t) && (t[end] >= 0x80 || t[end] == '-' || t[end] == '/' || t[end] == '*' && !(s.opts.markdown && start > 0 && t[start-1] == '*')) {
			// Part of a longer word, a path or a pattern ("embedLog*"),
			// but for Markdown's emphasis ("**StringsSimilarity**").
			continue
		}
		if s.opts.markdown {
			// Markdown emphasis, not part of the name: "_minio.ObjectInfo_".
			for start < end && t[start] == '_' {
				start++
			}
			for end > start && t[end-1] == '_' {
				end--
			}
			if start == end {
				continue
			}
		}
		if !s.free(start, end) {
			continue
		}
		word := t[start:end]
		name, call := strings.CutSuffix(word, "()")
		if s.identMention(name, call, start) {
			s.add(start, end, review.Mention{Kind: review.MentionIdent, Text: name})
		}
	}
}

func (s *mentionScanner) identMention(name string, call bool, start int) bool {
	dotted := strings.Contains(name, ".")
	if dotted && (isAbbrev(name) || isFileName(name)) {
		return false
	}
	camel := hasLower(name) && hasUpper(name[1:])
	if camel && prose.IsBrand(name) {
		return false
	}
	snake := strings.Contains(strings.Trim(name, "_"), "_") && !dotted
	shaped := camel || dotted || call
	if shaped || snake {
		if s.r.defined(name) {
			return true
		}
		if dotted {
			// pkg.Name: the package qualifier is not part of the name.
			if first, rest, _ := strings.Cut(name, "."); isLowerWord(first) && s.r.defined(rest) {
				return true
			}
		}
		first, rest, _ := strings.Cut(name, ".")
		if dotted && s.opts.locals[first] && !strings.Contains(rest, ".") {
			// The receiver or a parameter of the documented func: the
			// rule resolves the member through its type.
			return true
		}
		// A short lower-case qualifier is a variable ("it.SKU", "c.Purge"):
		// a close name for it would be a guess about its type.
		if dotted && len(first) <= 2 && isLowerWord(first) {
			return false
		}
		// A quoted word is an example or a string, not a reference.
		if !shaped || inQuotes(s.text, start) {
			return false
		}
		if s.r.suggests(s.fromDir, name) {
			return true
		}
		return s.opts.doc && !dotted && prose.CodeShaped(name, call)
	}
	// A plain word: only a defined name written capitalised mid-sentence.
	if len(name) < 2 || !isUpper(name[0]) || isGoBuiltin(name) || prose.StartsSentence(s.text, start) {
		return false
	}
	if s.opts.pkg != "" {
		return s.r.defined(s.opts.pkg + "." + name)
	}
	return s.r.defined(name)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// inQuotes reports whether offset i lies between double quotes of one
// paragraph (a quote may span a line break, not a blank line).
func inQuotes(t string, i int) bool {
	start := strings.LastIndex(t[:i], "\n\n") + 1
	if strings.Count(t[start:i], `"`)%2 == 0 {
		return false
	}
	end := strings.Index(t[i:], "\n\n")
	if end < 0 {
		end = len(t) - i
	}
	return strings.IndexByte(t[i:i+end], '"') >= 0
}

// isPathLike reports whether tok looks like a path relative to the
// repository: "./x", "../x", or slash-separated with a file extension
// ("docs/setup.md"); inside backticks a trailing slash marks a directory
// too. Import paths ("github.com/x/y", "net/http"), URLs and globs are not
// paths.
func isPathLike(tok string, inCode bool) bool {
	if tok == "" || strings.Contains(tok, "://") || strings.Contains(tok, "...") || hasScheme(tok) {
		return false
	}
	base, _, _ := strings.Cut(tok, "#")
	if base == "" {
		return false
	}
	for i := 0; i < len(base); i++ {
		c := base[i]
		if !isWordByte(c) && strings.IndexByte("./-+~", c) < 0 {
			return false
		}
	}
	if rest, ok := strings.CutPrefix(base, "./"); ok {
		return rest != "" && strings.Trim(rest, "./") != ""
	}
	if strings.HasPrefix(base, "../") {
		return strings.Trim(base, "./") != ""
	}
	if base[0] == '/' || !strings.Contains(base, "/") || strings.Contains(base, "//") {
		return false
	}
	first, _, _ := strings.Cut(base, "/")
	if strings.Contains(first[1:], ".") {
		return false // a host name: github.com/...
	}
	if strings.HasSuffix(base, "/") {
		return inCode
	}
	lastSlash := strings.LastIndexByte(base, '/')
	return fileExtRE.MatchString(base[lastSlash+1:]) && isFileExt(base[strings.LastIndexByte(base, '.')+1:])
}

// isFileName reports whether tok is a bare file name with a common
// extension ("go.mod", "README.md", ".docreview.yml").
func isFileName(tok string) bool {
	m := fileExtRE.FindStringSubmatch(tok)
	return m != nil && isFileExt(m[1]) && strings.Trim(tok[:len(tok)-len(m[1])], ".") != ""
}

func isFileExt(ext string) bool {
	switch ext {
	case "md", "markdown", "go", "mod", "sum", "work", "yml", "yaml", "json", "toml", "txt", "sh",
		"bash", "zsh", "py", "js", "mjs", "ts", "html", "css", "sql", "proto", "xml", "csv", "cfg",
		"conf", "ini", "env", "lock", "tmpl", "tpl", "gotmpl", "txtar", "golden", "diff", "patch",
		"png", "svg", "jpg", "jpeg", "gif", "c", "h", "cc", "cpp", "rs", "rb", "java", "kt", "swift",
		"mk", "rst", "adoc", "pem", "key", "crt", "log", "out", "gz", "zip", "tar", "tgz", "wasm",
		"s", "pb", "bin", "dat", "in", "jsonl", "ndjson", "sarif", "schema", "bats", "ps1", "bat":
		return true
	}
	return false
}

// isAbbrev reports dotted abbreviations such as "e.g" and "i.e", whose
// parts are single letters.
func isAbbrev(name string) bool {
	for part := range strings.SplitSeq(name, ".") {
		if len(part) > 1 {
			return false
		}
	}
	return true
}

func isGoBuiltin(name string) bool {
	switch name {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
		"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
		"return", "select", "struct", "switch", "type", "var",
		"any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32",
		"float64", "int", "int8", "int16", "int32", "int64", "rune", "string", "uint", "uint8",
		"uint16", "uint32", "uint64", "uintptr", "true", "false", "iota", "nil", "append", "cap",
		"clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max", "min", "new",
		"panic", "print", "println", "real", "recover":
		return true
	}
	return false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if isUpper(s[i]) {
			return true
		}
	}
	return false
}

func hasLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			return true
		}
	}
	return false
}

func isLowerWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// memo caches a Resolver's answers for one extraction, so that a word
// repeated across a repository costs one lookup. A nil memo or one over a
// nil Resolver resolves nothing.
type memo struct {
	r         Resolver
	defs      map[string]bool
	suggested map[string]bool
	// extra names count as defined: names the diff removed or renamed, which
	// the head symbol table no longer knows but documentation still uses.
	extra map[string]bool
}

func newMemo(r Resolver) *memo {
	return &memo{r: r, defs: map[string]bool{}, suggested: map[string]bool{}}
}

func (m *memo) defined(name string) bool {
	if m == nil {
		return false
	}
	if m.extra[name] {
		return true
	}
	if m.r == nil {
		return false
	}
	v, ok := m.defs[name]
	if !ok {
		v = m.r.Defined(name)
		m.defs[name] = v
	}
	return v
}

func (m *memo) suggests(fromDir, name string) bool {
	if m == nil || m.r == nil {
		return false
	}
	key := fromDir + "\x00" + name
	v, ok := m.suggested[key]
	if !ok {
		_, v = m.r.Suggest(fromDir, name)
		m.suggested[key] = v
	}
	return v
}

// calledName is a func a code span's statement calls, at its offset in
// the span.
type calledName struct {
	name  string
	start int
}

// stmtCalls returns the funcs that text, one or more Go statements with
// an assignment or a declaration among them, calls by a name or a
// selector of names ("CombineFeatures", "cpuid.CPU.Has"), in order; nil
// when text is no such statement.
func stmtCalls(text string) []calledName {
	if !strings.Contains(text, "=") || len(text) > 500 {
		return nil
	}
	const prefix = "package p\nfunc _() {\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", prefix+text+"\n}\n", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	assigns := false
	for _, st := range body.List {
		switch st.(type) {
		case *ast.AssignStmt, *ast.DeclStmt:
			assigns = true
		case *ast.ExprStmt:
		default:
			return nil
		}
	}
	if !assigns {
		return nil
	}
	var out []calledName
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if name, ok := selectorName(call.Fun); ok {
			out = append(out, calledName{name, fset.Position(call.Fun.Pos()).Offset - len(prefix)})
		}
		return true
	})
	return out
}

// selectorName returns an identifier or a chain of selectors on one
// ("cpuid.CPU.Has") as written.
func selectorName(x ast.Expr) (string, bool) {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name, true
	case *ast.SelectorExpr:
		if left, ok := selectorName(x.X); ok {
			return left + "." + x.Sel.Name, true
		}
	}
	return "", false
}
