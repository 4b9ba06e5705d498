package completeness

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
)

var _ review.CoverageScorer = Scorer{}

// Scorer is the [review.CoverageScorer] of the engine: it analyzes the Go
// packages a diff touches at base and at head and compares the coverage of
// the exported symbols whose declaration or doc comment the diff touched.
// The zero value is ready to use.
type Scorer struct{}

// Score returns the coverage change of the touched symbols, or nil when
// the diff touches none (or the review has no base). Symbols added by the
// diff count with no facts at base; removed ones are not touched at head
// and do not count. Test files are left out.
func (Scorer) Score(ctx context.Context, ws *review.Workspace) (*review.CoverageChange, error) {
	if ws == nil || ws.Symbols == nil || ws.BaseFS == nil {
		return nil, nil
	}
	dirs, files := touchedGo(ws.Diff)
	if len(dirs) == 0 {
		return nil, nil
	}
	var headDirs []string
	for _, d := range dirs {
		if ws.Symbols.Package(d) != nil {
			headDirs = append(headDirs, d)
		}
	}
	if len(headDirs) == 0 {
		return nil, nil
	}
	after, err := Analyze(ctx, ws.Symbols, headDirs)
	if err != nil {
		return nil, fmt.Errorf("coverage at head: %w", err)
	}
	var touched []string
	for _, s := range after {
		f, ok := files[s.Path]
		if !ok {
			continue
		}
		start, end := s.Line, s.Line
		if sym, found := ws.Symbols.Lookup(path.Dir(s.Path), s.Name); found && sym.EndLine >= sym.Line {
			end = sym.EndLine
		}
		if docLines := strings.Count(strings.TrimRight(s.Doc, "\n"), "\n") + 1; s.Doc != "" {
			start = max(1, s.Line-docLines)
		}
		if f.Status == diff.Added || f.Touches(start, end) {
			touched = append(touched, s.Key())
		}
	}
	if len(touched) == 0 {
		return nil, nil
	}
	before, err := baseSymbols(ctx, ws.Types, ws.BaseFS, dirs)
	if err != nil {
		return nil, err
	}
	sum, err := Compare(before, after, touched)
	if err != nil {
		return nil, fmt.Errorf("compare coverage: %w", err)
	}
	if sum.Symbols == 0 {
		return nil, nil
	}
	return &review.CoverageChange{
		Symbols: sum.Symbols, FactsBefore: sum.BeforeFacts, FactsAfter: sum.AfterFacts,
		StatedBefore: sum.BeforeStated, StatedAfter: sum.AfterStated, Gained: sum.Gained, Lost: sum.Lost,
	}, nil
}

// touchedGo returns the package directories of the non-test Go files the
// diff adds or changes at head, and those files' diff entries by path.
func touchedGo(d []diff.File) ([]string, map[string]diff.File) {
	files := map[string]diff.File{}
	var dirs []string
	for _, f := range d {
		p := f.NewPath
		if f.Status == diff.Deleted || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			continue
		}
		files[p] = f
		if dir := path.Dir(p); !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	slices.Sort(dirs)
	return dirs, files
}

// baseSymbols analyzes the packages in dirs as they were at base, with
// the standard library from types; a directory that held no package there
// contributes nothing.
func baseSymbols(ctx context.Context, types *retrieval.TypeCache, base fs.FS, dirs []string) ([]Symbol, error) {
	var files []string
	for _, d := range dirs {
		entries, err := fs.ReadDir(base, d)
		if err != nil {
			continue // new at head
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
				files = append(files, path.Join(d, e.Name()))
			}
		}
		// go.mod files up the tree give the packages their import paths.
		for dir := d; ; dir = path.Dir(dir) {
			if _, err := fs.Stat(base, path.Join(dir, "go.mod")); err == nil {
				files = append(files, path.Join(dir, "go.mod"))
				break
			}
			if dir == "." || dir == "/" {
				break
			}
		}
	}
	if len(files) == 0 {
		return nil, nil
	}
	slices.Sort(files)
	files = slices.Compact(files)
	syms, err := types.LoadSymbols(ctx, base, files, nil)
	if err != nil {
		return nil, fmt.Errorf("load Go symbols at base: %w", err)
	}
	var have []string
	for _, d := range dirs {
		if syms.Package(d) != nil {
			have = append(have, d)
		}
	}
	if len(have) == 0 {
		return nil, nil
	}
	out, err := Analyze(ctx, syms, have)
	if err != nil {
		return nil, fmt.Errorf("coverage at base: %w", err)
	}
	return out, nil
}
