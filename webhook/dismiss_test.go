package webhook

import (
	"encoding/json"
	"testing"

	gh "github.com/google/go-github/v62/github"

	ghpub "github.com/docreview/docreview/review/github"
)

// TestDismissReplyAgreesWithPublisher: a review-comment reply queues a
// re-run exactly when the publisher will read it as a dismissal by someone
// who may dismiss, so no re-run is queued for a reply the publisher
// ignores, and no dismissal waits for the next push.
func TestDismissReplyAgreesWithPublisher(t *testing.T) {
	bodies := []string{
		"/docreview dismiss the guide is versioned",
		"/docreview\tdismiss tab between the words",
		"/docreview  dismiss",
		"\n\n/docreview dismiss after blank lines",
		"/docreview\ndismiss on the next line",
		"/docreview dismissal",
		"/docreviewdismiss x",
		"please /docreview dismiss",
		"/docreview",
	}
	for _, body := range bodies {
		for _, assoc := range []string{"OWNER", "MEMBER", "COLLABORATOR", "CONTRIBUTOR", "NONE", "FIRST_TIME_CONTRIBUTOR"} {
			var ev gh.PullRequestReviewCommentEvent
			if err := json.Unmarshal(reviewReply(t, body, assoc, 41), &ev); err != nil {
				t.Fatal(err)
			}
			job, _ := reviewCommentJob(&ev)
			_, parsed := ghpub.ParseDismiss(body)
			want := parsed && ghpub.MayDismiss(assoc)
			if got := job != nil; got != want {
				t.Errorf("reply %q by %s: re-run queued %v, publisher reads a dismissal %v", body, assoc, got, want)
			}
		}
	}
}
