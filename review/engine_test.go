package review_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// fakeExtractor returns fixed claims.
type fakeExtractor struct{ claims []review.Claim }

func (f fakeExtractor) Extract(context.Context, *review.Workspace, review.Scope) ([]review.Claim, []review.Note, error) {
	return f.claims, nil, nil
}

// fakeJudge answers with a function.
type fakeJudge struct {
	name string
	fn   func(review.Claim) (*review.Verdict, error)
}

func (f fakeJudge) Name() string { return f.name }
func (f fakeJudge) Judge(_ context.Context, _ *review.Workspace, c review.Claim) (*review.Verdict, error) {
	return f.fn(c)
}

// repo makes a git repository with two commits and returns its directory.
func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), "git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("m.go", "// Package m adds.\npackage m\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n")
	run("add", "-A")
	run("commit", "-qm", "one")
	write("README.md", "# m\n\nCall Add.\n\nSecond paragraph.\n")
	run("add", "-A")
	run("commit", "-qm", "two")
	return dir
}

func TestEngineMergesVerdicts(t *testing.T) {
	dir := repo(t)
	claims := []review.Claim{
		{ID: "b", Path: "README.md", Line: 5, EndLine: 5, Kind: review.KindMarkdown, Text: "Second paragraph."},
		{ID: "a", Path: "README.md", Line: 3, EndLine: 3, Kind: review.KindMarkdown, Text: "Call Add."},
		{ID: "c", Path: "m.go", Line: 4, EndLine: 4, Kind: review.KindDocComment, Symbol: "Add", Text: "Add adds."},
		{ID: "d", Path: "broken.go", Line: 1, EndLine: 1, Kind: review.KindDocComment, Note: "file does not parse"},
		{ID: "e", Path: "README.md", Line: 5, EndLine: 5, Kind: review.KindMarkdown, Text: "Second paragraph, again."},
	}
	evidence := func(path string, start, end int) []review.Evidence {
		return []review.Evidence{{Path: path, StartLine: start, EndLine: end, Source: review.SourceCode, Why: "because"}}
	}
	incomplete := fakeJudge{name: "first", fn: func(c review.Claim) (*review.Verdict, error) {
		switch c.ID {
		case "a", "c":
			return &review.Verdict{Label: review.Incomplete, Message: "first", Evidence: evidence("m.go", 5, 5)}, nil
		}
		return nil, nil
	}}
	contradicted := fakeJudge{name: "second", fn: func(c review.Claim) (*review.Verdict, error) {
		switch c.ID {
		case "a": // more severe: wins over "first"
			return &review.Verdict{Label: review.Contradicted, Message: "second", Confidence: 0.7, Evidence: evidence("m.go", 4, 5)}, nil
		case "c": // evidence beyond the end of the file: dropped
			return &review.Verdict{Label: review.Contradicted, Message: "bad", Evidence: evidence("m.go", 40, 41)}, nil
		case "b":
			return nil, errors.New("model timed out")
		case "e": // the only finding, and its evidence does not exist: shown as skipped
			return &review.Verdict{Label: review.Contradicted, Message: "gone.", Evidence: evidence("nowhere.go", 1, 1)}, nil
		}
		return nil, nil
	}}
	// As severe as "second" on a, better supported: wins; on c, as well
	// supported as "first" and less severe: loses.
	surer := fakeJudge{name: "third", fn: func(c review.Claim) (*review.Verdict, error) {
		switch c.ID {
		case "a":
			return &review.Verdict{Label: review.Contradicted, Message: "third", Confidence: 0.85, Evidence: evidence("m.go", 4, 5)}, nil
		case "c":
			return &review.Verdict{Label: review.Incomplete, Message: "third", Evidence: evidence("m.go", 4, 5)}, nil
		}
		return nil, nil
	}}
	e := &review.Engine{Extractor: fakeExtractor{claims}, Rules: []review.Judge{incomplete, contradicted, surer}}
	r, err := e.Review(t.Context(), review.Request{Repo: dir, IndexDir: filepath.Join(t.TempDir(), "ix")})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID, Label, Rule, Message, Skipped string
		Evidence                          int
		Snippet                           string
	}
	var got []row
	for _, v := range r.Verdicts {
		x := row{ID: v.Claim.ID, Label: string(v.Label), Rule: v.Rule, Message: v.Message, Skipped: v.Skipped, Evidence: len(v.Evidence)}
		if len(v.Evidence) > 0 {
			x.Snippet = v.Evidence[0].Snippet
			if v.Evidence[0].ID != "e1" {
				t.Errorf("claim %s: evidence id %q, want e1", v.Claim.ID, v.Evidence[0].ID)
			}
		}
		got = append(got, x)
	}
	want := []row{
		{ID: "a", Label: "contradicted", Rule: "third", Message: "third", Evidence: 1,
			Snippet: "// Add adds.\nfunc Add(a, b int) int { return a + b }"},
		{ID: "b", Label: "consistent", Rule: "first,third", Message: "not fully judged: second: model timed out", Skipped: "second: model timed out"},
		{ID: "e", Label: "consistent", Rule: "first,second,third", Message: "not fully judged: second found contradicted (gone) but none of its evidence exists at head",
			Skipped: "second found contradicted (gone) but none of its evidence exists at head"},
		{ID: "d", Label: "consistent", Rule: "none", Message: "not judged: file does not parse", Skipped: "file does not parse"},
		{ID: "c", Label: "incomplete", Rule: "first", Message: "first", Evidence: 1, Snippet: "func Add(a, b int) int { return a + b }"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("verdicts (-want +got):\n%s", d)
	}
	wantStats := review.Stats{Claims: 5, Consistent: 0, Contradicted: 1, Incomplete: 1, Skipped: 3}
	r.Stats.Timings = nil
	if d := cmp.Diff(wantStats, r.Stats); d != "" {
		t.Errorf("stats (-want +got):\n%s", d)
	}
	if len(r.Base) != 40 || len(r.Head) != 40 || r.Base == r.Head {
		t.Errorf("base %q, head %q: want two commit SHAs", r.Base, r.Head)
	}
}

func TestEngineErrors(t *testing.T) {
	dir := repo(t)
	tests := []struct {
		name string
		e    *review.Engine
		req  review.Request
		want string
	}{
		{"no extractor", &review.Engine{}, review.Request{Repo: dir}, "no extractor"},
		{"not a repository", &review.Engine{Extractor: fakeExtractor{}}, review.Request{Repo: t.TempDir()}, "not a git repository"},
		{"unknown head", &review.Engine{Extractor: fakeExtractor{}}, review.Request{Repo: dir, Head: "nope"}, "nope"},
		{"unknown base", &review.Engine{Extractor: fakeExtractor{}}, review.Request{Repo: dir, Base: "nope"}, "nope"},
		{"bad scope", &review.Engine{Extractor: fakeExtractor{}}, review.Request{Repo: dir, Scope: "most"}, `unknown scope "most"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.e.Review(t.Context(), tt.req)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Review error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestEngineJudgePanics checks that a judge that panics on one claim
// skips that claim with the panic as the reason, and the review goes on.
func TestEngineJudgePanics(t *testing.T) {
	dir := repo(t)
	claims := []review.Claim{
		{ID: "a", Path: "README.md", Line: 3, EndLine: 3, Kind: review.KindMarkdown, Text: "Call Add."},
		{ID: "b", Path: "README.md", Line: 5, EndLine: 5, Kind: review.KindMarkdown, Text: "Second paragraph."},
	}
	buggy := fakeJudge{name: "buggy", fn: func(c review.Claim) (*review.Verdict, error) {
		if c.ID == "a" {
			var v *review.Verdict
			return &review.Verdict{Label: v.Label}, nil // nil dereference
		}
		return nil, nil
	}}
	e := &review.Engine{Extractor: fakeExtractor{claims}, Rules: []review.Judge{buggy}}
	r, err := e.Review(t.Context(), review.Request{Repo: dir, IndexDir: filepath.Join(t.TempDir(), "ix")})
	if err != nil {
		t.Fatalf("Review: %v", err)
	}
	got := map[string]review.Verdict{}
	for _, v := range r.Verdicts {
		got[v.Claim.ID] = v
	}
	if v := got["a"]; !strings.Contains(v.Skipped, "buggy panicked on README.md:3") {
		t.Errorf("claim a: skipped = %q, want the panic", v.Skipped)
	}
	if v := got["b"]; v.Skipped != "" || v.Label != review.Consistent {
		t.Errorf("claim b: %s, skipped %q; want consistent", v.Label, v.Skipped)
	}
}

// retrieverJudge cites the best fused hit for a claim's symbol, to show
// that judges reach the retriever through the workspace.
type retrieverJudge struct{}

func (retrieverJudge) Name() string { return "retriever" }
func (retrieverJudge) Judge(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws.Retriever == nil {
		return nil, errors.New("workspace has no retriever")
	}
	res, err := ws.Retriever.Search(ctx, retrieval.Request{Text: c.Symbol, Symbol: c.Symbol, TopK: 1})
	if err != nil || len(res) == 0 {
		return nil, err
	}
	h := res[0]
	return &review.Verdict{Label: review.Incomplete, Message: "cited", Evidence: []review.Evidence{{
		Path: h.Chunk.Path, StartLine: h.Chunk.StartLine, EndLine: h.Chunk.EndLine,
		Source: review.Source(h.Chunk.Source), Why: h.Why, Hops: h.Hops, Score: h.Score,
	}}}, nil
}

// TestEngineRetriever checks that the workspace carries a retriever fusing
// the index and the symbol table at head, and that judges use it.
func TestEngineRetriever(t *testing.T) {
	dir := repo(t)
	e := &review.Engine{
		Extractor: fakeExtractor{claims: []review.Claim{
			{ID: "c", Path: "m.go", Line: 4, EndLine: 4, Kind: review.KindDocComment, Symbol: "Add", Text: "Add adds."},
		}},
		Rules: []review.Judge{retrieverJudge{}},
	}
	r, err := e.Review(t.Context(), review.Request{Repo: dir, Scope: review.ScopeAll})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Verdicts) != 1 || r.Verdicts[0].Rule != "retriever" {
		t.Fatalf("verdicts = %+v, want one by the retriever judge", r.Verdicts)
	}
	got := r.Verdicts[0].Evidence
	want := []review.Evidence{{
		ID: "e1", Path: "m.go", StartLine: 4, EndLine: 5, Source: review.SourceCode,
		Snippet: "// Add adds.\nfunc Add(a, b int) int { return a + b }",
		Why:     "defines Add", Hops: []string{"Add"},
	}}
	if d := cmp.Diff(want, got, cmpopts.IgnoreFields(review.Evidence{}, "Score")); d != "" {
		t.Errorf("evidence (-want +got):\n%s", d)
	}
	// Lexical and structural channels both ranked it first.
	if s := got[0].Score; s != 2.0/61 {
		t.Errorf("score = %v, want RRF 2/61", s)
	}
}

// TestEngineUpstream checks that a request with Upstream indexes the
// dependencies the head's go.mod requires, from the engine's module cache,
// with a note per module left out, and that the default leaves them out.
func TestEngineUpstream(t *testing.T) {
	dir := repo(t)
	gomod := "module example.com/m\n\ngo 1.22\n\nrequire (\n\texample.com/dep v1.0.0\n\texample.com/missing v0.1.0\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-qm", "require dep"}} {
		cmd := exec.CommandContext(t.Context(), "git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	modcache := t.TempDir()
	depDir := filepath.Join(modcache, "example.com", "dep@v1.0.0")
	if err := os.MkdirAll(depDir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "// Package dep turns knobs.\npackage dep\n\n// Frobnicate turns the knob.\nfunc Frobnicate() { println() }\n"
	if err := os.WriteFile(filepath.Join(depDir, "dep.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}

	e := &review.Engine{Extractor: fakeExtractor{}, UpstreamOptions: retrieval.UpstreamOptions{ModCache: modcache, GoCommand: "/nonexistent/go"}}
	indexDir := filepath.Join(t.TempDir(), "ix")
	tests := []struct {
		name     string
		upstream bool
		hits     []string
		notes    []review.Note
	}{
		{name: "upstream", upstream: true, hits: []string{"@upstream/example.com/dep@v1.0.0/dep.go#4"},
			notes: []review.Note{{Path: "go.mod", Message: "dependency example.com/missing@v0.1.0 not indexed: not in module cache"}}},
		{name: "default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, notes, err := e.Load(t.Context(), review.Request{Repo: dir, IndexDir: indexDir, Upstream: tt.upstream})
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			hits, err := ws.Index.Search(t.Context(), retrieval.Query{Text: "Frobnicate", Sources: []retrieval.Source{retrieval.SourceUpstream}})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, h := range hits {
				ids = append(ids, h.Chunk.ID)
			}
			if d := cmp.Diff(tt.hits, ids); d != "" {
				t.Errorf("upstream hits (-want +got):\n%s", d)
			}
			// The reason names the module cache directory: compare its start.
			for i := range notes {
				if i < len(tt.notes) && strings.HasPrefix(notes[i].Message, tt.notes[i].Message) {
					notes[i].Message = tt.notes[i].Message
				}
			}
			if d := cmp.Diff(tt.notes, notes); d != "" {
				t.Errorf("notes (-want +got):\n%s", d)
			}
			if got := strings.HasSuffix(ws.Index.Commit(), "+upstream"); got != tt.upstream {
				t.Errorf("index commit %q: +upstream recorded %v, want %v", ws.Index.Commit(), got, tt.upstream)
			}
		})
	}
}

// fakeModel answers every item with a function and counts what it saw.
type fakeModel struct {
	fn    func(review.ModelItem) review.ModelOutcome
	items []review.ModelItem
}

func (f *fakeModel) Name() string { return "llm" }
func (f *fakeModel) JudgeClaims(_ context.Context, _ *review.Workspace, items []review.ModelItem) ([]review.ModelOutcome, review.ModelStats) {
	f.items = items
	out := make([]review.ModelOutcome, len(items))
	st := review.ModelStats{Model: "fake", Claims: len(items)}
	for i, it := range items {
		out[i] = f.fn(it)
		if out[i].Dropped != "" {
			st.Dropped = map[string]int{out[i].Dropped: 1}
		}
	}
	return out, st
}

func TestEngineModel(t *testing.T) {
	dir := repo(t)
	claims := []review.Claim{
		{ID: "a", Path: "README.md", Line: 3, EndLine: 3, Kind: review.KindMarkdown, Text: "Call Add."},
		{ID: "b", Path: "README.md", Line: 5, EndLine: 5, Kind: review.KindMarkdown, Text: "Second paragraph."},
		{ID: "c", Path: "m.go", Line: 4, EndLine: 4, Kind: review.KindDocComment, Symbol: "Add", Text: "Add adds."},
		{ID: "d", Path: "m.go", Line: 1, EndLine: 1, Kind: review.KindDocComment, Symbol: "package m", Text: "Package m adds."},
		{ID: "e", Path: "broken.go", Line: 1, EndLine: 1, Kind: review.KindDocComment, Note: "file does not parse"},
	}
	ev := []review.Evidence{{Path: "m.go", StartLine: 5, EndLine: 5, Source: review.SourceCode, Why: "defines Add"}}
	rule := fakeJudge{name: "rule", fn: func(c review.Claim) (*review.Verdict, error) {
		if c.ID == "c" {
			return &review.Verdict{Label: review.Incomplete, Message: "restates", Evidence: ev}, nil
		}
		return nil, nil
	}}
	model := &fakeModel{fn: func(it review.ModelItem) review.ModelOutcome {
		switch it.Claim.ID {
		case "a":
			return review.ModelOutcome{Verdict: &review.Verdict{Label: review.Contradicted, Message: "Add takes two numbers.", Evidence: ev}}
		case "b":
			return review.ModelOutcome{Skipped: "budget"}
		case "c":
			return review.ModelOutcome{Refuted: true, Why: "the doc states the sum"}
		case "d":
			return review.ModelOutcome{Dropped: "quote does not match"}
		}
		return review.ModelOutcome{}
	}}
	for _, confirm := range []bool{false, true} {
		t.Run(map[bool]string{false: "rules first", true: "confirm"}[confirm], func(t *testing.T) {
			e := &review.Engine{Extractor: fakeExtractor{claims}, Rules: []review.Judge{rule}, Model: model, Confirm: confirm}
			r, err := e.Review(t.Context(), review.Request{Repo: dir, IndexDir: filepath.Join(t.TempDir(), "ix")})
			if err != nil {
				t.Fatal(err)
			}
			var gotItems []string
			for _, it := range model.items {
				gotItems = append(gotItems, it.Claim.ID+map[bool]string{true: "+finding", false: ""}[it.Finding != nil])
			}
			wantItems := []string{"a", "b", "d"} // e has a note; c has a rule finding
			if confirm {
				wantItems = []string{"a", "b", "c+finding", "d"}
			}
			if d := cmp.Diff(wantItems, gotItems, cmpopts.SortSlices(func(a, b string) bool { return a < b })); d != "" {
				t.Errorf("items given to the model (-want +got):\n%s", d)
			}
			got := map[string]string{}
			for _, v := range r.Verdicts {
				got[v.Claim.ID] = string(v.Label) + " " + v.Rule + " | " + v.Skipped
			}
			want := map[string]string{
				"a": "contradicted llm | ",
				"b": "consistent rule | llm: budget",
				"c": "incomplete rule | ",
				"d": "consistent rule | ",
				"e": "consistent none | file does not parse",
			}
			if confirm {
				want["c"] = "consistent rule,llm | "
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("verdicts (-want +got):\n%s", d)
			}
			if r.Stats.Model == nil || r.Stats.Model.Dropped["quote does not match"] != 1 {
				t.Errorf("model stats %+v: want the dropped finding counted", r.Stats.Model)
			}
			if r.Stats.Skipped != 2 {
				t.Errorf("skipped %d, want 2 (the noted claim and the one over budget)", r.Stats.Skipped)
			}
		})
	}
}

// hashEmbedder embeds a text as the counts of its letters a to z: enough for
// the dense channel to rank by shared letters.
type hashEmbedder struct{ fail bool }

func (h hashEmbedder) Model() string { return "letters" }
func (h hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if h.fail {
		return nil, errors.New("embeddings endpoint unreachable")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 26)
		for _, r := range strings.ToLower(t) {
			if r >= 'a' && r <= 'z' {
				v[r-'a']++
			}
		}
		v[0]++ // never all zero
		out[i] = v
	}
	return out, nil
}

func TestLoadDenseChannel(t *testing.T) {
	dir := repo(t)
	e := &review.Engine{Extractor: fakeExtractor{}}
	ws, notes, err := e.Load(t.Context(), review.Request{Repo: dir, Embedder: hashEmbedder{}, DenseDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if ws.Retriever.Dense == nil || ws.Retriever.Dense.Len() == 0 {
		t.Fatalf("dense channel not set up (notes %v)", notes)
	}
	hits, err := ws.Retriever.Dense.Search(t.Context(), "adds", 3, nil)
	if err != nil || len(hits) == 0 {
		t.Fatalf("dense search: %v, %d hits", err, len(hits))
	}

	ws2, notes, err := e.Load(t.Context(), review.Request{Repo: dir, Embedder: hashEmbedder{fail: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws2.Close()
	if ws2.Retriever.Dense != nil {
		t.Error("a failing embedder left a dense channel")
	}
	found := false
	for _, n := range notes {
		found = found || strings.Contains(n.Message, "dense channel off") && strings.Contains(n.Message, "unreachable")
	}
	if !found {
		t.Errorf("notes %v: want one saying the dense channel is off and why", notes)
	}
}

// fixedScorer returns a fixed coverage change, or an error.
type fixedScorer struct {
	c   *review.CoverageChange
	err error
}

func (f fixedScorer) Score(context.Context, *review.Workspace) (*review.CoverageChange, error) {
	return f.c, f.err
}

func TestEngineCoverage(t *testing.T) {
	dir := repo(t)
	want := &review.CoverageChange{Symbols: 1, FactsBefore: 2, FactsAfter: 2, StatedBefore: 1, StatedAfter: 2, Gained: 1}
	for _, tt := range []struct {
		name   string
		scorer review.CoverageScorer
		want   *review.CoverageChange
	}{
		{"scored", fixedScorer{c: want}, want},
		{"failed scorer leaves it out", fixedScorer{err: errors.New("boom")}, nil},
		{"no scorer", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := &review.Engine{Extractor: fakeExtractor{}, Coverage: tt.scorer}
			r, err := e.Review(t.Context(), review.Request{Repo: dir, IndexDir: filepath.Join(t.TempDir(), "ix")})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, r.Stats.Coverage); d != "" {
				t.Errorf("coverage (-want +got):\n%s", d)
			}
		})
	}
}
