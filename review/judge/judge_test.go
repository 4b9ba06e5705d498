package judge_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/extract"
	"github.com/docreview/docreview/review/judge"
)

func TestNewRejectsBadOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opt  judge.Options
		want string
	}{
		{"no model", judge.Options{}, "no model configured"},
		{"relative base URL", judge.Options{Model: "m", BaseURL: "localhost:8080/v1"}, "bad base URL"},
		{"ftp base URL", judge.Options{Model: "m", BaseURL: "ftp://example.com/v1"}, "bad base URL"},
		{"unknown mode", judge.Options{Model: "m", Mode: "fast"}, "unknown mode"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := judge.New(tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New(%+v) = %v, want an error containing %q", tc.opt, err, tc.want)
			}
		})
	}
	j, err := judge.New(judge.Options{Model: "m"})
	if err != nil || j.Name() != "llm" {
		t.Errorf("New(model only) = %v, %v; want a judge named llm", j, err)
	}
}

func TestToolLoopKeepsVerifiedFinding(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, srv := newJudge(t, []string{"loop.json"}, nil)
	outs, st := j.JudgeClaims(t.Context(), ws, items(claimHold))
	want := []summary{{Label: review.Contradicted, Evidence: []string{"store.go:24-27 code claim > read"}}}
	if d := cmp.Diff(want, summarize(outs)); d != "" {
		t.Fatalf("outcomes (-want +got):\n%s", d)
	}
	v := outs[0].Verdict
	if v.Rule != "llm" || v.Confidence != 0.9 || !strings.HasPrefix(v.Suggestion, "Hold sets aside qty units of sku. It returns ErrNoStock") {
		t.Errorf("verdict = %+v", v)
	}
	ev := v.Evidence[0]
	if !strings.HasPrefix(ev.Why, "cited by llm: func (s *Store) Hold(sku string, qty int) error { if qty") || !strings.HasSuffix(ev.Why, "…") {
		t.Errorf("evidence Why = %q", ev.Why)
	}
	if !strings.HasPrefix(ev.Snippet, "func (s *Store) Hold(") || strings.Count(ev.Snippet, "\n") != 3 {
		t.Errorf("evidence Snippet = %q, want lines 24-27", ev.Snippet)
	}
	if st.Calls != 3 || st.ToolCalls != 2 || st.Retries != 0 || st.Judged != 1 || st.Claims != 1 || st.Skipped != 0 || st.Model != "gpt-test" {
		t.Errorf("stats = %+v", st)
	}
	if st.PromptTokens <= 0 || st.CompletionTokens <= 0 || len(st.ClaimMillis) != 1 {
		t.Errorf("stats tokens or times = %+v", st)
	}
	if srv.Requests() != 3 {
		t.Errorf("requests = %d, want 3", srv.Requests())
	}
	t.Logf("tool loop: %d calls, %d tool calls, %d prompt + %d completion tokens for one claim", st.Calls, st.ToolCalls, st.PromptTokens, st.CompletionTokens)
}

func TestRetentionDropsUnverifiedFindings(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"retention.json"}, nil)
	cases := []struct {
		claim review.Claim
		want  summary
	}{
		{alone(claimHold, "r-path"), summary{Dropped: judge.DropCitationPath}},
		{alone(claimHold, "r-lines"), summary{Dropped: judge.DropCitationLines}},
		{alone(claimHold, "r-quote"), summary{Dropped: judge.DropQuoteMismatch}},
		{alone(claimHold, "r-trivial"), summary{Dropped: judge.DropQuoteMismatch}}, // "}" quotes nothing
		{alone(claimCount, "r-unseen"), summary{Dropped: judge.DropCitationNotSeen}},
		{alone(claimCount, "r-nofix"), summary{Dropped: judge.DropNoCorrection}},
		{alone(claimCount, "r-nocite"), summary{Dropped: judge.DropNoCitation}},
		{alone(claimCount, "r-msgfix"), summary{Label: review.Incomplete, Evidence: []string{"store.go:34-34 code claim > read"}}},
		{alone(claimCount, "r-numbered"), summary{Label: review.Incomplete, Evidence: []string{"store.go:33-34 code claim > read"}}},
	}
	var (
		in   []review.Claim
		want []summary
	)
	for _, c := range cases {
		in = append(in, c.claim)
		want = append(want, c.want)
	}
	outs, st := j.JudgeClaims(t.Context(), ws, items(in...))
	if d := cmp.Diff(want, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	wantDropped := map[string]int{
		judge.DropCitationPath: 1, judge.DropCitationLines: 1, judge.DropQuoteMismatch: 2,
		judge.DropCitationNotSeen: 1, judge.DropNoCorrection: 1, judge.DropNoCitation: 1,
	}
	if d := cmp.Diff(wantDropped, st.Dropped); d != "" {
		t.Errorf("stats.Dropped (-want +got):\n%s", d)
	}
	if st.Judged != len(cases) || st.Skipped != 0 || st.ToolCalls != 6 || st.Calls != 15 {
		t.Errorf("stats = %+v", st)
	}
	t.Logf("retention: dropped %v of %d answers; %d calls, %d tool calls, %d prompt tokens (%d per claim)",
		st.Dropped, len(cases), st.Calls, st.ToolCalls, st.PromptTokens, st.PromptTokens/int64(len(cases)))
}

func TestBadModelOutputIsCountedNotFatal(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"bad.json"}, nil)
	in := items(withID(claimAdd, "b-json"), withID(claimAdd, "b-prose"), withID(claimAdd, "b-label"),
		withID(claimAdd, "b-missing"), withID(claimAdd, "b-conf"), withID(claimAdd, "b-extra"),
		withID(claimAdd, "b-fence"), withID(claimAdd, "b-args"))
	// A finding to confirm keeps these claims out of grouped conversations.
	for i := range in {
		in[i].Finding = &review.Verdict{Label: review.Incomplete, Rule: "test-rule", Message: "m"}
	}
	in[6].Finding, in[7].Finding = nil, nil
	in[6].Claim.Kind, in[7].Claim.Kind = review.KindMarkdown, review.KindMarkdown
	outs, st := j.JudgeClaims(t.Context(), ws, in)
	want := []summary{
		{Dropped: judge.DropBadJSON}, {Dropped: judge.DropBadJSON}, {Dropped: judge.DropUnknownLabel},
		{Dropped: judge.DropSchema}, {Dropped: judge.DropSchema}, {Dropped: judge.DropSchema},
		{}, {},
	}
	if d := cmp.Diff(want, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if st.Judged != 8 || st.DroppedTotal() != 6 || st.ToolCalls != 3 {
		t.Errorf("stats = %+v", st)
	}
}

func TestRetriesHonourRetryAfter(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, srv := newJudge(t, []string{"retry.json"}, nil)
	start := time.Now()
	outs, st := j.JudgeClaims(t.Context(), ws, items(claimAdd))
	if d := cmp.Diff([]summary{{}}, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if st.Calls != 3 || st.Retries != 2 || srv.Requests() != 3 {
		t.Errorf("calls %d retries %d requests %d, want 3, 2, 3", st.Calls, st.Retries, srv.Requests())
	}
	if el := time.Since(start); el < time.Second {
		t.Errorf("judged in %v; Retry-After: 1 asks for a second", el)
	}
}

func TestRetriesStopAtMaxRetries(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"retry.json"}, func(o *judge.Options) { o.MaxRetries = -1 })
	outs, st := j.JudgeClaims(t.Context(), ws, items(claimAdd))
	if got := outs[0].Skipped; !strings.HasPrefix(got, "model error: HTTP 429: Rate limit reached") {
		t.Errorf("Skipped = %q", got)
	}
	if st.Calls != 1 || st.Retries != 0 || st.Skipped != 1 {
		t.Errorf("stats = %+v", st)
	}
}

func TestHangPastTimeoutIsSkipped(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"timeout.json"}, func(o *judge.Options) { o.CallTimeout = 200 * time.Millisecond })
	start := time.Now()
	outs, st := j.JudgeClaims(t.Context(), ws, items(claimAdd))
	if d := cmp.Diff([]summary{{Skipped: "timeout"}}, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if st.Calls != 1 || st.Retries != 0 || st.Skipped != 1 || st.Judged != 0 {
		t.Errorf("stats = %+v", st)
	}
	// The scripted answer comes after 60s: a review that waited for it
	// instead of giving up at 200ms would take that long. The margin
	// keeps a loaded machine from failing the test.
	if el := time.Since(start); el > 30*time.Second {
		t.Errorf("took %v; the call should end after 200ms, not when the answer comes at 60s", el)
	}
}

func TestReviewBudgetSkipsClaimsNotStarted(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, srv := newJudge(t, []string{"budget.json"}, func(o *judge.Options) {
		o.ReviewTokenBudget = 500
		o.Concurrency = 1
	})
	outs, st := j.JudgeClaims(t.Context(), ws, items(claimAdd, claimLimit, claimNew))
	want := []summary{{}, {Skipped: "budget"}, {Skipped: "budget"}}
	if d := cmp.Diff(want, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if st.PromptTokens != 900 || st.CompletionTokens != 100 || st.Judged != 1 || st.Skipped != 2 || srv.Requests() != 1 {
		t.Errorf("stats = %+v, requests %d", st, srv.Requests())
	}
	if st.ClaimMillis[1] != 0 || st.ClaimMillis[2] != 0 {
		t.Errorf("ClaimMillis = %v, want 0 for skipped claims", st.ClaimMillis)
	}
}

func TestClaimToolLimitForcesAnswer(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"toollimit.json"}, func(o *judge.Options) { o.MaxToolCalls = 1 })
	in := items(withID(claimLimit, "t-forced"), withID(claimNew, "t-insists"))
	outs, st := j.JudgeClaims(t.Context(), ws, in)
	want := []summary{{}, {Skipped: "budget"}}
	if d := cmp.Diff(want, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if st.ToolCalls != 2 || st.Calls != 4 {
		t.Errorf("stats = %+v; want 2 tool calls answered (one per claim) in 4 calls", st)
	}
}

func TestClaimInputTokenLimitForcesAnswer(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"toollimit.json"}, func(o *judge.Options) { o.MaxClaimInputTokens = 10 })
	outs, st := j.JudgeClaims(t.Context(), ws, items(withID(claimNew, "t-insists")))
	if d := cmp.Diff([]summary{{Skipped: "budget"}}, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if st.ToolCalls != 1 {
		t.Errorf("stats = %+v", st)
	}
}

func TestSchemaRejectedFallsBackToJSONObject(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"fallback_schema.json"}, func(o *judge.Options) { o.Concurrency = 1 })
	in := items(claimAdd, withID(claimCount, "c-count"))
	in[1].Claim.Kind = review.KindMarkdown // its own conversation, after the first
	outs, st := j.JudgeClaims(t.Context(), ws, in)
	want := []summary{{}, {Dropped: judge.DropSchema}}
	if d := cmp.Diff(want, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if st.Calls != 3 || st.Retries != 0 {
		t.Errorf("stats = %+v", st)
	}
}

func TestToolsRejectedFallsBackToOneShot(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"fallback_tools.json"}, func(o *judge.Options) { o.Concurrency = 1 })
	outs, st := j.JudgeClaims(t.Context(), ws, items(claimHold, claimLimit))
	want := []summary{{Label: review.Contradicted, Evidence: []string{"store.go:24-24 code claim > pre-retrieved"}}, {}}
	if d := cmp.Diff(want, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if st.Calls != 3 || st.ToolCalls != 0 {
		t.Errorf("stats = %+v", st)
	}
}

func TestGroupedConversation(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, srv := newJudge(t, []string{"grouped.json"}, nil)
	outs, st := j.JudgeClaims(t.Context(), ws, items(claimCount, claimAdd))
	want := []summary{{Label: review.Incomplete, Evidence: []string{"store.go:34-34 code claim > read"}}, {}}
	if d := cmp.Diff(want, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if srv.Requests() != 2 || st.Calls != 2 || st.ToolCalls != 1 || st.Judged != 2 {
		t.Errorf("stats = %+v, requests %d", st, srv.Requests())
	}
	t.Logf("grouped: 2 claims in %d calls, %d prompt tokens (%d per claim)", st.Calls, st.PromptTokens, st.PromptTokens/2)
}

func TestInjectionNeverBecomesAFinding(t *testing.T) {
	t.Parallel()
	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"injection.json"}, nil)
	finding := &review.Verdict{Claim: claimRelease, Label: review.Contradicted, Rule: "test-rule",
		Message: "Release returns the held units to the stock.", Evidence: []review.Evidence{{Path: "store.go", StartLine: 41, EndLine: 44}}}
	in := []review.ModelItem{
		{Claim: withID(claimRelease, "i-refute"), Finding: finding},
		{Claim: withID(claimRelease, "i-refute-unseen"), Finding: finding},
		{Claim: withID(claimRelease, "i-invent")},
	}
	outs, st := j.JudgeClaims(t.Context(), ws, in)
	want := []summary{
		{Dropped: judge.DropRefutationUnknown}, // the rule's finding stands
		{Dropped: judge.DropRefutationUnknown},
		{Dropped: judge.DropCitationLines}, // no fabricated finding
	}
	if d := cmp.Diff(want, summarize(outs)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	t.Logf("injection: dropped %v", st.Dropped)
}

func TestCacheSkipsUnchangedClaims(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	withCache := func(o *judge.Options) { o.CacheDir = dir }

	ws := shop(t, nil)
	j, _ := newJudge(t, []string{"loop.json"}, withCache)
	first, st := j.JudgeClaims(t.Context(), ws, items(claimHold))
	if st.CacheHits != 0 || first[0].Verdict == nil {
		t.Fatalf("first run: %+v, stats %+v", summarize(first), st)
	}

	// Same head: no model call at all (the server has no conversations).
	j2, srv2 := newJudge(t, nil, withCache)
	moved := claimHold
	moved.Line, moved.EndLine = 99, 99 // lines are not part of the key
	second, st2 := j2.JudgeClaims(t.Context(), ws, items(moved))
	if d := cmp.Diff(summarize(first), summarize(second)); d != "" {
		t.Errorf("cached outcome differs (-first +second):\n%s", d)
	}
	if srv2.Requests() != 0 || st2.CacheHits != 1 || st2.Calls != 0 || st2.Judged != 1 {
		t.Errorf("second run: requests %d, stats %+v", srv2.Requests(), st2)
	}

	// A file the model never saw changed: still a hit.
	ws3 := shop(t, map[string]string{"LICENSE": "Copyright the shop authors.\nAll rights reserved.\n"})
	_, st3 := j2.JudgeClaims(t.Context(), ws3, items(claimHold))
	if st3.CacheHits != 1 || srv2.Requests() != 0 {
		t.Errorf("unrelated change: stats %+v, requests %d", st3, srv2.Requests())
	}

	// The cited file changed: judged again.
	src := readShop(t, "store.go")
	ws4 := shop(t, map[string]string{"store.go": strings.Replace(src, "return ErrNoStock", "return ErrNoStock // too many", 1)})
	j4, srv4 := newJudge(t, []string{"loop.json"}, withCache)
	_, st4 := j4.JudgeClaims(t.Context(), ws4, items(claimHold))
	if st4.CacheHits != 0 || srv4.Requests() != 3 {
		t.Errorf("changed evidence: stats %+v, requests %d; want a new conversation", st4, srv4.Requests())
	}
}

func TestPromptVersion(t *testing.T) {
	t.Parallel()
	// The content hash of prompts/*.md at PromptVersion. Editing a prompt
	// changes it: bump PromptVersion and update both here.
	const (
		version = "1"
		hash    = "d45f79c865248ace977a3469440335806315258b071ed436c7c59551741b3e81"
	)
	got := judge.PromptHash()
	if judge.PromptVersion != version || got != hash {
		t.Errorf("prompts changed: PromptVersion %q, hash %s; bump PromptVersion and pin the new hash here", judge.PromptVersion, got)
	}
}

func TestEngineFoldsModelFindings(t *testing.T) {
	t.Parallel()
	readme := strings.Replace(readShop(t, "README.md"), "fail with ErrNoStock", "fail with `ErrNoStock`", 1)
	dir := shopRepo(t, map[string]string{"README.md": readme})
	j, _ := newJudge(t, []string{"engine.json"}, nil)
	e := review.Engine{Extractor: &extract.Extractor{}, Model: j}
	rep, err := e.Review(t.Context(), review.Request{Repo: dir, Scope: review.ScopeChanged})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Verdicts) != 1 {
		t.Fatalf("verdicts = %+v, want the one changed paragraph", rep.Verdicts)
	}
	v := rep.Verdicts[0]
	if v.Label != review.Contradicted || v.Rule != "llm" || v.Claim.Line != 5 || len(v.Evidence) != 1 ||
		v.Evidence[0].Path != "store.go" || v.Evidence[0].StartLine != 10 || v.Evidence[0].Snippet != "const MaxHold = 50" ||
		!strings.Contains(v.Suggestion, "limited to 50 units") {
		t.Errorf("verdict = %+v", v)
	}
	m := rep.Stats.Model
	if m == nil || m.Judged != 1 || m.Calls != 2 || m.ToolCalls != 1 {
		t.Fatalf("model stats = %+v", m)
	}
	t.Logf("engine: 1 claim, %d calls, %d tool calls, %d prompt + %d completion tokens", m.Calls, m.ToolCalls, m.PromptTokens, m.CompletionTokens)
}
