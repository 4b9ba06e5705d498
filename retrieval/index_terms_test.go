package retrieval

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestSearchLongQueryKeepsRarestWords: a query with more words than
// indexMaxQueryWords searches only its rarest ones, and still ranks the
// chunk that holds them first.
func TestSearchLongQueryKeepsRarestWords(t *testing.T) {
	fsys := fstest.MapFS{}
	var files []string
	for i := range 30 {
		name := fmt.Sprintf("doc%02d.md", i)
		fsys[name] = &fstest.MapFile{Data: []byte("# Note\n\nThe value returned here is an error or a result.\n")}
		files = append(files, name)
	}
	fsys["purge.md"] = &fstest.MapFile{Data: []byte("# Purge\n\nPurging defers removal to the sweeper; the value returned is an error.\n")}
	files = append(files, "purge.md")
	slices.Sort(files)
	ix, err := BuildIndex(t.Context(), fsys, files, IndexOptions{Dir: filepath.Join(t.TempDir(), "ix"), Commit: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })

	words := ix.queryFields("value returned error result purging defers removal sweeper")[0].terms
	if len(words) <= indexMaxQueryWords {
		t.Fatalf("query has %d words, want more than %d for this test", len(words), indexMaxQueryWords)
	}
	kept, err := ix.rarestWords(t.Context(), words)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != indexMaxQueryWords {
		t.Fatalf("kept %v, want %d words", kept, indexMaxQueryWords)
	}
	for _, common := range []string{"valu", "value", "return", "returned", "error"} {
		if slices.Contains(kept, common) {
			t.Errorf("kept the common word %q: %v", common, kept)
		}
	}
	hits, err := ix.Search(t.Context(), Query{Text: "value returned error result purging defers removal sweeper", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Chunk.Path != "purge.md" {
		t.Fatalf("first hit %v, want purge.md", hits)
	}
	if !strings.Contains(hits[0].Why, "sweeper") {
		t.Errorf("why = %q, want it to name a rare matched word", hits[0].Why)
	}
}
