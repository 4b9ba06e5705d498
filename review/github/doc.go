// Package github publishes a [review.Report] to a GitHub pull request with
// go-github v62: a review whose inline comments sit on the documentation
// lines of the diff, one summary comment on the pull request that is edited
// in place on every run, and a "docreview" check run on the head commit.
//
// Publishing is idempotent. Every comment carries a hidden fingerprint
// marker ([Fingerprint]), so a re-run on the same head posts nothing new,
// a new push posts only the findings not posted before, and a finding that
// disappeared has its comment edited to say it is resolved. A finding whose
// comment GitHub shows as outdated after a push is posted again on its new
// lines, and the outdated comment is edited to point there. Only comments
// written by the token's identity count ([Options.Author]): a marker copied
// into someone else's comment is ignored. A create that failed in a way
// that may have been carried out (5xx, lost connection) is looked for
// before it is retried. A reply
// "/docreview dismiss <reason>" in the thread of one of docreview's
// comments, by the repository's owner, a member or a collaborator (GitHub's
// author_association), or an entry of .docreview/dismissed.yml
// ([LoadDismissed]), suppresses that finding for good.
//
// Usage:
//
//	client := gh.NewClient(nil).WithAuthToken(token)
//	res, err := github.Publish(ctx, github.Options{
//		Client: client, Owner: "o", Repo: "r", PR: 7, HeadSHA: sha,
//		ServerURL: "https://github.com",
//		Reporters: github.Reporters{Review: true, Check: true, Summary: true},
//		FailOn:    "contradicted",
//	}, report)
//	if errors.Is(err, github.ErrReadOnly) {
//		// fork pull request or read-only token: fall back to workflow
//		// commands and the job summary
//	}
package github
