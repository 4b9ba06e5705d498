package extract

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MarkdownClaims returns the claims of the Markdown file at path (slash
// separated, relative to the repository root), sorted by line. Each
// paragraph is a claim, and so is each list item (its own text, without its
// nested lists, whose items are claims of their own), each paragraph of a
// block quote, each body row of a GFM table (the header row is not a claim;
// Text is the row as written) and each fenced or indented code block (Text
// is the code; its mentions include it as a [review.MentionBlock] with Lang
// from the info string). Text is the Markdown source of the block, without
// list and quote markers, one line per source line. Context is the heading
// path ("Install > From source"); headings, front matter, HTML blocks and
// link reference definitions are not claims. Mentions are found without a
// [Resolver], so no [review.MentionIdent] is recorded, and a bare bracketed
// word is a [review.MentionDocLink] only when it is qualified ("[pkg.Name]").
//
// MarkdownClaims never fails. It returns no claims for a file with a line
// that opens blocks more than 256 bytes deep (indentation, ">" and list
// markers), on which the Markdown parser would take seconds; otherwise the
// work is linear in the size of src.
func MarkdownClaims(path string, src []byte) []review.Claim {
	claims, _ := markdownClaims(path, src, newMemo(nil))
	return claims
}

func markdownClaims(p string, src []byte, r *memo) (claims []review.Claim, err error) {
	defer func() {
		if v := recover(); v != nil {
			claims, err = nil, fmt.Errorf("markdown parser failed on %s: %v", p, v)
		}
	}()
	if line, n := deepestPrefix(src); n > maxContainerPrefix {
		return nil, fmt.Errorf("skipped: line %d opens blocks %d bytes deep, more than the limit of %d", line, n, maxContainerPrefix)
	}
	src = blankFrontMatter(src)
	doc := newBlockParser().Parse(text.NewReader(src))
	w := &mdWalker{path: p, dir: path.Dir(p), src: src, lines: newLineIndex(src), r: r}
	w.walk(doc, true)
	sort.SliceStable(w.out, func(i, j int) bool { return w.out[i].Line < w.out[j].Line })
	seen := map[string]int{}
	for i := range w.out {
		c := &w.out[i]
		c.ID = uniqueID(seen, c.Path, c.Context, c.Text)
	}
	return w.out, nil
}

// maxContainerPrefix bounds the indentation, quote and list markers that
// open a line. The Markdown parser's work per line grows with the square of
// the nesting, so deeper files are skipped rather than parsed for seconds.
const maxContainerPrefix = 256

// deepestPrefix returns the line with the longest run of indentation,
// block quote and list markers at its start, and that length.
func deepestPrefix(src []byte) (line, n int) {
	l := 1
	for off := 0; off < len(src); {
		i := off
	prefix:
		for i < len(src) {
			switch c := src[i]; {
			case c == ' ' || c == '\t' || c == '>':
				i++
			case (c == '-' || c == '*' || c == '+') && i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t'):
				i += 2
			case isDigit(c):
				j := i
				for j < len(src) && j-i < 10 && isDigit(src[j]) {
					j++
				}
				if j+1 >= len(src) || src[j] != '.' && src[j] != ')' || src[j+1] != ' ' && src[j+1] != '\t' {
					break prefix
				}
				i = j + 2
			default:
				break prefix
			}
		}
		if i-off > n {
			line, n = l, i-off
		}
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			break
		}
		off = i + end + 1
		l++
	}
	return line, n
}

// newBlockParser returns a Markdown parser of CommonMark blocks and GFM
// tables without inline parsers and without goldmark's link reference
// definition transformer: claims need only block structure, mentions are
// read from the source, and those parsers are quadratic on some inputs
// (thousands of "[a](" or "[a]: b" lines in one paragraph). Definitions
// are dropped by [mdWalker.withoutRefDefs] instead.
func newBlockParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(extension.NewTableParagraphTransformer(), 200)),
	)
}

// blankFrontMatter returns src with a leading YAML ("---") or TOML ("+++")
// front matter block replaced by blank lines, so that it is not read as
// Markdown and line numbers stay put. src is not modified.
func blankFrontMatter(src []byte) []byte {
	var fence []byte
	switch {
	case bytes.HasPrefix(src, []byte("---\n")), bytes.HasPrefix(src, []byte("---\r\n")):
		fence = []byte("---")
	case bytes.HasPrefix(src, []byte("+++\n")), bytes.HasPrefix(src, []byte("+++\r\n")):
		fence = []byte("+++")
	default:
		return src
	}
	off := bytes.IndexByte(src, '\n') + 1
	for off < len(src) {
		end := bytes.IndexByte(src[off:], '\n')
		lineEnd := len(src)
		if end >= 0 {
			lineEnd = off + end
		}
		l := bytes.TrimRight(src[off:lineEnd], " \t\r")
		if bytes.Equal(l, fence) || (fence[0] == '-' && bytes.Equal(l, []byte("..."))) {
			out := bytes.Clone(src)
			for i := 0; i < lineEnd; i++ {
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
			return out
		}
		off = lineEnd + 1
	}
	return src
}

type heading struct {
	level int
	text  string
}

type mdWalker struct {
	path, dir string
	src       []byte
	lines     *lineIndex
	r         *memo
	headings  []heading
	out       []review.Claim
}

func (w *mdWalker) context() string {
	parts := make([]string, 0, len(w.headings))
	for _, h := range w.headings {
		if h.text != "" {
			parts = append(parts, h.text)
		}
	}
	return strings.Join(parts, " > ")
}

// walk visits the blocks under n; top is true for the document's own
// children, the only headings that make up the heading path.
func (w *mdWalker) walk(n ast.Node, top bool) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.visit(c, top)
	}
}

func (w *mdWalker) visit(n ast.Node, top bool) {
	switch n := n.(type) {
	case *ast.Heading:
		if top {
			w.heading(n)
		}
	case *ast.Paragraph, *ast.TextBlock:
		w.prose(w.withoutRefDefs(segmentsOf(n)))
	case *ast.ListItem:
		var own []text.Segment
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c.(type) {
			case *ast.Paragraph, *ast.TextBlock:
				own = append(own, w.withoutRefDefs(segmentsOf(c))...)
			}
		}
		w.prose(own)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c.(type) {
			case *ast.Paragraph, *ast.TextBlock:
			default:
				w.visit(c, false)
			}
		}
	case *ast.FencedCodeBlock:
		w.fenced(n)
	case *ast.CodeBlock:
		w.indented(n)
	case *extast.Table:
		w.table(n)
	case *ast.HTMLBlock, *ast.ThematicBreak, *ast.LinkReferenceDefinition:
	default:
		w.walk(n, false)
	}
}

func segmentsOf(n ast.Node) []text.Segment {
	lines := n.Lines()
	if lines == nil {
		return nil
	}
	return lines.Sliced(0, lines.Len())
}

// headingSigRE matches a heading that is one Go signature in a code span:
// "`func New(cfg Config) *Store`", "`func (s *Store) Get(key string) string`",
// "`(*Compiler) Compile(schema []byte) (*Schema, error)`". A name alone
// ("`Compile`") or a call ("`store.Get(key)`") is no signature.
var headingSigRE = regexp.MustCompile("^`((?:func\\s+)?(?:\\([^()`]*\\)\\s*)?[A-Z][A-Za-z0-9_]*\\([^`]*\\)[^`]*)`$")

// headingSignature returns the Go signature a heading consists of, as a
// declaration ("func (*Compiler) Compile(…) …"), when it has results or
// the func keyword, so that it is a declaration and not a call.
func headingSignature(t string) (string, bool) {
	m := headingSigRE.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return "", false
	}
	sig := strings.TrimSpace(m[1])
	if !strings.HasPrefix(sig, "func") {
		if strings.HasSuffix(sig, ")") && !strings.HasPrefix(sig, "(") && strings.Count(sig, "(") == 1 {
			return "", false // Name(args): a call, or a signature without results
		}
		sig = "func " + sig
	}
	return sig, true
}

var (
	headingLinkRE = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	headingMarkRE = regexp.MustCompile("[`*]+")
)

func (w *mdWalker) heading(h *ast.Heading) {
	var parts []string
	segs := segmentsOf(h)
	for _, s := range segs {
		parts = append(parts, strings.TrimSpace(string(s.Value(w.src))))
	}
	t := strings.Join(parts, " ")
	if sig, ok := headingSignature(t); ok && len(segs) == 1 {
		line := w.lines.line(segs[0].Start)
		w.out = append(w.out, review.Claim{
			Path: w.path, Line: line, EndLine: line, Kind: review.KindMarkdown,
			Context: w.context(), Text: sig,
			Mentions: []review.Mention{{Kind: review.MentionBlock, Text: sig, Line: line, EndLine: line, Lang: review.LangGoSignature}},
		})
	}
	t = headingLinkRE.ReplaceAllString(t, "$1")
	t = headingMarkRE.ReplaceAllString(t, "")
	t = strings.Join(strings.Fields(t), " ")
	for len(w.headings) > 0 && w.headings[len(w.headings)-1].level >= h.Level {
		w.headings = w.headings[:len(w.headings)-1]
	}
	w.headings = append(w.headings, heading{level: h.Level, text: t})
}

// textOf joins segments into one string with a line per source line, so
// that offsets in it map back to file lines; it returns the text and the
// lines of its first and last segments.
func (w *mdWalker) textOf(segs []text.Segment, trimLeft bool) (string, int, int) {
	var sb strings.Builder
	first, prev := 0, 0
	for _, s := range segs {
		l := w.lines.line(s.Start)
		v := string(s.Value(w.src))
		v = strings.TrimRight(v, " \t\r\n")
		if trimLeft {
			v = strings.TrimLeft(v, " \t")
		}
		switch {
		case first == 0:
			first = l
		case l > prev:
			sb.WriteString(strings.Repeat("\n", l-prev))
		default:
			sb.WriteByte(' ')
		}
		sb.WriteString(v)
		prev = max(prev, l)
	}
	return sb.String(), first, prev
}

var refDefRE = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:(?:[ \t]|$)`)

// withoutRefDefs drops the link reference definitions ("[ref]: docs/a.md")
// that open a paragraph, one per line, as CommonMark reads them.
func (w *mdWalker) withoutRefDefs(segs []text.Segment) []text.Segment {
	for len(segs) > 0 && refDefRE.Match(segs[0].Value(w.src)) {
		segs = segs[1:]
	}
	return segs
}

func (w *mdWalker) prose(segs []text.Segment) {
	t, first, last := w.textOf(segs, true)
	if strings.TrimSpace(t) == "" {
		return
	}
	// Trailing blank lines (from segments of blank content) do not count.
	trimmed := strings.TrimRight(t, "\n ")
	last -= strings.Count(t[len(trimmed):], "\n")
	w.out = append(w.out, review.Claim{
		Path: w.path, Line: first, EndLine: last, Kind: review.KindMarkdown,
		Context: w.context(), Text: trimmed,
		Mentions: mentions(trimmed, first, w.r, w.dir, scanOpts{markdown: true}),
	})
}

func (w *mdWalker) fenced(n *ast.FencedCodeBlock) {
	code, first, last := w.code(n)
	if code == "" {
		return
	}
	lang := ""
	if n.Info != nil {
		lang = strings.ToLower(string(n.Language(w.src)))
	}
	open := first - 1
	if n.Info != nil {
		open = w.lines.line(n.Info.Segment.Start)
	} else if p := n.Pos(); p >= 0 && p < len(w.src) {
		open = w.lines.line(p)
	}
	if open < 1 || open > first {
		open = first
	}
	end := last
	if s, e := w.lines.lineBounds(last + 1); s < e {
		if l := strings.TrimSpace(string(w.src[s:e])); strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			end = last + 1
		}
	}
	w.addBlock(code, lang, open, end, first, last)
}

func (w *mdWalker) indented(n *ast.CodeBlock) {
	code, first, last := w.code(n)
	if code == "" {
		return
	}
	w.addBlock(code, "", first, last, first, last)
}

// code returns a code block's text and the lines of its first and last
// non-blank lines.
func (w *mdWalker) code(n ast.Node) (string, int, int) {
	segs := segmentsOf(n)
	for len(segs) > 0 && strings.TrimSpace(string(segs[len(segs)-1].Value(w.src))) == "" {
		segs = segs[:len(segs)-1]
	}
	for len(segs) > 0 && strings.TrimSpace(string(segs[0].Value(w.src))) == "" {
		segs = segs[1:]
	}
	if len(segs) == 0 {
		return "", 0, 0
	}
	return w.textOf(segs, false)
}

func (w *mdWalker) addBlock(code, lang string, line, end, codeLine, codeEnd int) {
	ms := []review.Mention{{Kind: review.MentionBlock, Text: code, Line: codeLine, EndLine: codeEnd, Lang: lang}}
	ms = append(ms, commandMentions(code, lang, codeLine)...)
	w.out = append(w.out, review.Claim{
		Path: w.path, Line: line, EndLine: end, Kind: review.KindMarkdown,
		Context: w.context(), Text: code, Mentions: ms,
	})
}

var blockFlagRE = regexp.MustCompile(`^(--[A-Za-z][A-Za-z0-9_-]*|-[A-Za-z][A-Za-z0-9]*)(?:=.*)?$`)

// commandMentions returns the flags and paths of a shell code block's
// command lines; other languages give none.
func commandMentions(code, lang string, firstLine int) []review.Mention {
	switch lang {
	case "", "sh", "bash", "shell", "console", "zsh", "shell-session", "terminal":
	default:
		return nil
	}
	var out []review.Mention
	for i, l := range strings.Split(code, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		t = strings.TrimPrefix(strings.TrimPrefix(t, "$ "), "> ")
		for _, tok := range strings.Fields(t) {
			tok = strings.Trim(tok, `"'`)
			if strings.HasPrefix(tok, "./") || strings.HasPrefix(tok, "../") {
				tok, _, _ = strings.Cut(tok, "@") // go install ./cmd/x@latest
			}
			if m := blockFlagRE.FindStringSubmatch(tok); m != nil {
				out = append(out, review.Mention{Kind: review.MentionFlag, Text: m[1], Line: firstLine + i, EndLine: firstLine + i})
			} else if isPathLike(tok, true) {
				out = append(out, review.Mention{Kind: review.MentionPath, Text: tok, Line: firstLine + i, EndLine: firstLine + i})
			}
		}
	}
	return out
}

func (w *mdWalker) table(t *extast.Table) {
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		r, ok := row.(*extast.TableRow)
		if !ok {
			continue // the header
		}
		p := r.Pos()
		if p < 0 || p >= len(w.src) {
			continue
		}
		l := w.lines.line(p)
		s, e := w.lines.lineBounds(l)
		line := strings.TrimSpace(strings.TrimLeft(string(w.src[s:e]), " \t>"))
		if line == "" || strings.Trim(line, "| \t") == "" {
			continue
		}
		w.out = append(w.out, review.Claim{
			Path: w.path, Line: l, EndLine: l, Kind: review.KindMarkdown,
			Context: w.context(), Text: line,
			Mentions: mentions(line, l, w.r, w.dir, scanOpts{markdown: true}),
		})
	}
}
