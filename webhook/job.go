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

// SupersededError is what a [Runner] returns when the pull request's head
// at run time is not the job's: the job is cancelled and a review of Head
// is queued unless one is waiting, running or done since. Deliveries can
// arrive out of order with equal updated_at times, so only the API's head,
// read when the job runs, decides which head is the newest.
type SupersededError struct {
	// Head and Base are the pull request's head and base commits as the
	// API gave them.
	Head, Base string
}

func (e *SupersededError) Error() string {
	return "superseded by head " + e.Head
}
