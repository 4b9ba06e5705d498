package review

import "fmt"

// FailOn is the lowest label that fails a review: the exit code of
// 'docreview review', 'action' and 'publish', and the conclusion of the
// check run, all decide with [FailOn.Failed], so a finding that fails one
// fails the others.
type FailOn string

// The fail-on levels.
const (
	// FailNever fails on nothing.
	FailNever FailOn = "never"
	// FailIncomplete fails on incomplete and contradicted findings.
	FailIncomplete FailOn = "incomplete"
	// FailContradicted fails on contradicted findings (the default).
	FailContradicted FailOn = "contradicted"
)

// ParseFailOn reads a fail-on level as written in a flag, an Action input
// or .docreview.yml; "" is the default, [FailContradicted].
func ParseFailOn(s string) (FailOn, error) {
	switch f := FailOn(s); f {
	case "":
		return FailContradicted, nil
	case FailNever, FailIncomplete, FailContradicted:
		return f, nil
	}
	return "", fmt.Errorf("unknown fail-on level %q (want never, incomplete or contradicted)", s)
}

// Fails reports whether a finding labelled l fails the review. The zero
// FailOn is [FailContradicted].
func (f FailOn) Fails(l Label) bool {
	switch f {
	case FailNever:
		return false
	case FailIncomplete:
		return l == Incomplete || l == Contradicted
	default:
		return l == Contradicted
	}
}

// Failed reports whether a verdict of vs fails the review: its label
// [FailOn.Fails] and dismissed, when not nil, does not report it
// dismissed.
func (f FailOn) Failed(vs []Verdict, dismissed func(Verdict) bool) bool {
	for _, v := range vs {
		if f.Fails(v.Label) && (dismissed == nil || !dismissed(v)) {
			return true
		}
	}
	return false
}
