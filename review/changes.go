package review

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review/diff"
)

// The kinds of [SymbolRef].
const (
	SymbolFunc   = "func"
	SymbolMethod = "method" // a method, or a method of an interface type
	SymbolType   = "type"
	SymbolField  = "field" // a struct field, embedded fields included
	SymbolConst  = "const"
	SymbolVar    = "var"
)

// SymbolRef locates a Go declaration on one side of a diff.
type SymbolRef struct {
	// Dir is the slash-separated directory of the declaring package,
	// relative to the repository root ("." for the root).
	Dir string
	// Package is the name in the package clause ("cache"; "cache_test"
	// for external test files).
	Package string
	// Name is the declared name, qualified by its type for methods, fields
	// and interface methods: "New", "Cache.Purge", "Options.Timeout".
	Name string
	// Kind is one of SymbolFunc, SymbolMethod, SymbolType, SymbolField,
	// SymbolConst, SymbolVar.
	Kind string
	// Path is the declaring file, slash-separated and relative to the
	// repository root.
	Path string
	// Line and EndLine are the 1-based lines of the declaration, doc
	// comment excluded.
	Line, EndLine int
}

// Rename is a declaration the diff removed together with the one it
// added in its place.
type Rename struct {
	// Old is the declaration at base, New the one at head.
	Old, New SymbolRef
}

// Changes lists the Go declarations a diff changes, removes or renames.
// The zero value means the diff changes no declaration.
type Changes struct {
	// Changed holds declarations present on both sides whose code (comments
	// and layout aside) differs, located at head.
	Changed []SymbolRef
	// Removed holds declarations of base that no longer exist in their
	// package at head and were not renamed, located at base.
	Removed []SymbolRef
	// Renamed holds the removed declarations that were paired with a
	// declaration added in the same file or package: same kind, same number
	// of parameters, for members the same (or the renamed) type, and no
	// other candidate either way; among several candidates, the one whose
	// code is the same but for the name.
	Renamed []Rename
}

// Empty reports whether the diff changes no declaration.
func (c Changes) Empty() bool {
	return len(c.Changed) == 0 && len(c.Removed) == 0 && len(c.Renamed) == 0
}

// Changes compares the Go declarations of the packages the diff of
// w touches at base (w.BaseFS) and head (w.HeadFS). A declaration of a
// diffed file at base whose lines intersect the deleted lines, or a
// declaration of a diffed file at head whose lines intersect the added
// lines, is changed when its tokens differ between the sides; one that no
// longer exists in its directory at head is removed, unless it pairs with
// a declaration new at head as a [Rename]. Declarations are matched by
// directory and qualified name, so moving code between files of a package
// changes nothing. A nil BaseFS means every declaration is new, and gives
// no changes. Files that do not parse are ignored, as are missing
// directories. Results are sorted by directory and name.
//
// Errors reading a directory or file are returned, joined, together with
// the changes computed from the rest; a nil w or HeadFS is an error.
// They are computed once per workspace ([Workspace.Shared]): the
// extractor and every rule that asks share one result.
func (w *Workspace) Changes(ctx context.Context) (Changes, error) {
	v, err := w.Shared(changesKey{}, func() (any, error) { return changedSymbols(ctx, w) })
	c, _ := v.(Changes)
	return c, err
}

// changesKey is the [Workspace.Shared] key of [Workspace.Changes].
type changesKey struct{}

// changedSymbols computes [Workspace.Changes].
func changedSymbols(ctx context.Context, ws *Workspace) (Changes, error) {
	if ws == nil || ws.HeadFS == nil {
		return Changes{}, errors.New("changed symbols: workspace has no head files")
	}
	dirs := map[string]bool{}
	renamedTo := map[string]string{} // old path -> new path
	var files []diff.File
	for _, f := range ws.Diff {
		if f.Binary {
			continue
		}
		old, cur := goSide(f.OldPath, f.Status != diff.Added), goSide(f.NewPath, f.Status != diff.Deleted)
		if old == "" && cur == "" {
			continue
		}
		if old != "" {
			dirs[path.Dir(old)] = true
		}
		if cur != "" {
			dirs[path.Dir(cur)] = true
		}
		if old != "" && cur != "" {
			renamedTo[old] = cur
		}
		files = append(files, f)
	}
	if len(files) == 0 || ws.BaseFS == nil {
		return Changes{}, nil
	}
	var errs []error
	base, err := loadDecls(ctx, ws.BaseFS, dirs)
	if err != nil {
		errs = append(errs, fmt.Errorf("base: %w", err))
	}
	head, err := loadDecls(ctx, ws.HeadFS, dirs)
	if err != nil {
		errs = append(errs, fmt.Errorf("head: %w", err))
	}
	if err := ctx.Err(); err != nil {
		return Changes{}, err
	}

	changed := map[string]*decl{}
	var removed, added []*decl
	for _, f := range files {
		if old := goSide(f.OldPath, f.Status != diff.Added); old != "" {
			for _, b := range base.byPath[old] {
				h := head.lookup(b.Dir, b.Name)
				switch {
				case h == nil:
					removed = append(removed, b)
				case overlaps(f.Deleted, b.Line, b.EndLine) && !sameTokens(b, h):
					changed[h.key()] = h
				}
			}
		}
		if cur := goSide(f.NewPath, f.Status != diff.Deleted); cur != "" {
			for _, h := range head.byPath[cur] {
				if !f.Touches(h.Line, h.EndLine) {
					continue
				}
				b := base.lookup(h.Dir, h.Name)
				switch {
				case b == nil:
					added = append(added, h)
				case !sameTokens(b, h):
					changed[h.key()] = h
				}
			}
		}
	}

	var out Changes
	renames, rest := pairRenames(removed, added, renamedTo)
	out.Renamed = renames
	for _, d := range rest {
		out.Removed = append(out.Removed, d.SymbolRef)
	}
	for _, d := range changed {
		out.Changed = append(out.Changed, d.SymbolRef)
	}
	sortRefs(out.Changed)
	sortRefs(out.Removed)
	sort.Slice(out.Renamed, func(i, j int) bool { return refLess(out.Renamed[i].Old, out.Renamed[j].Old) })
	return out, errors.Join(errs...)
}

// goSide returns p when it names a Go file present on that side of the diff.
func goSide(p string, present bool) string {
	if !present || !strings.HasSuffix(p, ".go") {
		return ""
	}
	return p
}

func sortRefs(rs []SymbolRef) {
	sort.Slice(rs, func(i, j int) bool { return refLess(rs[i], rs[j]) })
}

func refLess(a, b SymbolRef) bool {
	if a.Dir != b.Dir {
		return a.Dir < b.Dir
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	return a.Path < b.Path
}

// decl is a declaration with what comparing and pairing need.
type decl struct {
	SymbolRef
	params   int
	src      []byte // the declaration's source, comments included
	toksOnce bool
	toks     string
}

func (d *decl) key() string { return d.Dir + "\x00" + d.Name }

// tokens returns the declaration's tokens without comments, semicolons
// and trailing commas, so that re-flowing code or editing comments does
// not change it.
func (d *decl) tokens() string {
	if d.toksOnce {
		return d.toks
	}
	d.toksOnce = true
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(d.src))
	var s scanner.Scanner
	s.Init(f, d.src, nil, 0)
	type tk struct {
		tok token.Token
		lit string
	}
	var toks []tk
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.SEMICOLON {
			toks = append(toks, tk{tok, lit})
		}
	}
	var sb strings.Builder
	for i, t := range toks {
		if t.tok == token.COMMA && i+1 < len(toks) {
			if n := toks[i+1].tok; n == token.RBRACE || n == token.RPAREN || n == token.RBRACK {
				continue
			}
		}
		sb.WriteString(t.tok.String())
		sb.WriteByte(' ')
		sb.WriteString(t.lit)
		sb.WriteByte('\n')
	}
	d.toks = sb.String()
	return d.toks
}

func sameTokens(a, b *decl) bool { return a.tokens() == b.tokens() }

// sameUnnamed reports whether a and b have the same tokens once the first
// occurrence of each one's own name is dropped: the same code under two
// names.
func sameUnnamed(a, b *decl) bool {
	unnamed := func(d *decl) string {
		name := d.Name
		if _, m, ok := strings.Cut(name, "."); ok {
			name = m
		}
		return strings.Replace(d.tokens(), "IDENT "+name+"\n", "", 1)
	}
	return unnamed(a) == unnamed(b)
}

// declSet holds the declarations of some package directories on one side.
type declSet struct {
	byPath map[string][]*decl
	byKey  map[string]*decl
}

func (s *declSet) lookup(dir, name string) *decl { return s.byKey[dir+"\x00"+name] }

// loadDecls parses the Go files of dirs in fsys. Declarations of non-test
// files win over same-named ones of test files.
func loadDecls(ctx context.Context, fsys fs.FS, dirs map[string]bool) (*declSet, error) {
	set := &declSet{byPath: map[string][]*decl{}, byKey: map[string]*decl{}}
	var errs []error
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, dir := range names {
		if err := ctx.Err(); err != nil {
			return set, err
		}
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("read directory %s: %w", dir, err))
			}
			continue
		}
		var tests []string
		var plain []string
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") {
				continue
			}
			p := path.Join(dir, n)
			if strings.HasSuffix(n, "_test.go") {
				tests = append(tests, p)
			} else {
				plain = append(plain, p)
			}
		}
		for _, p := range append(plain, tests...) {
			src, err := fs.ReadFile(fsys, p)
			if err != nil {
				errs = append(errs, fmt.Errorf("read %s: %w", p, err))
				continue
			}
			ds := fileDecls(p, src)
			set.byPath[p] = ds
			for _, d := range ds {
				if _, dup := set.byKey[d.key()]; !dup {
					set.byKey[d.key()] = d
				}
			}
		}
	}
	return set, errors.Join(errs...)
}

// fileDecls returns the declarations of one Go file; nil when it does not
// parse.
func fileDecls(p string, src []byte) []*decl {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	dir := path.Dir(p)
	tf := fset.File(f.Pos())
	var out []*decl
	add := func(name, kind string, params int, from, to token.Pos) {
		if name == "" || name == "_" {
			return
		}
		start, end := tf.Offset(from), tf.Offset(to)
		if start < 0 || end > len(src) || start > end {
			return
		}
		out = append(out, &decl{
			SymbolRef: SymbolRef{
				Dir: dir, Package: f.Name.Name, Name: name, Kind: kind, Path: p,
				Line: fset.Position(from).Line, EndLine: fset.Position(to).Line,
			},
			params: params,
			src:    src[start:end],
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name, kind := d.Name.Name, SymbolFunc
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv := retrieval.ReceiverTypeName(d.Recv.List[0].Type)
				if recv == "" {
					continue
				}
				name, kind = recv+"."+name, SymbolMethod
			}
			add(name, kind, d.Type.Params.NumFields(), d.Pos(), d.End())
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add(s.Name.Name, SymbolType, 0, s.Pos(), s.End())
					var list *ast.FieldList
					switch t := s.Type.(type) {
					case *ast.StructType:
						list = t.Fields
					case *ast.InterfaceType:
						list = t.Methods
					}
					if list == nil {
						continue
					}
					for _, fl := range list.List {
						kind, params := SymbolField, 0
						if ft, ok := fl.Type.(*ast.FuncType); ok {
							kind, params = SymbolMethod, ft.Params.NumFields()
						}
						for _, n := range fl.Names {
							add(s.Name.Name+"."+n.Name, kind, params, fl.Pos(), fl.End())
						}
						if len(fl.Names) == 0 {
							if n := retrieval.ReceiverTypeName(fl.Type); n != "" {
								add(s.Name.Name+"."+n, kind, params, fl.Pos(), fl.End())
							}
						}
					}
				case *ast.ValueSpec:
					kind := SymbolVar
					if d.Tok == token.CONST {
						kind = SymbolConst
					}
					for _, n := range s.Names {
						add(n.Name, kind, 0, s.Pos(), s.End())
					}
				}
			}
		}
	}
	return out
}

// pairRenames pairs removed declarations with added ones. Top-level
// declarations pair first; members of a renamed type then follow their
// type; other members pair within the same type.
func pairRenames(removed, added []*decl, renamedTo map[string]string) ([]Rename, []*decl) {
	paired := map[*decl]bool{}
	var renames []Rename
	typeRenames := map[string]string{} // dir + old type -> new type
	parent := func(d *decl) string {
		p, _, ok := strings.Cut(d.Name, ".")
		if !ok {
			return ""
		}
		return p
	}
	newPath := func(p string) string {
		if n, ok := renamedTo[p]; ok {
			return n
		}
		return p
	}
	similar := func(r, a *decl) bool {
		if r.Dir != a.Dir || r.Kind != a.Kind || r.params != a.params || paired[r] || paired[a] {
			return false
		}
		pr, pa := parent(r), parent(a)
		if pr == "" || pa == "" {
			return pr == pa
		}
		return pr == pa || typeRenames[r.Dir+"\x00"+pr] == pa
	}
	// choose returns the single candidate among cands, preferring those
	// in want's file, or nil.
	choose := func(cands []*decl, file func(*decl) bool) *decl {
		var same []*decl
		for _, c := range cands {
			if file(c) {
				same = append(same, c)
			}
		}
		if len(same) > 0 {
			cands = same
		}
		if len(cands) == 1 {
			return cands[0]
		}
		return nil
	}
	// chooseBody narrows several candidates of r to the one whose code,
	// its name aside, is r's: two methods renamed in one diff pair by
	// their bodies.
	chooseBody := func(r *decl, cands []*decl) []*decl {
		if len(cands) < 2 {
			return cands
		}
		var same []*decl
		for _, c := range cands {
			if sameUnnamed(r, c) {
				same = append(same, c)
			}
		}
		if len(same) == 1 {
			return same
		}
		return cands
	}
	pass := func(members bool) {
		for _, r := range removed {
			if paired[r] || (parent(r) != "") != members {
				continue
			}
			if members {
				// A member of a renamed type keeps its name.
				if nt, ok := typeRenames[r.Dir+"\x00"+parent(r)]; ok {
					_, m, _ := strings.Cut(r.Name, ".")
					for _, a := range added {
						if !paired[a] && a.Dir == r.Dir && a.Kind == r.Kind && a.Name == nt+"."+m {
							paired[r], paired[a] = true, true
							renames = append(renames, Rename{Old: r.SymbolRef, New: a.SymbolRef})
							break
						}
					}
					if paired[r] {
						continue
					}
				}
			}
			var cands []*decl
			for _, a := range added {
				if similar(r, a) {
					cands = append(cands, a)
				}
			}
			a := choose(chooseBody(r, cands), func(a *decl) bool { return a.Path == newPath(r.Path) })
			if a == nil {
				continue
			}
			var back []*decl
			for _, r2 := range removed {
				if similar(r2, a) {
					back = append(back, r2)
				}
			}
			if choose(chooseBody(a, back), func(r2 *decl) bool { return newPath(r2.Path) == a.Path }) != r {
				continue
			}
			paired[r], paired[a] = true, true
			renames = append(renames, Rename{Old: r.SymbolRef, New: a.SymbolRef})
			if r.Kind == SymbolType {
				typeRenames[r.Dir+"\x00"+r.Name] = a.Name
			}
		}
	}
	pass(false)
	pass(true)
	var rest []*decl
	for _, r := range removed {
		if !paired[r] {
			rest = append(rest, r)
		}
	}
	return renames, rest
}

// overlaps reports whether the inclusive line span [from, to] intersects any
// of the ranges.
func overlaps(ranges []diff.Range, from, to int) bool {
	for _, r := range ranges {
		if r.Start <= to && from <= r.End {
			return true
		}
	}
	return false
}
