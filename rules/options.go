package rules

import (
	"context"
	"time"

	"github.com/docreview/docreview/review"
)

// Options configures the rules [AllWith] returns. The zero value is what
// [All] uses: nothing is executed.
type Options struct {
	// RunExamples lets the snippet rule run the Example functions of the
	// diff's packages with "go test" in the checkout and report those whose
	// "// Output:" comment no longer matches. It executes the reviewed
	// code, so it is off by default.
	RunExamples bool
	// ExampleTimeout bounds each "go test" run; zero means 2 minutes.
	ExampleTimeout time.Duration
}

// AllWith returns a fresh instance of every rule, as [All] does, with the
// snippet rule configured by opt.
func AllWith(opt Options) []review.Judge {
	js := All()
	for _, j := range js {
		if s, ok := j.(*Snippet); ok {
			s.RunExamples, s.ExampleTimeout = opt.RunExamples, opt.ExampleTimeout
		}
	}
	return js
}

// Judge runs the snippet rule's checks on the claim and reports the most
// severe finding, the first check's on a tie: the Go blocks (see [Snippet]),
// the shell blocks that run the module's own commands, the relative links
// of Markdown, and, when RunExamples is set, the output of Example
// functions. It fails when a file the checks need cannot be read.
func (r *Snippet) Judge(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	var best *review.Verdict
	var held error
	for i, check := range []func() (*review.Verdict, error){
		func() (*review.Verdict, error) { return r.judgeGo(ctx, ws, c) },
		func() (*review.Verdict, error) { return r.cliVerdict(ws, c) },
		func() (*review.Verdict, error) { return r.linkVerdict(ws, c) },
		func() (*review.Verdict, error) { return r.exampleVerdict(ctx, ws, c) },
	} {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		v, err := check()
		if err != nil && i == 3 {
			// Examples that cannot run cost only their own check.
			held = err
			continue
		}
		if err != nil {
			return nil, err
		}
		if v != nil && (best == nil || v.Label.Severity() > best.Label.Severity()) {
			best = v
		}
	}
	if best == nil && held != nil {
		return nil, held
	}
	return best, nil
}
