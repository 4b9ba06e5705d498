package benchmark

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/docreview/docreview/retrieval"
)

// The labelled set and the example repository it refers to, as files of
// this package so that the benchmark runs from any directory.
var (
	//go:embed testdata/quality/pairs.json
	pairsJSON []byte
	//go:embed testdata/quality/inventory.txtar
	inventoryTxtar []byte
)

// Corpus names of [Item.Corpus].
const (
	// CorpusExample is the bundled example repository
	// (examples/inventory/03-hold-and-sweep), embedded in this package.
	CorpusExample = "example"
	// corpusStdlibPrefix starts a standard library corpus:
	// "stdlib:sync,internal/sync" names package directories of
	// GOROOT/src.
	corpusStdlibPrefix = "stdlib:"
)

// Item is one labelled query: a documentation claim (or a query a reviewer
// would type) and the evidence that decides it.
type Item struct {
	// ID names the item in reports; unique within the set.
	ID string `json:"id"`
	// Query is the claim's text, searched by the lexical and dense
	// channels.
	Query string `json:"query"`
	// Symbol is the claim's subject, as a doc comment or a Markdown
	// mention of it gives it ("Store.Hold", "csvimport.Import"): the input
	// of the structural channel. Empty for claims without one; the
	// structural channel then finds nothing.
	Symbol string `json:"symbol,omitempty"`
	// FromDir is the package directory Symbol is written in, relative to
	// the corpus root ("." for the root).
	FromDir string `json:"from_dir,omitempty"`
	// Corpus is [CorpusExample] or "stdlib:DIR[,DIR...]", the package
	// directories of GOROOT/src that must be indexed to answer the item.
	Corpus string `json:"corpus"`
	// ClaimPath is the file the claim is written in.
	ClaimPath string `json:"claim_path"`
	// Expected lists the evidence that decides the claim; finding any one
	// of them counts as a hit.
	Expected []Evidence `json:"expected"`
	// CrossFile is true when no expected evidence is in ClaimPath: the
	// retriever has to follow a chain out of the claim's file.
	CrossFile bool `json:"cross_file"`
}

// Evidence is a Go declaration that decides a claim.
type Evidence struct {
	// Path is the file, relative to the corpus root (GOROOT/src for the
	// standard library).
	Path string `json:"path"`
	// Symbol is the declaration as [retrieval.Chunk.Symbol] names it:
	// "Store.Hold" for a method, "New" for a func, type, const or var (any
	// name of a grouped const or var declaration).
	Symbol string `json:"symbol"`
}

// StdlibDirs returns the GOROOT/src package directories of a standard
// library item's corpus, and nil for the example.
func (it Item) StdlibDirs() []string {
	rest, ok := strings.CutPrefix(it.Corpus, corpusStdlibPrefix)
	if !ok {
		return nil
	}
	return strings.Split(rest, ",")
}

// Pairs returns the labelled set embedded in this package
// (testdata/quality/pairs.json), in file order. It returns an error if the
// set does not parse or an item is malformed: a missing ID, query, corpus,
// claim path or expected evidence, a repeated ID, an unknown corpus, or a
// CrossFile flag that disagrees with the paths.
func Pairs() ([]Item, error) {
	return parsePairs(pairsJSON)
}

// parsePairs decodes and checks a labelled set.
func parsePairs(data []byte) ([]Item, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var items []Item
	if err := dec.Decode(&items); err != nil {
		return nil, fmt.Errorf("parse labelled set: %w", err)
	}
	seen := make(map[string]bool, len(items))
	for i, it := range items {
		if err := it.check(); err != nil {
			return nil, fmt.Errorf("labelled set item %d (%q): %w", i+1, it.ID, err)
		}
		if seen[it.ID] {
			return nil, fmt.Errorf("labelled set item %d: repeated id %q", i+1, it.ID)
		}
		seen[it.ID] = true
	}
	return items, nil
}

// check reports what is wrong with a labelled item.
func (it Item) check() error {
	switch {
	case it.ID == "":
		return errors.New("no id")
	case strings.TrimSpace(it.Query) == "":
		return errors.New("no query")
	case it.ClaimPath == "" || !fs.ValidPath(it.ClaimPath):
		return fmt.Errorf("bad claim_path %q", it.ClaimPath)
	case len(it.Expected) == 0:
		return errors.New("no expected evidence")
	case it.Symbol != "" && it.FromDir == "":
		return errors.New("symbol without from_dir")
	}
	if it.Corpus != CorpusExample {
		dirs := it.StdlibDirs()
		if len(dirs) == 0 {
			return fmt.Errorf("unknown corpus %q (want %q or %q)", it.Corpus, CorpusExample, corpusStdlibPrefix+"DIR,...")
		}
		for _, d := range dirs {
			if d == "" || d == "." || !fs.ValidPath(d) {
				return fmt.Errorf("corpus %q: bad directory %q", it.Corpus, d)
			}
		}
	}
	cross := true
	for _, ev := range it.Expected {
		if ev.Path == "" || !fs.ValidPath(ev.Path) || ev.Symbol == "" {
			return fmt.Errorf("bad expected evidence %+v", ev)
		}
		if ev.Path == it.ClaimPath {
			cross = false
		}
	}
	if cross != it.CrossFile {
		return fmt.Errorf("cross_file is %v but the expected evidence says %v", it.CrossFile, cross)
	}
	return nil
}

// Corpus is a set of files to index: a repository at one commit.
type Corpus struct {
	// Name says what the corpus is in reports ("stdlib", "example").
	Name string
	// FS holds the files.
	FS fs.FS
	// Files lists the paths in FS to index, slash-separated and sorted.
	Files []string
}

// ExampleCorpus returns the bundled example repository: the files of
// examples/inventory/03-hold-and-sweep (module example.com/inventory),
// embedded in this package.
func ExampleCorpus() (Corpus, error) {
	files, err := parseTxtar(inventoryTxtar)
	if err != nil {
		return Corpus{}, fmt.Errorf("example corpus: %w", err)
	}
	return mapCorpus(CorpusExample, files), nil
}

// StdlibCorpus returns the regular files directly in the package
// directories dirs of goroot's src (not their subdirectories), read into
// memory. Only those files are visible, so the standard library's go.mod
// stays out and each directory's import path is the directory itself, as
// in the standard library. It returns an error if goroot is empty or a
// directory does not read.
func StdlibCorpus(goroot string, dirs []string) (Corpus, error) {
	if goroot == "" {
		return Corpus{}, errors.New("stdlib corpus: no GOROOT given")
	}
	src := filepath.Join(goroot, "src")
	files := make(map[string][]byte)
	for _, d := range dirs {
		ents, err := os.ReadDir(filepath.Join(src, filepath.FromSlash(d)))
		if err != nil {
			return Corpus{}, fmt.Errorf("stdlib corpus: %w", err)
		}
		for _, e := range ents {
			if !e.Type().IsRegular() {
				continue
			}
			p := path.Join(d, e.Name())
			data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(p)))
			if err != nil {
				return Corpus{}, fmt.Errorf("stdlib corpus: %w", err)
			}
			files[p] = data
		}
	}
	return mapCorpus("stdlib", files), nil
}

// mapCorpus makes an in-memory corpus of files.
func mapCorpus(name string, files map[string][]byte) Corpus {
	fsys := make(fstest.MapFS, len(files))
	list := make([]string, 0, len(files))
	for p, data := range files {
		fsys[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		list = append(list, p)
	}
	slices.Sort(list)
	return Corpus{Name: name, FS: fsys, Files: list}
}

// parseTxtar parses a txtar archive ("-- name --" lines, each followed by
// the file's contents) into its files; the comment before the first file
// is ignored.
func parseTxtar(data []byte) (map[string][]byte, error) {
	files := make(map[string][]byte)
	var name string
	var body []byte
	flush := func() error {
		if name == "" {
			return nil
		}
		if !fs.ValidPath(name) {
			return fmt.Errorf("txtar: bad file name %q", name)
		}
		if _, dup := files[name]; dup {
			return fmt.Errorf("txtar: file %s appears twice", name)
		}
		files[name] = body
		return nil
	}
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		if n, ok := txtarMarker(line); ok {
			if err := flush(); err != nil {
				return nil, err
			}
			name, body = n, []byte{}
			continue
		}
		if name != "" {
			body = append(append(body, line...), '\n')
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("txtar: no files")
	}
	return files, nil
}

// txtarMarker returns the file name of a "-- name --" line.
func txtarMarker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	return strings.TrimSpace(s[3 : len(s)-3]), true
}

// Locate returns the line of the declared name of sym in the Go file at p
// in fsys: "Name" for a top-level func, type, const or var, "Type.Method"
// for a method, "Type.Field" for a struct field. It returns an error if
// the file does not read or parse, or declares no such name.
func Locate(fsys fs.FS, p, sym string) (int, error) {
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return 0, fmt.Errorf("locate %s in %s: %w", sym, p, err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
	if err != nil {
		return 0, fmt.Errorf("locate %s in %s: %w", sym, p, err)
	}
	recv, name, isMethod := strings.Cut(sym, ".")
	if !isMethod {
		name = recv
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			hasRecv := d.Recv != nil && len(d.Recv.List) > 0
			if d.Name.Name == name && hasRecv == isMethod && (!isMethod || retrieval.ReceiverTypeName(d.Recv.List[0].Type) == recv) {
				return fset.Position(d.Name.Pos()).Line, nil
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if !isMethod && s.Name.Name == name {
						return fset.Position(s.Name.Pos()).Line, nil
					}
					if st, ok := s.Type.(*ast.StructType); ok && isMethod && s.Name.Name == recv {
						for _, f := range st.Fields.List {
							for _, n := range f.Names {
								if n.Name == name {
									return fset.Position(n.Pos()).Line, nil
								}
							}
						}
					}
				case *ast.ValueSpec:
					if isMethod {
						continue
					}
					for _, n := range s.Names {
						if n.Name == name {
							return fset.Position(n.Pos()).Line, nil
						}
					}
				}
			}
		}
	}
	return 0, fmt.Errorf("locate %s in %s: no such declaration", sym, p)
}
