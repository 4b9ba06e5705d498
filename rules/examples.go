package rules

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval/gitrepo"
	"github.com/docreview/docreview/review"
)

var _ review.Judge = (*ExampleOutput)(nil)

// ExampleOutput is the example-output rule: with RunExamples, the Example
// functions of the diff's packages are run with "go test", and one whose
// "// Output:" comment no longer matches what it prints is contradicted.
// It executes the reviewed code, so it is off unless [AllWith] turns it
// on. The zero value is ready to use and safe for concurrent use.
type ExampleOutput struct {
	// RunExamples and ExampleTimeout: see [Options]; off by default.
	RunExamples    bool
	ExampleTimeout time.Duration

	examples memo[exampleRun]
	checkout memo[bool]
	lines    memo[[]string]
}

// Name returns "example-output".
func (*ExampleOutput) Name() string { return "example-output" }

// Judge runs the claim's Example when it should; see [ExampleOutput]. It
// fails when the reviewed head is not what is checked out, or go test
// cannot run.
func (r *ExampleOutput) Judge(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	return r.exampleVerdict(ctx, ws, c)
}

// defaultExampleTimeout bounds one "go test" run when Options leaves it
// zero.
const defaultExampleTimeout = 2 * time.Minute

// exampleRun is the outcome of running a package's Example functions:
// the got and want output of each failing one.
type exampleRun map[string]exampleFailure

type exampleFailure struct{ got, want string }

// exampleVerdict runs the Example functions of the claim's package, when
// RunExamples is set and the package is part of the diff, and contradicts
// an Example whose "// Output:" comment does not match what it prints. It
// fails when the reviewed head is not what is checked out in ws.Dir (the
// code run would not be the code reviewed), or go test cannot run.
func (r *ExampleOutput) exampleVerdict(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if !r.RunExamples || c.Kind != review.KindExample || ws == nil || ws.Dir == "" || !inDiff(ws, c.Package) {
		return nil, nil
	}
	lines, err := r.fileLines(ws, c.Path)
	if err != nil {
		return nil, err
	}
	out := outputLine(lines, c.Line, c.EndLine)
	if out == 0 {
		return nil, nil
	}
	if err := r.headCheckedOut(ctx, ws); err != nil {
		return nil, err
	}
	run, err := r.examples.get(ws, c.Package, func() (exampleRun, error) {
		return runExamples(ctx, ws.Dir, c.Package, cmp.Or(r.ExampleTimeout, defaultExampleTimeout))
	})
	if err != nil {
		return nil, err
	}
	f, ok := run[c.Symbol]
	if !ok {
		return nil, nil
	}
	hop := fmt.Sprintf("%s (// Output:)", c.Symbol)
	end := c.EndLine
	if end > out {
		end-- // the closing brace
	}
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Confidence: 0.95,
		Message: fmt.Sprintf("%s prints %q, but its // Output: comment says %q", c.Symbol, f.got, f.want) + ".",
		Evidence: []review.Evidence{{
			Path: c.Path, StartLine: out, EndLine: max(end, out), Source: review.SourceExample,
			Why: fmt.Sprintf("go test: got %q, want %q", f.got, f.want), Hops: []string{hop},
		}},
	}, nil
}

// inDiff reports whether the diff touches a file directly in dir.
func inDiff(ws *review.Workspace, dir string) bool {
	for _, f := range ws.Diff {
		if f.NewPath != "" && path.Dir(f.NewPath) == dir {
			return true
		}
	}
	return false
}

// outputLine returns the line of the "// Output:" or "// Unordered
// output:" comment between from and to, or 0.
func outputLine(lines []string, from, to int) int {
	for i := max(from, 1); i <= to && i <= len(lines); i++ {
		t := strings.ToLower(strings.TrimSpace(lines[i-1]))
		if strings.HasPrefix(t, "// output:") || strings.HasPrefix(t, "// unordered output:") {
			return i
		}
	}
	return 0
}

// headCheckedOut fails unless ws.Head is the worktree or the clean
// checked-out HEAD of ws.Dir.
func (r *ExampleOutput) headCheckedOut(ctx context.Context, ws *review.Workspace) error {
	_, err := r.checkout.get(ws, "", func() (bool, error) {
		if ws.Head == "worktree" {
			return true, nil
		}
		git := func(args ...string) (string, error) {
			cmd := exec.CommandContext(ctx, "git", append([]string{"-C", ws.Dir}, args...)...)
			cmd.Env = gitrepo.Env(os.Environ())
			out, err := cmd.Output()
			return strings.TrimSpace(string(out)), err
		}
		head, err := git("rev-parse", "HEAD")
		if err != nil {
			return false, fmt.Errorf("run examples: read HEAD of %s: %w", ws.Dir, err)
		}
		if head != ws.Head {
			return false, fmt.Errorf("run examples: %s is checked out in %s, not the reviewed head %s", head, ws.Dir, ws.Head)
		}
		dirty, err := git("status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return false, fmt.Errorf("run examples: git status in %s: %w", ws.Dir, err)
		}
		if dirty != "" {
			return false, fmt.Errorf("run examples: %s has uncommitted changes, so it is not the reviewed head", ws.Dir)
		}
		return true, nil
	})
	return err
}

// failRE finds a failing example's report in go test's output.
var failRE = regexp.MustCompile(`(?m)^--- FAIL: (Example\w*) \([^)]*\)\ngot:\n((?s:.*?))\nwant:\n((?s:.*?))\n(?:--- |FAIL|ok |PASS|exit status)`)

// runExamples runs the Example functions of the package in dir of the
// checkout root and returns the failing ones. It fails when go test
// cannot run, times out, or fails other than by an example's output.
func runExamples(ctx context.Context, root, dir string, timeout time.Duration) (exampleRun, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-run", "^Example", "-count=1", "./"+dir)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("run examples of %s: timed out after %s", dir, timeout)
	}
	run := exampleRun{}
	for _, m := range failRE.FindAllStringSubmatch(out.String(), -1) {
		run[m[1]] = exampleFailure{got: m[2], want: m[3]}
	}
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || len(run) == 0) {
		return nil, fmt.Errorf("run examples of %s: %w: %s", dir, err, lastLines(out.String(), 5))
	}
	return run, nil
}

// lastLines returns the last n lines of s, trimmed.
func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], "\n")
}

// fileLines returns the lines of a file at head.
func (r *ExampleOutput) fileLines(ws *review.Workspace, path string) ([]string, error) {
	return headLines(&r.lines, ws, path)
}
