package action

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/docreview/docreview/review"
)

// gitRunner runs git in a directory; tests substitute nothing: they use a
// real repository.
type gitRunner struct{ dir string }

func (g gitRunner) run(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", g.dir}, args...)...)
	cmd.Env = review.GitEnv(os.Environ())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

func (g gitRunner) has(ctx context.Context, sha string) bool {
	_, err := g.run(ctx, "cat-file", "-e", sha+"^{commit}")
	return err == nil
}

// mergeBase makes sure head and base are in the checkout, fetching them
// from origin when the checkout is shallow or lacks them (a fork's head is
// fetched as refs/pull/N/head), and returns their merge base: the commit
// GitHub diffs the pull request against. It deepens the history in steps
// (50, 500 commits, then all of it) until the merge base appears, and says
// what failed when it does not.
func mergeBase(ctx context.Context, g gitRunner, ev Event) (string, error) {
	for _, c := range []struct{ sha, ref string }{{ev.HeadSHA, "refs/pull/" + strconv.Itoa(ev.PR) + "/head"}, {ev.BaseSHA, ""}} {
		if g.has(ctx, c.sha) {
			continue
		}
		if _, err := g.run(ctx, "fetch", "--no-tags", "--depth=50", "origin", c.sha); err != nil {
			if c.ref == "" {
				return "", fmt.Errorf("fetch commit %s: %w", short(c.sha), err)
			}
			if _, err2 := g.run(ctx, "fetch", "--no-tags", "--depth=50", "origin", c.ref); err2 != nil || !g.has(ctx, c.sha) {
				return "", fmt.Errorf("fetch head %s (also tried %s): %w", short(c.sha), c.ref, err)
			}
		}
	}
	for _, deepen := range []string{"", "--deepen=500", "--unshallow"} {
		if deepen != "" {
			shallow, _ := g.run(ctx, "rev-parse", "--is-shallow-repository")
			if shallow != "true" {
				break
			}
			if _, err := g.run(ctx, "fetch", "--no-tags", deepen, "origin", ev.BaseSHA, ev.HeadSHA); err != nil {
				return "", fmt.Errorf("deepen the history to find the merge base: %w", err)
			}
		}
		if mb, err := g.run(ctx, "merge-base", ev.BaseSHA, ev.HeadSHA); err == nil && mb != "" {
			return mb, nil
		}
	}
	return "", fmt.Errorf("no merge base of base %s and head %s in the history", short(ev.BaseSHA), short(ev.HeadSHA))
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
