package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/webhook"
)

// TestDismissalsComeFromTheBase: a pull request never vouches for itself.
// A head that adds .docreview/dismissed.yml (a fork listing its own
// findings' fingerprints) dismisses nothing; the file on the base branch
// counts, as the configuration does.
func TestDismissalsComeFromTheBase(t *testing.T) {
	src := buildExample(t)
	mainTip := gitT(t, src, "rev-parse", "HEAD~1")
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The base branch dismisses one finding; the pull request's head adds
	// a dismissal of its own on top of the example's last commit.
	gitT(t, src, "checkout", "-q", "-b", "base-with-dismissal", mainTip)
	write(".docreview/dismissed.yml", "- fingerprint: 00000000000000aa.stale-reference\n  reason: kept on the base branch\n  by: maintainer\n")
	gitT(t, src, "add", "-A")
	gitT(t, src, "-c", "user.name=m", "-c", "user.email=m@example.com", "commit", "-qm", "dismiss on the base")
	base := gitT(t, src, "rev-parse", "HEAD")
	gitT(t, src, "checkout", "-q", "-")
	write(".docreview/dismissed.yml", "- fingerprint: 00000000000000bb.stale-reference\n  reason: the pull request says it is fine\n")
	gitT(t, src, "add", "-A")
	gitT(t, src, "-c", "user.name=f", "-c", "user.email=f@example.com", "commit", "-qm", "dismiss my own findings")
	head := gitT(t, src, "rev-parse", "HEAD")

	_, pemKey := testKey()
	api := newFakeGitHub(t)
	git := newGitServer(t, "ghs_inst5_n1")
	git.publish(t, src, "acme", "inventory")
	tokens, err := NewAppTokens(77, pemKey, api.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	pub := &published{}
	now := time.Unix(1_800_000_000, 0)
	r := &Runner{
		Tokens: tokens, GitHubURL: api.URL, GitURL: git.URL + "/", Mirrors: NewMirrors(t.TempDir(), 0),
		Review: func(ctx context.Context, repoDir, base, head, indexDir string) (review.Report, error) {
			return review.Report{Base: base, Head: head}, nil
		},
		Publish: pub.publish,
		now:     func() time.Time { return now },
		sleep:   func(context.Context, time.Duration) error { return nil },
	}
	api.setPR("open", false, head, base)
	api.mu.Lock()
	api.reset = now.Add(time.Hour)
	api.mu.Unlock()
	if err := r.Run(context.Background(), webhook.Job{InstallationID: 5, Owner: "acme", Repo: "inventory", PR: 1, HeadSHA: head, BaseSHA: base}); err != nil {
		t.Fatal(err)
	}
	if len(pub.calls) != 1 {
		t.Fatalf("%d publish calls, want 1", len(pub.calls))
	}
	got := pub.calls[0].opt.Dismissed
	if len(got) != 1 || got[0].Fingerprint != "00000000000000aa.stale-reference" {
		t.Errorf("dismissals %+v; want only the base branch's", got)
	}
}
