package retrieval

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// indexExtraChunk is an upstream-like chunk of module example.com/dep with
// the given file, line, symbol and text.
func indexExtraChunk(file string, line int, symbol, text string) Chunk {
	p := "@upstream/example.com/dep@v1.0.0/" + file
	return Chunk{
		ID: p + "#" + strconv.Itoa(line), Path: p, StartLine: line, EndLine: line + strings.Count(text, "\n"),
		Source: SourceUpstream, Symbol: symbol, Heading: "example.com/dep@v1.0.0", Lang: "go", Text: text,
	}
}

// indexSearchIDs returns the IDs of the hits of q, sorted.
func indexSearchIDs(t *testing.T, ix *Index, q Query) []string {
	t.Helper()
	hits, err := ix.Search(t.Context(), q)
	if err != nil {
		t.Fatalf("Search(%q): %v", q.Text, err)
	}
	ids := indexHitIDs(hits)
	slices.Sort(ids)
	return ids
}

// indexBuildCounts is what IndexStats says one build did.
type indexBuildCounts struct {
	Changed, Removed, ExtraChanged, ExtraRemoved, Extra int
	Reused                                              bool
}

func indexCounts(st IndexStats) indexBuildCounts {
	return indexBuildCounts{st.Changed, st.Removed, st.ExtraChanged, st.ExtraRemoved, st.Extra, st.Reused}
}

// TestBuildIndexExtraUpstream indexes the chunks UpstreamChunks makes of
// the fixture module cache beside a repository's files: they are
// searchable, filtered by source, and returned by Chunk, ChunkAt and
// AllChunks as given.
func TestBuildIndexExtraUpstream(t *testing.T) {
	t.Parallel()
	up, _ := upstreamRun(t)
	v1 := indexRepoV1()
	ix := indexMustBuild(t, v1, indexFiles(v1), IndexOptions{Dir: filepath.Join(t.TempDir(), "idx"), Commit: "c1", Extra: up})

	purge := "@upstream/example.com/dep@v1.2.0/dep.go#52"
	cache := "@upstream/example.com/dep@v1.2.0/dep.go#33" // type Cache lists Purge
	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{"all sources", Query{Text: "Purge"}, []string{purge, cache, "b.go#3"}},
		{"upstream only", Query{Text: "Purge", Sources: []Source{SourceUpstream}}, []string{purge, cache}},
		{"code only", Query{Text: "Purge", Sources: []Source{SourceCode}}, []string{"b.go#3"}},
		{"qualified symbol", Query{Text: "dep.ErrMissing", Sources: []Source{SourceUpstream}, TopK: 1}, []string{"@upstream/example.com/dep@v1.2.0/dep.go#21"}},
		{"path prefix", Query{Text: "Helper", PathPrefix: "@upstream/example.com/dep@v1.2.0/sub/"}, []string{"@upstream/example.com/dep@v1.2.0/sub/sub.go#4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if diff := cmp.Diff(want, indexSearchIDs(t, ix, tt.q)); diff != "" {
				t.Errorf("Search(%q) IDs (-want +got):\n%s", tt.q.Text, diff)
			}
		})
	}

	byID := map[string]Chunk{}
	for _, c := range up {
		byID[c.ID] = c
	}
	got, ok, err := ix.Chunk(t.Context(), purge)
	if err != nil || !ok {
		t.Fatalf("Chunk(%s) = %v, %v", purge, ok, err)
	}
	if diff := cmp.Diff(byID[purge], got); diff != "" {
		t.Errorf("Chunk(%s) (-given +indexed):\n%s", purge, diff)
	}
	at, ok, err := ix.ChunkAt(t.Context(), byID[purge].Path, byID[purge].StartLine+1)
	if err != nil || !ok || at.ID != purge {
		t.Errorf("ChunkAt(%s:%d) = %s, %v, %v; want %s", byID[purge].Path, byID[purge].StartLine+1, at.ID, ok, err, purge)
	}

	var fromUp []Chunk
	files := 0
	for _, c := range indexAll(t, ix) {
		if c.Source == SourceUpstream {
			fromUp = append(fromUp, c)
		} else {
			files++
		}
	}
	want := slices.Clone(up)
	slices.SortFunc(want, func(a, b Chunk) int { return strings.Compare(a.ID, b.ID) })
	if diff := cmp.Diff(want, fromUp); diff != "" {
		t.Errorf("AllChunks upstream chunks (-given +indexed):\n%s", diff)
	}
	st := ix.Stats()
	if st.Docs != files+len(up) || st.Files != 3 {
		t.Errorf("Stats: %d docs, %d files; want %d docs (%d of files, %d extra), 3 files", st.Docs, st.Files, files+len(up), files, len(up))
	}
	if diff := cmp.Diff(indexBuildCounts{Changed: 3, ExtraChanged: len(up), Extra: len(up)}, indexCounts(st)); diff != "" {
		t.Errorf("Stats of the first build (-want +got):\n%s", diff)
	}
}

// TestBuildIndexExtraIncremental updates an index whose Extra chunks
// change: only new or changed ones are indexed again, vanished ones are
// deleted, the same commit with other Extra chunks is updated rather than
// reused, and the result equals a fresh build.
func TestBuildIndexExtraIncremental(t *testing.T) {
	t.Parallel()
	keep := indexExtraChunk("a.go", 3, "dep.Keep", "// Keep stays the same.\nfunc Keep()")
	edit := indexExtraChunk("a.go", 8, "dep.Edit", "// Edit flushes lazily.\nfunc Edit()")
	gone := indexExtraChunk("b.go", 1, "dep.Gone", "// Gone vanishes with the next version.\nfunc Gone()")
	edited := edit
	edited.Text = "// Edit flushes eagerly.\nfunc Edit()"
	added := indexExtraChunk("b.go", 9, "dep.Added", "// Added arrives with the next version.\nfunc Added()")

	dir := filepath.Join(t.TempDir(), "idx")
	v1, v2 := indexRepoV1(), indexRepoV2()
	build := func(fsys fstest.MapFS, commit string, extra ...Chunk) *Index {
		t.Helper()
		return indexMustBuild(t, fsys, indexFiles(fsys), IndexOptions{Dir: dir, Commit: commit, Extra: extra})
	}
	steps := []struct {
		name   string
		fsys   fstest.MapFS
		commit string
		extra  []Chunk
		want   indexBuildCounts
		// found and missing are upstream queries with and without hits.
		found   map[string]string
		missing []string
	}{
		{
			name: "first build", fsys: v1, commit: "c1", extra: []Chunk{keep, edit, gone},
			want:  indexBuildCounts{Changed: 3, ExtraChanged: 3, Extra: 3},
			found: map[string]string{"lazily": edit.ID, "vanishes": gone.ID, "Keep": keep.ID},
		},
		{
			name: "same commit, same extra: reused", fsys: v1, commit: "c1", extra: []Chunk{gone, edit, keep},
			want: indexBuildCounts{Extra: 3, Reused: true},
		},
		{
			name: "same commit, extra changed: updated", fsys: v1, commit: "c1", extra: []Chunk{keep, edited, added},
			want:    indexBuildCounts{ExtraChanged: 2, ExtraRemoved: 1, Extra: 3},
			found:   map[string]string{"eagerly": edit.ID, "arrives": added.ID, "Keep": keep.ID},
			missing: []string{"lazily", "vanishes"},
		},
		{
			name: "other commit, same extra", fsys: v2, commit: "c2", extra: []Chunk{keep, edited, added},
			want:  indexBuildCounts{Changed: 2, Removed: 1, Extra: 3},
			found: map[string]string{"eagerly": edit.ID},
		},
		{
			name: "extra dropped", fsys: v2, commit: "c3",
			want:    indexBuildCounts{ExtraRemoved: 3},
			missing: []string{"eagerly", "arrives", "Keep"},
		},
	}
	for _, s := range steps {
		ix := build(s.fsys, s.commit, s.extra...)
		if diff := cmp.Diff(s.want, indexCounts(ix.Stats())); diff != "" {
			t.Errorf("%s: Stats (-want +got):\n%s", s.name, diff)
		}
		for q, id := range s.found {
			if got := indexSearchIDs(t, ix, Query{Text: q, Sources: []Source{SourceUpstream}}); !slices.Equal(got, []string{id}) {
				t.Errorf("%s: Search(%s) = %v, want [%s]", s.name, q, got, id)
			}
		}
		for _, q := range s.missing {
			if got := indexSearchIDs(t, ix, Query{Text: q, Sources: []Source{SourceUpstream}}); len(got) != 0 {
				t.Errorf("%s: Search(%s) = %v, want no hits", s.name, q, got)
			}
		}
		fresh := indexMustBuild(t, s.fsys, indexFiles(s.fsys), IndexOptions{Dir: filepath.Join(t.TempDir(), "fresh"), Commit: s.commit, Extra: s.extra})
		if diff := cmp.Diff(indexAll(t, fresh), indexAll(t, ix)); diff != "" {
			t.Errorf("%s: index differs from a fresh build (-fresh +updated):\n%s", s.name, diff)
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
	}

	// OpenIndex reports no build.
	ix, err := OpenIndex(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if diff := cmp.Diff(indexBuildCounts{}, indexCounts(ix.Stats())); diff != "" {
		t.Errorf("OpenIndex Stats (-want +got):\n%s", diff)
	}
	_, m := indexReadMeta(t, dir)
	if len(m.Extra) != 0 {
		t.Errorf("manifest still records extra chunks %v", m.Extra)
	}
}

// TestBuildIndexExtraErrors checks that Extra chunks that could be taken
// for the files' chunks are refused, and leave no index.
func TestBuildIndexExtraErrors(t *testing.T) {
	t.Parallel()
	ok := indexExtraChunk("a.go", 3, "dep.A", "func A()")
	v1 := indexRepoV1()
	files := append(indexFiles(v1), "@upstream/example.com/dep@v1.0.0/z.go")
	v1["@upstream/example.com/dep@v1.0.0/z.go"] = &fstest.MapFile{Data: []byte("package z\n")}
	tests := []struct {
		name    string
		chunk   Chunk
		wantErr string
	}{
		{"path without prefix", Chunk{ID: "a.go#1", Path: "a.go", StartLine: 1, EndLine: 1, Text: "x"},
			`extra chunk "a.go#1": path "a.go" does not start with "@upstream/"`},
		{"path of a file", Chunk{ID: "@upstream/example.com/dep@v1.0.0/z.go#1", Path: "@upstream/example.com/dep@v1.0.0/z.go", Text: "x"},
			`path "@upstream/example.com/dep@v1.0.0/z.go" is also a file of the tree`},
		{"ID not of its path", Chunk{ID: "b.go#3", Path: ok.Path, Text: "x"},
			`extra chunk "b.go#3": ID does not start with its path`},
		{"ID given twice", ok, `extra chunk "` + ok.ID + `": ID given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "idx")
			_, err := BuildIndex(t.Context(), v1, files, IndexOptions{Dir: dir, Commit: "c", Extra: []Chunk{ok, tt.chunk}})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("BuildIndex error = %v, want it to contain %q", err, tt.wantErr)
			}
			if _, err := OpenIndex(t.Context(), dir); err == nil {
				t.Errorf("an index was left at %s", dir)
			}
		})
	}
}
