package webhook

// Job is one pull request head to review: what a delivery enqueues and what
// a [Runner] runs. It is stored as the arguments of a River job (JSON), so
// its fields must stay compatible across releases.
type Job struct {
	// InstallationID is the GitHub App installation whose token the job
	// uses.
	InstallationID int64
	// Owner and Repo name the repository.
	Owner, Repo string
	// PR is the pull request number.
	PR int
	// HeadSHA is the head commit to review; "" means the pull request's
	// current head, resolved by the Runner: a re-run requested with a
	// /docreview comment carries no head (the issue_comment payload has
	// none).
	HeadSHA string
	// BaseSHA is the base branch tip the event named ("" for a re-run); the
	// Runner computes the merge base.
	BaseSHA string
	// DeliveryID is the X-GitHub-Delivery id of the delivery that enqueued
	// the job.
	DeliveryID string
	// Rerun is set when the review was requested with a /docreview comment:
	// run even if this head was reviewed.
	Rerun bool
}
