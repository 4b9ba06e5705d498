package rules

import (
	"time"

	"github.com/docreview/docreview/review"
)

// Options configures the rules [AllWith] returns. The zero value is what
// [All] uses: nothing is executed.
type Options struct {
	// RunExamples lets the example-output rule run the Example functions
	// of the diff's packages with "go test" in the checkout and report
	// those whose "// Output:" comment no longer matches. It executes the
	// reviewed code, so it is off by default.
	RunExamples bool
	// ExampleTimeout bounds each "go test" run; zero means 2 minutes.
	ExampleTimeout time.Duration
}

// AllWith returns a fresh instance of every rule, as [All] does, with the
// example-output rule configured by opt.
func AllWith(opt Options) []review.Judge {
	js := All()
	for _, j := range js {
		if e, ok := j.(*ExampleOutput); ok {
			e.RunExamples, e.ExampleTimeout = opt.RunExamples, opt.ExampleTimeout
		}
	}
	return js
}
