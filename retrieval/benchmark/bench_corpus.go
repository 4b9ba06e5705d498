package benchmark

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing/fstest"
	"time"
	"unicode"
	"unicode/utf8"
)

// scanResult is what the benchmark learns from the tree before indexing.
type scanResult struct {
	// files lists every regular file, slash-separated and sorted; bytes is
	// their total size.
	files []string
	bytes int64
	// goFiles lists the non-test .go files outside testdata and vendor
	// directories, sorted: the candidates for edits.
	goFiles []string
	// idents holds the exported func, method and type names they declare,
	// sorted and unique; phrases the first lines of their doc comments, in
	// file order.
	idents  []string
	phrases []string
}

// benchMinPhraseWords is the fewest words a doc comment's first line needs
// to serve as a behaviour phrase.
const benchMinPhraseWords = 6

// scanTree lists the regular files under root and reads the Go ones for
// identifiers and doc sentences.
func scanTree(ctx context.Context, root string) (scanResult, error) {
	var sc scanResult
	identSet := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		sc.files = append(sc.files, rel)
		sc.bytes += info.Size()
		if !goSource(rel) {
			return nil
		}
		sc.goFiles = append(sc.goFiles, rel)
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sc.phrases = append(sc.phrases, scanGo(src, identSet)...)
		return nil
	})
	if err != nil {
		return scanResult{}, fmt.Errorf("scan %s: %w", root, err)
	}
	if len(sc.files) == 0 {
		return scanResult{}, fmt.Errorf("scan %s: no files", root)
	}
	slices.Sort(sc.files)
	slices.Sort(sc.goFiles)
	for id := range identSet {
		sc.idents = append(sc.idents, id)
	}
	slices.Sort(sc.idents)
	return sc, nil
}

// goSource reports whether p is a non-test Go file outside testdata and
// vendor directories.
func goSource(p string) bool {
	if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
		return false
	}
	for _, e := range strings.Split(path.Dir(p), "/") {
		if e == "testdata" || e == "vendor" {
			return false
		}
	}
	return true
}

// scanGo adds the exported top-level func, method and type names of a Go
// file to idents and returns the first lines of their doc comments that
// read as sentences. It is a line scan, not a parse: good enough to pick
// queries.
func scanGo(src []byte, idents map[string]bool) []string {
	var phrases []string
	first := "" // first line of the doc comment just above, if any
	inDoc := false
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if c, ok := strings.CutPrefix(line, "// "); ok {
			if !inDoc {
				first, inDoc = c, true
			}
			continue
		}
		name := declName(line)
		if name != "" && exportedName(name) {
			idents[name] = true
			if inDoc && strings.HasPrefix(first, name+" ") && len(strings.Fields(first)) >= benchMinPhraseWords {
				phrases = append(phrases, first)
			}
		}
		first, inDoc = "", false
	}
	return phrases
}

// declName returns the name a top-level "func", "func (recv)" or "type"
// line declares, or "".
func declName(line string) string {
	rest, ok := strings.CutPrefix(line, "func ")
	if !ok {
		if rest, ok = strings.CutPrefix(line, "type "); !ok {
			return ""
		}
	} else if strings.HasPrefix(rest, "(") {
		i := strings.Index(rest, ") ")
		if i < 0 {
			return ""
		}
		rest = rest[i+2:]
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if end < 0 {
		end = len(rest)
	}
	return rest[:end]
}

// exportedName reports whether name starts with an upper-case letter.
func exportedName(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// benchQueries picks n queries: n/2 identifiers spread evenly over the
// corpus's exported names, and the rest behaviour phrases, first those of
// labelled (the labelled set), then doc sentences spread evenly over the
// corpus.
func benchQueries(sc scanResult, labelled []string, n int) (idents, phrases []string) {
	idents = spread(sc.idents, n/2)
	np := n - len(idents)
	phrases = append(phrases, labelled[:min(len(labelled), np)]...)
	phrases = append(phrases, spread(sc.phrases, np-len(phrases))...)
	return idents, phrases
}

// spread returns n elements of list at even intervals (all of list when it
// is shorter).
func spread(list []string, n int) []string {
	if n <= 0 {
		return nil
	}
	if len(list) <= n {
		return slices.Clone(list)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = list[i*len(list)/n]
	}
	return out
}

// editFiles returns new contents for n of files (spread evenly): each gets
// a function named after benchEditMarker appended, a new chunk that a
// search can find.
func editFiles(fsys fs.FS, files []string, n int) (fstest.MapFS, error) {
	out := fstest.MapFS{}
	for i, p := range spread(files, n) {
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("edit %s: %w", p, err)
		}
		edit := fmt.Sprintf("\n// %s%d is an edit made by docreview bench.\nfunc %s%d() {}\n", benchEditMarker, i, benchEditMarker, i)
		out[p] = &fstest.MapFile{Data: append(slices.Clip(src), edit...), Mode: 0o644, ModTime: time.Now()}
	}
	return out, nil
}

// overlayFS is base with the files of over in place of base's.
type overlayFS struct {
	base fs.FS
	over fstest.MapFS
}

// Open opens name from over if it holds it, else from base.
func (o overlayFS) Open(name string) (fs.File, error) {
	if _, ok := o.over[name]; ok {
		return o.over.Open(name)
	}
	return o.base.Open(name)
}

// Stat stats name in over if it holds it, else in base.
func (o overlayFS) Stat(name string) (fs.FileInfo, error) {
	if _, ok := o.over[name]; ok {
		return o.over.Stat(name)
	}
	return fs.Stat(o.base, name)
}

// ReadFile reads name from over if it holds it, else from base.
func (o overlayFS) ReadFile(name string) ([]byte, error) {
	if _, ok := o.over[name]; ok {
		return o.over.ReadFile(name)
	}
	return fs.ReadFile(o.base, name)
}

// latencyOf returns the median and 99th percentile of times (nearest
// rank).
func latencyOf(times []time.Duration) Latency {
	if len(times) == 0 {
		return Latency{}
	}
	s := slices.Clone(times)
	slices.Sort(s)
	rank := func(p float64) time.Duration {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return Latency{N: len(s), P50: Duration(rank(0.50)), P99: Duration(rank(0.99))}
}

// loadAverage returns the 1, 5 and 15 minute load averages of a Linux
// machine, "" elsewhere.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
