package judge_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/extract"
	"github.com/docreview/docreview/rules"
)

// TestBundledExample reviews the repository examples/review.sh builds, with
// the rules and the judge behind a scripted model that searches once per
// conversation and then finds every claim consistent. It checks that the
// judge sees exactly the claims the rules left consistent, leaves the
// rules' findings alone, and it logs the cost per judged claim (prompt
// tokens are the scripted server's estimate: request bytes / 4).
func TestBundledExample(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "inventory")
	if out, err := exec.CommandContext(t.Context(), "bash", "../../examples/build.sh", dir).CombinedOutput(); err != nil {
		t.Fatalf("examples/build.sh: %v\n%s", err, out)
	}
	rulesOnly := review.Engine{Extractor: &extract.Extractor{}, Rules: rules.All()}
	base, err := rulesOnly.Review(t.Context(), review.Request{Repo: dir, Base: "HEAD~1"})
	if err != nil {
		t.Fatal(err)
	}
	j, srv := newJudge(t, []string{"bundled.json"}, nil)
	withModel := review.Engine{Extractor: &extract.Extractor{}, Rules: rules.All(), Model: j}
	rep, err := withModel.Review(t.Context(), review.Request{Repo: dir, Base: "HEAD~1"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stats.Contradicted != base.Stats.Contradicted || rep.Stats.Incomplete != base.Stats.Incomplete {
		t.Errorf("findings with the model: %d contradicted, %d incomplete; rules alone: %d, %d",
			rep.Stats.Contradicted, rep.Stats.Incomplete, base.Stats.Contradicted, base.Stats.Incomplete)
	}
	m := rep.Stats.Model
	if m == nil {
		t.Fatal("no model stats")
	}
	if m.Claims != base.Stats.Consistent || m.Judged != m.Claims || m.Skipped != 0 || m.DroppedTotal() != 0 {
		t.Errorf("model stats %+v: want all %d claims the rules left consistent judged", m, base.Stats.Consistent)
	}
	if m.Calls != srv.Requests() || m.Calls == 0 {
		t.Errorf("stats count %d calls, the server answered %d", m.Calls, srv.Requests())
	}
	perClaim := m.PromptTokens / int64(max(m.Judged, 1))
	t.Logf("bundled example: %d claims judged in %d conversations' %d calls, %d tool calls; %d prompt + %d completion tokens; %d prompt tokens and %.1f tool calls per judged claim",
		m.Judged, m.Calls/2, m.Calls, m.ToolCalls, m.PromptTokens, m.CompletionTokens, perClaim, float64(m.ToolCalls)/float64(m.Judged))
	if perClaim > 4000 {
		t.Errorf("%d prompt tokens per judged claim, above the 4K target", perClaim)
	}
}
