// Command mine finds documentation fixes in the release history of Go
// modules: hunks between consecutive versions that change a doc comment or
// Markdown while the code the doc describes stays. Each such hunk is a
// candidate case for the real-fix set of docreview's quality benchmark
// (bench/quality/data/real.json); a person confirms it by reading the code
// of the older version before it is kept.
//
// The candidates are chosen by the fix alone, with signals of the miner's
// own (a word the fix removes that the older version declares nowhere, a
// number it changes, a Go fence it edits, a link it rewrites), never by
// docreview's rules, so the set does not favour what the rules already see.
//
// Usage:
//
//	go run ./bench/quality/mine -pairs 20 -out /tmp/candidates.jsonl github.com/BurntSushi/toml ...
//	go run ./bench/quality/mine -history /path/to/repo.git -since 2019-01-01 -out /tmp/candidates.jsonl
//
// With -history it reads a repository's commits instead: each commit whose
// subject says it fixes something and that changes documentation only is
// applied to the release before it, and that pair is mined (history.go).
//
// It needs the go command and git, and downloads through the Go module
// proxy into the module cache.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/docreview/docreview/retrieval"
)

// Candidate is one documentation hunk of a version pair.
type Candidate struct {
	Module string `json:"module"`
	// Version is the version whose text is suspected wrong; Fixed is the
	// next version, which changed it.
	Version string `json:"version"`
	Fixed   string `json:"fixed"`
	Path    string `json:"path"`
	// Line and EndLine are the hunk's removed lines in Version.
	Line    int `json:"line"`
	EndLine int `json:"end_line"`
	// Symbol is the declaration a Go doc comment belongs to.
	Symbol string `json:"symbol,omitempty"`
	// Signals name what the fix changes: name, parameter, literal,
	// snippet, link.
	Signals []string `json:"signals"`
	// Gone are the words the fix removes, Came those it adds.
	Gone []string `json:"gone,omitempty"`
	Came []string `json:"came,omitempty"`
	// Strong lists the signals the older version confirms on its own: a
	// removed name it does not spell beside an added one it does, an
	// added number its code holds, a removed link target it lacks, a
	// removed snippet line calling a member it does not declare.
	Strong []string `json:"strong,omitempty"`
	Old    string   `json:"old"`
	New    string   `json:"new"`
	// Commit and Subject are the fixing commit and its subject, for
	// candidates mined from a repository's history (-history).
	Commit  string `json:"commit,omitempty"`
	Subject string `json:"subject,omitempty"`
}

func main() {
	pairs := flag.Int("pairs", 20, "most consecutive version pairs per module, newest first")
	strongOnly := flag.Bool("strong", false, "write only candidates with a signal the older version confirms")
	out := flag.String("out", "", "write candidates here as JSON lines (default stdout)")
	workers := flag.Int("workers", 4, "modules mined at once")
	history := flag.String("history", "", "mine the documentation fixes of this git directory's commit history, each against the release before it, instead of MODULE release pairs")
	since := flag.String("since", "2019-01-01", "with -history, the oldest commit date")
	numbers := flag.Bool("numbers", false, "with -history, also mine documentation commits whatever their subject that rewrite a line's numbers and nothing else")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if flag.NArg() == 0 && *history == "" {
		fmt.Fprintln(os.Stderr, "usage: mine [-pairs N] [-out FILE] MODULE...\n       mine -history GITDIR [-since DATE] [-out FILE]")
		os.Exit(2)
	}
	w := io.Writer(os.Stdout)
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			log.Error("create output", "err", err)
			os.Exit(1)
		}
		defer func() { _ = f.Close() }()
		w = f
	}
	ctx := context.Background()
	if *history != "" {
		cands, err := mineHistory(ctx, *history, *since, *numbers)
		if err == nil {
			err = encodeAll(json.NewEncoder(w), cands)
		}
		if err != nil {
			log.Error("mine history", "dir", *history, "err", err)
			os.Exit(1)
		}
		log.Info("mined", "dir", *history, "hunks", len(cands))
		return
	}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		sem  = make(chan struct{}, max(1, *workers))
		enc  = json.NewEncoder(w)
		fail bool
	)
	for _, mod := range flag.Args() {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			cands, err := mineModule(ctx, mod, *pairs)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				log.Error("mine", "module", mod, "err", err)
				fail = true
				return
			}
			counts := map[string]int{}
			for _, c := range cands {
				if *strongOnly && len(c.Strong) == 0 {
					continue
				}
				for _, s := range c.Signals {
					counts[s]++
				}
				if err := enc.Encode(c); err != nil {
					log.Error("write", "err", err)
					fail = true
				}
			}
			log.Info("mined", "module", mod, "hunks", len(cands), "signals", fmt.Sprint(counts))
		}()
	}
	wg.Wait()
	if fail {
		os.Exit(1)
	}
}

// mineModule mines the last pairs version pairs of mod.
func mineModule(ctx context.Context, mod string, pairs int) ([]Candidate, error) {
	vs, err := releases(ctx, mod)
	if err != nil {
		return nil, err
	}
	if len(vs) > pairs+1 {
		vs = vs[len(vs)-pairs-1:]
	}
	dirs, err := download(ctx, mod, vs)
	if err != nil {
		return nil, err
	}
	var out []Candidate
	for i := 0; i+1 < len(vs); i++ {
		older, newer := dirs[vs[i]], dirs[vs[i+1]]
		if older == "" || newer == "" {
			continue
		}
		cs, err := minePair(ctx, mod, vs[i], vs[i+1], older, newer)
		if err != nil {
			return nil, fmt.Errorf("%s..%s: %w", vs[i], vs[i+1], err)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// maxHunk is the most lines a fix hunk may remove or add: larger hunks
// are rewrites, not fixes.
const maxHunk = 8

var semverRelease = regexp.MustCompile(`^v\d+\.\d+\.\d+(\+incompatible)?$`)

// releases lists mod's release versions (no pre-releases), oldest first.
func releases(ctx context.Context, mod string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-versions", mod)
	cmd.Dir = os.TempDir()
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m -versions %s: %w", mod, err)
	}
	fields := strings.Fields(string(b))
	var vs []string
	for _, f := range fields[min(1, len(fields)):] {
		if semverRelease.MatchString(f) {
			vs = append(vs, f)
		}
	}
	if len(vs) < 2 {
		return nil, fmt.Errorf("%s: fewer than two releases", mod)
	}
	return vs, nil
}

// download fetches every version of mod and returns their directories;
// a version that fails is left out.
func download(ctx context.Context, mod string, vs []string) (map[string]string, error) {
	args := []string{"mod", "download", "-json"}
	for _, v := range vs {
		args = append(args, mod+"@"+v)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = os.TempDir()
	b, _ := cmd.Output() // failures are per version, in the JSON
	dirs := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var info struct{ Version, Dir, Error string }
		if err := dec.Decode(&info); err != nil {
			break
		}
		if info.Error == "" && info.Dir != "" {
			dirs[info.Version] = info.Dir
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("download %s: no version downloaded", mod)
	}
	return dirs, nil
}

// hunk is one -U0 hunk of git diff.
type hunk struct {
	path             string
	oldStart, oldLen int
	newStart, newLen int
	removed, added   []string
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// diffHunks runs git diff --no-index between two module trees.
func diffHunks(ctx context.Context, older, newer string) ([]hunk, error) {
	cmd := exec.CommandContext(ctx, "git", "diff", "--no-index", "--no-color", "-U0", "--no-renames", older, newer)
	b, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return nil, fmt.Errorf("git diff: %w", err)
		}
	}
	var (
		hs   []hunk
		path string
		cur  *hunk
	)
	prefix := strings.TrimPrefix(filepath.ToSlash(older), "/") + "/"
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			path, cur = "", nil
		case strings.HasPrefix(line, "--- "):
			p := strings.TrimPrefix(line, "--- ")
			if p == "/dev/null" {
				path = ""
				continue
			}
			p = strings.TrimPrefix(p, "a/")
			path = strings.TrimPrefix(p, prefix)
		case strings.HasPrefix(line, "+++ "):
			if strings.TrimPrefix(line, "+++ ") == "/dev/null" {
				path = ""
			}
		case strings.HasPrefix(line, "@@"):
			cur = nil
			m := hunkHeader.FindStringSubmatch(line)
			if m == nil || path == "" {
				continue
			}
			hs = append(hs, hunk{path: path, oldStart: atoi(m[1]), oldLen: lenOr1(m[2]), newStart: atoi(m[3]), newLen: lenOr1(m[4])})
			cur = &hs[len(hs)-1]
		case cur != nil && strings.HasPrefix(line, "-"):
			cur.removed = append(cur.removed, line[1:])
		case cur != nil && strings.HasPrefix(line, "+"):
			cur.added = append(cur.added, line[1:])
		}
	}
	return hs, sc.Err()
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func lenOr1(s string) int {
	if s == "" {
		return 1
	}
	return atoi(s)
}

// minePair finds the documentation hunks of older..newer.
func minePair(ctx context.Context, mod, vOld, vNew, older, newer string) ([]Candidate, error) {
	hs, err := diffHunks(ctx, older, newer)
	if err != nil {
		return nil, err
	}
	decl := declared(older)
	lits := literals(older)
	var out []Candidate
	docs := map[string]*goDocs{}
	fences := map[string][]bool{}
	for _, h := range hs {
		if h.oldLen == 0 || h.oldLen > maxHunk || h.newLen > maxHunk || skipPath(h.path) {
			continue
		}
		c := Candidate{Module: mod, Version: vOld, Fixed: vNew, Path: h.path, Line: h.oldStart, EndLine: h.oldStart + h.oldLen - 1}
		var params map[string]bool
		switch {
		case strings.HasSuffix(h.path, ".go"):
			d, ok := docs[h.path]
			if !ok {
				d = parseDocs(filepath.Join(older, h.path))
				docs[h.path] = d
			}
			sym, ps, inDoc := d.at(c.Line, c.EndLine)
			if !inDoc || !allComments(h.removed) || !allComments(h.added) {
				continue
			}
			c.Symbol, params = sym, ps
			c.Old, c.New = commentText(h.removed), commentText(h.added)
			if hasCodeLine(h.removed) {
				c.Signals = append(c.Signals, "snippet")
			}
		case isMarkdown(h.path):
			f, ok := fences[h.path]
			if !ok {
				f = goFences(filepath.Join(older, h.path))
				fences[h.path] = f
			}
			if inFence(f, c.Line, c.EndLine) {
				c.Signals = append(c.Signals, "snippet")
			}
			c.Old, c.New = strings.Join(h.removed, "\n"), strings.Join(h.added, "\n")
		default:
			continue
		}
		if strings.Join(strings.Fields(c.Old), " ") == strings.Join(strings.Fields(c.New), " ") {
			continue // a reflow
		}
		c.Gone, c.Came = wordDiff(c.Old, c.New)
		if len(c.Gone) == 0 && !contains(c.Signals, "snippet") {
			continue // only additions: new documentation, not a fix
		}
		c.Signals = append(c.Signals, signals(c, decl, params)...)
		if len(c.Signals) == 0 {
			continue
		}
		sort.Strings(c.Signals)
		c.Strong = strong(c, older, decl, lits, h.removed)
		out = append(out, c)
	}
	return out, nil
}

func skipPath(p string) bool {
	return strings.HasSuffix(p, "_test.go") || strings.Contains(p, "testdata/") || strings.HasPrefix(p, "vendor/") ||
		strings.Contains(p, "/vendor/") || strings.EqualFold(filepath.Base(p), "CHANGELOG.md")
}

func isMarkdown(p string) bool {
	return strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".markdown")
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

var (
	codeWord = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\(\))?$`)
	number   = regexp.MustCompile(`\d`)
	webAddr  = regexp.MustCompile(`\(?https?://[^\s)]*\)?`)
)

// signals names what the fix changes, judged from the fix and the older
// version's declarations.
func signals(c Candidate, decl map[string]bool, params map[string]bool) []string {
	var out []string
	known := func(w string) bool {
		w = strings.TrimSuffix(w, "()")
		return decl[w] || decl[w[strings.LastIndexByte(w, '.')+1:]]
	}
	named := false
	for _, g := range c.Gone {
		if !codeWord.MatchString(g) || known(g) {
			continue
		}
		for _, cm := range c.Came {
			// A code-shaped word for one, or two names a rename or typo
			// fix relates ("LookupValue" for "Lookup").
			if codeWord.MatchString(cm) && known(cm) && (looksLikeCode(g) && looksLikeCode(cm) || near(g, cm) && exported(g) && exported(cm)) {
				named = true
			}
		}
	}
	if named {
		out = append(out, "name")
	}
	if params != nil {
		for _, cm := range c.Came {
			if params[cm] {
				for _, g := range c.Gone {
					if !params[g] && codeWord.MatchString(g) {
						out = append(out, "parameter")
						break
					}
				}
				break
			}
		}
	}
	goneNum, cameNum := false, false
	for _, g := range c.Gone {
		goneNum = goneNum || number.MatchString(g)
	}
	for _, cm := range c.Came {
		cameNum = cameNum || number.MatchString(cm)
	}
	if goneNum && cameNum {
		out = append(out, "literal")
	}
	newLinks := map[string]bool{}
	for _, l := range localLinks(c.New) {
		newLinks[l] = true
	}
	for _, l := range localLinks(c.Old) {
		if !newLinks[l] {
			out = append(out, "link")
			break
		}
	}
	return out
}

var (
	selectorRE = regexp.MustCompile(`\.([A-Z][A-Za-z0-9_]*)\b`)
	numWord    = regexp.MustCompile(`^\d+(\.\d+)?`)
)

// strong checks the signals against the older version's tree.
func strong(c Candidate, older string, decl, lits map[string]bool, removed []string) []string {
	var out []string
	if contains(c.Signals, "name") || contains(c.Signals, "parameter") {
		for _, g := range c.Gone {
			for _, cm := range c.Came {
				if near(g, cm) && !decl[strings.TrimSuffix(g, "()")] && decl[strings.TrimSuffix(cm, "()")] {
					out = append(out, "name")
					break
				}
			}
			if len(out) > 0 {
				break
			}
		}
	}
	if contains(c.Signals, "literal") {
		for _, cm := range c.Came {
			if n := numWord.FindString(cm); n != "" && lits[n] {
				out = append(out, "literal")
				break
			}
		}
	}
	if contains(c.Signals, "link") {
		for _, l := range localLinks(c.Old) {
			if strings.HasPrefix(l, "#") || strings.Contains(l, "://") {
				continue
			}
			if !strings.ContainsAny(l, "/.") || strings.HasPrefix(l, "*") {
				if !decl[strings.TrimPrefix(l, "*")] {
					out = append(out, "link")
					break
				}
				continue
			}
			t := strings.SplitN(l, "#", 2)[0]
			if _, err := os.Stat(filepath.Join(older, filepath.Dir(c.Path), t)); err != nil {
				out = append(out, "link")
				break
			}
		}
	}
	if contains(c.Signals, "snippet") {
		for _, l := range removed {
			for _, m := range selectorRE.FindAllStringSubmatch(l, -1) {
				if !decl[m[1]] {
					out = append(out, "snippet")
					break
				}
			}
			if contains(out, "snippet") {
				break
			}
		}
	}
	return out
}

// near is true for two names a rename or typo fix relates: a shared
// prefix or suffix of four or more letters, or an edit distance of at
// most two.
func near(a, b string) bool {
	if a == b {
		return false
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p >= 4 || s >= 4 || max(len(a), len(b))-p-s <= 2
}

// literals collects the number literals of the tree's Go code and the go
// directive of its go.mod.
func literals(dir string) map[string]bool {
	out := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) == 2 && f[0] == "go" {
				out[f[1]] = true
			}
		}
	}
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if bl, ok := n.(*ast.BasicLit); ok && (bl.Kind == token.INT || bl.Kind == token.FLOAT) {
				out[bl.Value] = true
			}
			return true
		})
		return nil
	})
	return out
}

// linkRE matches Markdown link targets and Go doc links.
var linkRE = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)|\[([A-Za-z_*][\w.*]*)\]`)

// localLinks returns the link targets of s that the repository resolves:
// relative Markdown targets and anchors, and Go doc links (web addresses
// cannot be checked offline and are left out).
func localLinks(s string) []string {
	var out []string
	for _, m := range linkRE.FindAllStringSubmatchIndex(s, -1) {
		var t string
		switch {
		case m[2] >= 0:
			t = s[m[2]:m[3]]
		case m[1] < len(s) && (s[m[1]] == '(' || s[m[1]] == '['):
			continue // the text of a link whose target is not a plain one
		default:
			t = s[m[4]:m[5]]
		}
		if strings.Contains(t, "://") || strings.HasPrefix(t, "mailto:") {
			continue
		}
		out = append(out, t)
	}
	return out
}

func exported(w string) bool { return w != "" && w[0] >= 'A' && w[0] <= 'Z' }

// looksLikeCode is true for a word written as code: a dotted name, a call,
// or a name with an upper-case letter after its first.
func looksLikeCode(w string) bool {
	if strings.ContainsAny(w, "._(") {
		return true
	}
	for i, r := range w {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?|\d[\d.,]*[A-Za-z%]*`)

// wordDiff returns the words of old not in new and of new not in old, as
// multisets, in order of appearance.
func wordDiff(old, new string) (gone, came []string) {
	ow := wordRE.FindAllString(webAddr.ReplaceAllString(old, " "), -1)
	nw := wordRE.FindAllString(webAddr.ReplaceAllString(new, " "), -1)
	count := func(ws []string) map[string]int {
		m := map[string]int{}
		for _, w := range ws {
			m[w]++
		}
		return m
	}
	nc := count(nw)
	for _, w := range ow {
		if nc[w] > 0 {
			nc[w]--
			continue
		}
		gone = append(gone, w)
	}
	oc := count(ow)
	for _, w := range nw {
		if oc[w] > 0 {
			oc[w]--
			continue
		}
		came = append(came, w)
	}
	return gone, came
}

func allComments(lines []string) bool {
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
			return false
		}
	}
	return true
}

func hasCodeLine(lines []string) bool {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "//\t") || strings.HasPrefix(t, "//    ") {
			return true
		}
	}
	return false
}

func commentText(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		t := strings.TrimPrefix(strings.TrimSpace(l), "//")
		b.WriteString(strings.TrimPrefix(t, " "))
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// goDocs are a Go file's doc comment groups.
type goDocs struct {
	groups []docGroup
}

type docGroup struct {
	start, end int
	symbol     string
	params     map[string]bool
}

// at returns the doc group covering lines start..end.
func (d *goDocs) at(start, end int) (string, map[string]bool, bool) {
	for _, g := range d.groups {
		if g.start <= start && end <= g.end {
			return g.symbol, g.params, true
		}
	}
	return "", nil, false
}

func parseDocs(path string) *goDocs {
	d := &goDocs{}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return d
	}
	add := func(g *ast.CommentGroup, sym string, params map[string]bool) {
		if g != nil {
			d.groups = append(d.groups, docGroup{fset.Position(g.Pos()).Line, fset.Position(g.End()).Line, sym, params})
		}
	}
	add(f.Doc, "package "+f.Name.Name, nil)
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			name := decl.Name.Name
			if decl.Recv != nil && len(decl.Recv.List) > 0 {
				name = retrieval.ReceiverTypeName(decl.Recv.List[0].Type) + "." + name
			}
			ps := map[string]bool{}
			for _, fl := range []*ast.FieldList{decl.Recv, decl.Type.Params, decl.Type.Results, decl.Type.TypeParams} {
				if fl == nil {
					continue
				}
				for _, fd := range fl.List {
					for _, n := range fd.Names {
						ps[n.Name] = true
					}
				}
			}
			add(decl.Doc, name, ps)
		case *ast.GenDecl:
			first := ""
			for _, sp := range decl.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					if first == "" {
						first = sp.Name.Name
					}
					add(sp.Doc, sp.Name.Name, nil)
					if st, ok := sp.Type.(*ast.StructType); ok {
						for _, fd := range st.Fields.List {
							for _, n := range fd.Names {
								add(fd.Doc, sp.Name.Name+"."+n.Name, nil)
							}
						}
					}
					if it, ok := sp.Type.(*ast.InterfaceType); ok {
						for _, fd := range it.Methods.List {
							for _, n := range fd.Names {
								add(fd.Doc, sp.Name.Name+"."+n.Name, nil)
							}
						}
					}
				case *ast.ValueSpec:
					if len(sp.Names) > 0 {
						if first == "" {
							first = sp.Names[0].Name
						}
						add(sp.Doc, sp.Names[0].Name, nil)
					}
				}
			}
			add(decl.Doc, first, nil)
		}
	}
	return d
}

// declared collects every identifier the module's Go files spell (what they
// declare and what they use, imports included), and "T.M" for methods and
// fields: a name outside it appears nowhere in the module's code.
func declared(dir string) map[string]bool {
	names := map[string]bool{}
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		names[f.Name.Name] = true
		for _, imp := range f.Imports {
			if imp.Name != nil {
				names[imp.Name.Name] = true
			}
			ip, _ := strconv.Unquote(imp.Path.Value)
			names[ip[strings.LastIndexByte(ip, '/')+1:]] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				names[n.Name.Name] = true
				if n.Recv != nil && len(n.Recv.List) > 0 {
					names[retrieval.ReceiverTypeName(n.Recv.List[0].Type)+"."+n.Name.Name] = true
				}
			case *ast.TypeSpec:
				names[n.Name.Name] = true
				if st, ok := n.Type.(*ast.StructType); ok {
					for _, fd := range st.Fields.List {
						for _, nm := range fd.Names {
							names[n.Name.Name+"."+nm.Name] = true
						}
					}
				}
			case *ast.Ident:
				names[n.Name] = true
			}
			return true
		})
		return nil
	})
	return names
}

// goFences marks, per line (1-based), whether it lies inside a ```go fence.
func goFences(path string) []bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	lines := strings.Split(string(b), "\n")
	in := make([]bool, len(lines)+2)
	fence := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case !fence && (strings.HasPrefix(t, "```go") || strings.HasPrefix(t, "```golang")):
			fence = true
		case fence && strings.HasPrefix(t, "```"):
			fence = false
		case fence:
			in[i+1] = true
		}
	}
	return in
}

func inFence(in []bool, start, end int) bool {
	for l := start; l <= end && l < len(in); l++ {
		if in[l] {
			return true
		}
	}
	return false
}
