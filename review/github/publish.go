package github

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	gh "github.com/google/go-github/v62/github"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/mdtext"
)

// CheckName is the name of the check run Publish writes.
const CheckName = "docreview"

// DefaultMaxComments is the number of new inline comments one run posts
// when [Options.MaxComments] is zero.
const DefaultMaxComments = 30

// ErrReadOnly is wrapped by the error Publish returns when a write (a
// review, a comment edit, the summary comment or the check run) is refused
// with 403 Forbidden for a reason other than a rate limit: the token is
// read-only, as GITHUB_TOKEN is on pull requests from forks. The caller
// should fall back to workflow-command annotations and the job summary.
var ErrReadOnly = errors.New("github token cannot write to this pull request")

// Options says where and what Publish writes.
type Options struct {
	// Client is the go-github client, with authentication and BaseURL set
	// (see [gh.Client.WithEnterpriseURLs] for GHES). Required. Publish
	// does not modify it: it counts requests through a copy that shares
	// its transport (so a primary rate limit Client saw earlier is not
	// remembered by the copy).
	Client *gh.Client
	// Owner, Repo and PR name the pull request; HeadSHA is the commit the
	// report reviewed. All required.
	Owner, Repo string
	PR          int
	HeadSHA     string
	// ServerURL is the web address blob links point at: "https://github.com"
	// (the default when empty) or a GHES host.
	ServerURL string
	// Reporters says which outputs to write; with all false Publish makes
	// no request.
	Reporters Reporters
	// MaxComments is the number of new inline comments per run; 0 means
	// [DefaultMaxComments]. Findings over the limit are listed in the
	// summary and counted in [Result.Overflow]. Negative is an error.
	MaxComments int
	// FailOn sets the check run's conclusion: "failure" when a finding
	// that is not dismissed fails it ([review.FailOn.Failed]). Empty means
	// [review.FailContradicted].
	FailOn review.FailOn
	// Dismissed are the dismissals committed in .docreview/dismissed.yml
	// (see [LoadDismissed]).
	Dismissed []Dismissal
	// Logger receives progress and retries; nil discards.
	Logger *slog.Logger
	// Author is the login of the token's identity ("github-actions[bot]",
	// "my-app[bot]", or a user's login for a personal access token). A
	// review comment carrying a fingerprint marker, and an issue comment
	// carrying the summary marker, count as docreview's own (kept, edited,
	// resolved, reused as the summary) only when written by this login,
	// compared case-insensitively. Empty means any author whose user type
	// is "Bot", which fits GITHUB_TOKEN and GitHub Apps; with a personal
	// access token Author must be set, or every run posts its findings and
	// a summary comment anew (a user's comments are never taken for ours,
	// so a marker copied into one by hand changes nothing).
	Author string

	// retryBase scales every wait that is not given by the server
	// (backoff 1×, 2×, 4× and the one-minute secondary-rate-limit default
	// as 60×); zero means one second. Tests shorten it.
	retryBase time.Duration
}

// Reporters selects the outputs Publish writes.
type Reporters struct {
	// Review posts new findings that sit on lines of the diff as inline
	// comments of one review, and edits the comments of resolved findings.
	Review bool
	// Check writes the "docreview" check run on the head commit.
	Check bool
	// Summary writes the summary comment on the pull request.
	Summary bool
}

// Result says what Publish did.
type Result struct {
	// Requests counts the HTTP requests made, retries included.
	Requests int
	// Posted counts new inline comments; Kept the findings whose comment
	// was already there; Resolved the comments edited to say their finding
	// is gone; Dismissed the findings suppressed by a dismissal; Overflow
	// the findings on the diff not posted because of MaxComments.
	Posted, Kept, Resolved, Dismissed, Overflow int
	// Rejected counts the findings whose inline comments GitHub refused
	// with 422 (a line no longer in the diff, as after a force-push): the
	// review was posted again without inline comments and these findings
	// are listed in the summary instead. Posted does not count them.
	Rejected int
	// Moved counts the outdated comments (GitHub no longer places them on
	// a line, after a push changed their lines) whose finding is still
	// reported and is now on the diff, posted again (counted in Posted) or
	// already posted again by an earlier run (counted in Kept): each is
	// edited to say so and loses its suggestion, and is never edited again.
	Moved int
	// ReviewID is the review created, 0 when nothing new was posted;
	// SummaryCommentID the summary comment (created or edited); CheckRunID
	// the check run created or, with CheckReused, found already written.
	// Each is 0 when its reporter is off.
	ReviewID, SummaryCommentID, CheckRunID int64
	// CheckReused is set when the head's latest docreview check run said
	// exactly this already (see writeCheck) and none was created.
	CheckReused bool
	// Conclusion is the check run's conclusion: "failure", "neutral" (some
	// claims or files were not reviewed) or "success". It is computed even
	// when the Check reporter is off.
	Conclusion string
}

// The kinds of placement of a finding.
type state int

const (
	stNew       state = iota // posted inline in this run
	stKept                   // its inline comment already exists
	stOutside                // not on a line of the diff
	stOverflow               // on the diff, over MaxComments
	stReviewOff              // not placed: the Review reporter is off
	stDismissed              // suppressed
	stRejected               // its inline comment was refused with 422
)

// finding is a contradicted or incomplete verdict and what Publish does
// with it.
type finding struct {
	v     review.Verdict
	fp    string
	place placement // zero when no claim line is on the diff
	state state
	// dismissal is set for stDismissed.
	dismissal Dismissal
}

// publisher holds one Publish call's state.
type publisher struct {
	opt      Options
	c        *gh.Client
	log      *slog.Logger
	requests *atomic.Int64
	res      Result
	// filesComplete is false when the file list stopped at the page cap.
	filesComplete bool
}

// Publish writes rep to the pull request: the review (new inline comments
// and resolved edits), then the summary comment, then the check run, each
// when its reporter is on. Findings are the verdicts labelled contradicted
// or incomplete; a finding whose claim lines intersect the lines of the
// pull request's diff (head side) is an inline comment, the others are
// listed in the summary and annotated on the check run.
//
// Requests failing with 5xx, 429, a rate limit or a connection error are
// retried at most 3 times, waiting as Retry-After (or X-RateLimit-Reset)
// says, otherwise 1, 2 and 4 seconds after a 5xx or connection error and a
// minute after a 429 or secondary rate limit; a wait over a minute is not
// made and the error is returned. Waits end early with ctx. A create that
// failed with a 5xx or a connection error may have been carried out, so
// before retrying it Publish looks for its result (the review by its
// comments' fingerprint markers or, without inline comments, by its body;
// the summary comment by its marker; the check run by its content's
// digest; appended annotations by the check run's count) and does not
// retry when it is there. A check run saying exactly what the head's
// latest docreview check run says is not created again (see writeCheck):
// repeating Publish posts nothing twice. A 422 on the review (a
// comment's line is not in the diff) does not fail the run: see
// [Result.Rejected]. Publish stops at the first other error and returns it
// with the Result so far; a 403 on a write that is not a rate limit wraps
// [ErrReadOnly].
//
// A finding whose comment GitHub reports outdated (its lines changed in a
// later push) and that is still in the report is posted again where it is
// now, when that is on the diff, and the outdated comment is edited to
// point there (see [Result.Moved]); a finding that is gone has its
// comment, outdated or not, resolved.
//
// Publish returns an error without any request when a required option is
// missing or FailOn or MaxComments is invalid.
//
// Resolving review threads needs the GraphQL API, which Publish does not
// use: a resolved finding's comment is edited, its thread stays open.
func Publish(ctx context.Context, opt Options, rep review.Report) (Result, error) {
	if err := validate(&opt); err != nil {
		return Result{}, fmt.Errorf("publish to github: %w", err)
	}
	p := newPublisher(opt)
	err := p.run(ctx, rep)
	p.res.Requests = int(p.requests.Load())
	if err != nil {
		return p.res, fmt.Errorf("publish to %s/%s#%d: %w", opt.Owner, opt.Repo, opt.PR, err)
	}
	return p.res, nil
}

// validate checks opt and fills in defaults.
func validate(opt *Options) error {
	switch {
	case opt.Client == nil:
		return errors.New("no client")
	case opt.Owner == "" || opt.Repo == "":
		return errors.New("no owner or repository")
	case opt.PR <= 0:
		return fmt.Errorf("invalid pull request number %d", opt.PR)
	case opt.HeadSHA == "":
		return errors.New("no head SHA")
	case opt.MaxComments < 0:
		return fmt.Errorf("invalid max comments %d", opt.MaxComments)
	}
	if opt.MaxComments == 0 {
		opt.MaxComments = DefaultMaxComments
	}
	f, err := review.ParseFailOn(string(opt.FailOn))
	if err != nil {
		return fmt.Errorf("invalid fail-on: %w", err)
	}
	opt.FailOn = f
	if opt.ServerURL == "" {
		opt.ServerURL = "https://github.com"
	}
	opt.ServerURL = strings.TrimSuffix(opt.ServerURL, "/")
	if opt.retryBase <= 0 {
		opt.retryBase = time.Second
	}
	return nil
}

// newPublisher makes a copy of opt.Client whose transport counts requests.
func newPublisher(opt Options) *publisher {
	n := &atomic.Int64{}
	hc := opt.Client.Client() // a copy
	hc.Transport = countingTransport{base: hc.Transport, n: n}
	c := gh.NewClient(hc)
	c.BaseURL, c.UploadURL, c.UserAgent = opt.Client.BaseURL, opt.Client.UploadURL, opt.Client.UserAgent
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("repo", opt.Owner+"/"+opt.Repo, "pr", opt.PR)
	return &publisher{opt: opt, c: c, log: log, requests: n, filesComplete: true}
}

// countingTransport counts the requests it sends.
type countingTransport struct {
	base http.RoundTripper
	n    *atomic.Int64
}

// RoundTrip counts r and sends it with the base transport.
func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.n.Add(1)
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

func (p *publisher) run(ctx context.Context, rep review.Report) error {
	r := p.opt.Reporters
	if !r.Review && !r.Check && !r.Summary {
		return nil
	}
	var diff map[string][]hunk
	if r.Review {
		var err error
		if diff, err = p.listFiles(ctx); err != nil {
			return err
		}
	}
	comments, err := p.listReviewComments(ctx)
	if err != nil {
		return err
	}
	ours := collectOurs(comments, p.isOurs)
	findings := p.classify(rep, diff, ours)
	p.res.Conclusion = conclusion(rep, findings, p.opt.FailOn)

	if r.Review {
		if err := p.postReview(ctx, findings, ours); err != nil {
			return err
		}
		if err := p.resolve(ctx, findings, &ours); err != nil {
			return err
		}
		if err := p.markMoved(ctx, findings, ours); err != nil {
			return err
		}
	}
	sum := summaryBody(p.opt, rep, findings, ours, p.filesComplete)
	if r.Summary {
		if err := p.writeSummary(ctx, sum); err != nil {
			return err
		}
	}
	if r.Check {
		if err := p.writeCheck(ctx, rep, findings, sum); err != nil {
			return err
		}
	}
	return nil
}

// maxPages bounds every paginated listing: 50 pages of 100 items, which
// covers the API's limit of 3,000 files per pull request.
const maxPages = 50

// paginate calls list for pages 1, 2, ... until the response has no next
// page, or a next page that does not advance (a mock replaying a static
// Link header), or maxPages pages were read; complete is false in the last
// case.
func paginate[T any](ctx context.Context, p *publisher, op string, list func(opts gh.ListOptions) ([]T, *gh.Response, error)) (items []T, complete bool, err error) {
	opts := gh.ListOptions{PerPage: 100, Page: 1}
	for range maxPages {
		page, resp, err := call(ctx, p, op, false, func() ([]T, *gh.Response, error) { return list(opts) })
		if err != nil {
			return items, false, err
		}
		items = append(items, page...)
		if resp.NextPage == 0 || resp.NextPage <= opts.Page {
			return items, true, nil
		}
		opts.Page = resp.NextPage
	}
	p.log.Warn("listing stopped at the page cap", "op", op, "pages", maxPages)
	return items, false, nil
}

// listFiles returns the head-side hunks of each file of the pull request.
// Files without a patch (binary, or too large for the API) have no hunks.
func (p *publisher) listFiles(ctx context.Context) (map[string][]hunk, error) {
	files, complete, err := paginate(ctx, p, "list pull request files", func(o gh.ListOptions) ([]*gh.CommitFile, *gh.Response, error) {
		return p.c.PullRequests.ListFiles(ctx, p.opt.Owner, p.opt.Repo, p.opt.PR, &o)
	})
	if err != nil {
		return nil, err
	}
	p.filesComplete = complete
	diff := make(map[string][]hunk, len(files))
	for _, f := range files {
		diff[f.GetFilename()] = parsePatch(f.GetPatch())
	}
	return diff, nil
}

// listReviewComments returns every review comment of the pull request.
func (p *publisher) listReviewComments(ctx context.Context) ([]*gh.PullRequestComment, error) {
	cs, _, err := paginate(ctx, p, "list review comments", func(o gh.ListOptions) ([]*gh.PullRequestComment, *gh.Response, error) {
		return p.c.PullRequests.ListComments(ctx, p.opt.Owner, p.opt.Repo, p.opt.PR,
			&gh.PullRequestListCommentsOptions{Sort: "created", Direction: "asc", ListOptions: o})
	})
	return cs, err
}

// isOurs reports whether u is the identity Publish writes as (see
// [Options.Author]).
func (p *publisher) isOurs(u *gh.User) bool {
	if p.opt.Author != "" {
		return strings.EqualFold(u.GetLogin(), p.opt.Author)
	}
	return u.GetType() == "Bot"
}

// outdated reports a review comment GitHub no longer places on a line of
// the diff: a push changed the lines it was on, and line is null.
func outdated(c *gh.PullRequestComment) bool { return c.Line == nil }

// ourComments are docreview's review comments found by their markers.
type ourComments struct {
	// live maps a fingerprint to its comments that are neither resolved
	// nor moved, in listing order, outdated ones included.
	live map[string][]*gh.PullRequestComment
	// resolved lists comments already marked resolved, in listing order,
	// with the head they were resolved in.
	resolved []resolvedComment
	// dismissed maps a fingerprint to the first dismissal reply in the
	// thread of one of its comments.
	dismissed map[string]Dismissal
	// listed holds the IDs of every review comment listed, ours or not.
	listed map[int64]bool
}

// current is fp's first live comment that is not outdated, or nil.
func (o ourComments) current(fp string) *gh.PullRequestComment {
	for _, c := range o.live[fp] {
		if !outdated(c) {
			return c
		}
	}
	return nil
}

// resolvedComment is a comment marked resolved.
type resolvedComment struct {
	c   *gh.PullRequestComment
	fp  string
	sha string
}

// collectOurs finds docreview's comments (top-level comments with a
// fingerprint marker whose author isOurs) and the dismissal replies in
// their threads.
func collectOurs(comments []*gh.PullRequestComment, isOurs func(*gh.User) bool) ourComments {
	o := ourComments{live: map[string][]*gh.PullRequestComment{}, dismissed: map[string]Dismissal{}, listed: map[int64]bool{}}
	fpOf := map[int64]string{}
	for _, c := range comments {
		o.listed[c.GetID()] = true
		if c.GetInReplyTo() != 0 || !isOurs(c.GetUser()) {
			continue
		}
		m, ok := parseMarkers(c.GetBody())
		if !ok {
			continue
		}
		fpOf[c.GetID()] = m.fp
		switch {
		case m.resolved != "":
			o.resolved = append(o.resolved, resolvedComment{c: c, fp: m.fp, sha: m.resolved})
		case m.moved != "":
		default:
			o.live[m.fp] = append(o.live[m.fp], c)
		}
	}
	for _, c := range comments {
		fp, ok := fpOf[c.GetInReplyTo()]
		if !ok {
			continue
		}
		reason, ok := ParseDismiss(c.GetBody())
		if !ok || !MayDismiss(c.GetAuthorAssociation()) {
			// Only people who can write to the repository dismiss
			// findings: anyone can reply on a public repository.
			continue
		}
		if _, dup := o.dismissed[fp]; !dup {
			o.dismissed[fp] = Dismissal{Fingerprint: fp, Reason: reason, By: c.GetUser().GetLogin()}
		}
	}
	return o
}

// classify turns the report's findings into the work to do. A finding
// whose comments are all outdated is placed as a new one (see markMoved).
// New inline findings are ordered contradicted first, then as in the
// report, and the first MaxComments are posted.
func (p *publisher) classify(rep review.Report, diff map[string][]hunk, ours ourComments) []finding {
	byFP := map[string]Dismissal{}
	for _, d := range p.opt.Dismissed {
		byFP[d.Fingerprint] = d
	}
	var out []finding
	seen := map[string]bool{}
	for _, v := range rep.Verdicts {
		if v.Label != review.Contradicted && v.Label != review.Incomplete {
			continue
		}
		f := finding{v: v, fp: Fingerprint(v)}
		if seen[f.fp] {
			continue
		}
		seen[f.fp] = true
		if d, ok := byFP[f.fp]; ok {
			f.state, f.dismissal = stDismissed, d
		} else if d, ok := ours.dismissed[f.fp]; ok {
			f.state, f.dismissal = stDismissed, d
		} else if ours.current(f.fp) != nil {
			f.state = stKept
		} else if !p.opt.Reporters.Review {
			f.state = stReviewOff
		} else if pl, ok := place(diff[v.Claim.Path], v.Claim.Line, v.Claim.EndLine); ok {
			f.place, f.state = pl, stNew
		} else {
			f.state = stOutside
		}
		out = append(out, f)
	}
	var fresh []int
	for i, f := range out {
		if f.state == stNew {
			fresh = append(fresh, i)
		}
	}
	slices.SortStableFunc(fresh, func(a, b int) int {
		return cmp.Compare(out[b].v.Label.Severity(), out[a].v.Label.Severity())
	})
	for n, i := range fresh {
		if n >= p.opt.MaxComments {
			out[i].state = stOverflow
		}
	}
	for _, f := range out {
		switch f.state {
		case stKept:
			p.res.Kept++
		case stDismissed:
			p.res.Dismissed++
		case stOverflow:
			p.res.Overflow++
		}
	}
	return out
}

// conclusion is the check run's conclusion for the classified findings
// ([Conclusion] with the dismissed ones).
func conclusion(rep review.Report, findings []finding, failOn review.FailOn) string {
	dismissed := map[string]bool{}
	for _, f := range findings {
		if f.state == stDismissed {
			dismissed[f.fp] = true
		}
	}
	return Conclusion(rep, failOn, func(v review.Verdict) bool { return dismissed[Fingerprint(v)] })
}

// Conclusion is the check run's conclusion for a report: "failure" when a
// finding that dismissed does not report dismissed fails failOn
// ([review.FailOn.Failed]); otherwise "neutral" when a claim was skipped
// or a file not fully read (a report note); otherwise "success".
func Conclusion(rep review.Report, failOn review.FailOn, dismissed func(review.Verdict) bool) string {
	if failOn.Failed(rep.Verdicts, dismissed) {
		return "failure"
	}
	if reportStats(rep).Skipped > 0 || len(rep.Notes) > 0 {
		return "neutral"
	}
	return "success"
}

// skippedVerdicts are the verdicts [review.Count] counts as skipped: a
// Skipped reason and no finding.
func skippedVerdicts(rep review.Report) []review.Verdict {
	var out []review.Verdict
	for _, v := range rep.Verdicts {
		if v.Skipped != "" && v.Label != review.Contradicted && v.Label != review.Incomplete {
			out = append(out, v)
		}
	}
	return out
}

// postReview creates one COMMENT review with the new inline comments, or
// nothing when there are none. When GitHub refuses the review with 422
// (a comment's line is not in its diff: the pull request changed after the
// files were listed, or GitHub disagrees on the hunks), postReview marks
// every new finding stRejected, so the summary lists them, and posts the
// review once more without inline comments; a 422 on that one is logged
// and the run goes on without a review.
func (p *publisher) postReview(ctx context.Context, findings []finding, ours ourComments) error {
	var drafts []*gh.DraftReviewComment
	fps := map[string]bool{}
	for _, f := range findings {
		if f.state != stNew {
			continue
		}
		d := &gh.DraftReviewComment{
			Path: gh.String(f.v.Claim.Path),
			Body: gh.String(truncate(inlineBody(p.opt, f), maxCommentBody)),
			Line: gh.Int(f.place.end), Side: gh.String("RIGHT"),
		}
		if f.place.start < f.place.end {
			d.StartLine, d.StartSide = gh.Int(f.place.start), gh.String("RIGHT")
		}
		drafts = append(drafts, d)
		fps[f.fp] = true
	}
	if len(drafts) == 0 {
		return nil
	}
	body := fmt.Sprintf("%s\ndocreview found %d new documentation %s in this push; the summary comment lists every finding.",
		reviewMarker, len(drafts), plural(len(drafts), "finding", "findings"))
	rv, _, err := create(ctx, p, "create review", p.createReview(ctx, body, drafts), func() (*gh.PullRequestReview, bool, error) {
		return p.findReview(ctx, fps, ours.listed)
	})
	if status(err) == http.StatusUnprocessableEntity {
		p.log.Warn("GitHub refused the inline comments; posting the review without them", "comments", len(drafts), "err", err)
		for i := range findings {
			if findings[i].state == stNew {
				findings[i].state = stRejected
				p.res.Rejected++
			}
		}
		body = fmt.Sprintf("%s\ndocreview found %d new documentation %s in this push, but GitHub would not place %s on the diff; the summary comment lists %s.",
			reviewMarker, len(drafts), plural(len(drafts), "finding", "findings"), plural(len(drafts), "it", "them"), plural(len(drafts), "it", "them"))
		rv, _, err = create(ctx, p, "create review without inline comments", p.createReview(ctx, body, nil), func() (*gh.PullRequestReview, bool, error) {
			return p.findBodyReview(ctx, body)
		})
		if status(err) == http.StatusUnprocessableEntity {
			p.log.Warn("GitHub refused the review without inline comments too; going on without a review", "err", err)
			return nil
		}
		if err != nil {
			return err
		}
		p.res.ReviewID = rv.GetID()
		p.log.Info("review posted without inline comments", "review_id", p.res.ReviewID, "rejected", p.res.Rejected)
		return nil
	}
	if err != nil {
		return err
	}
	p.res.ReviewID = rv.GetID()
	p.res.Posted = len(drafts)
	p.log.Info("review posted", "review_id", p.res.ReviewID, "comments", len(drafts))
	return nil
}

// createReview returns the request creating a COMMENT review on HeadSHA.
func (p *publisher) createReview(ctx context.Context, body string, drafts []*gh.DraftReviewComment) func() (*gh.PullRequestReview, *gh.Response, error) {
	return func() (*gh.PullRequestReview, *gh.Response, error) {
		return p.c.PullRequests.CreateReview(ctx, p.opt.Owner, p.opt.Repo, p.opt.PR, &gh.PullRequestReviewRequest{
			CommitID: gh.String(p.opt.HeadSHA), Body: gh.String(body), Event: gh.String("COMMENT"), Comments: drafts,
		})
	}
}

// findReview looks for a review a failed create carried out: one of our
// review comments that was not listed before and carries one of the
// fingerprints fps (a review's comments are created together, so one is
// enough). The review returned has only its ID.
func (p *publisher) findReview(ctx context.Context, fps map[string]bool, listed map[int64]bool) (*gh.PullRequestReview, bool, error) {
	cs, err := p.listReviewComments(ctx)
	if err != nil {
		return nil, false, err
	}
	for _, c := range cs {
		if listed[c.GetID()] || c.GetInReplyTo() != 0 || !p.isOurs(c.GetUser()) {
			continue
		}
		if m, ok := parseMarkers(c.GetBody()); ok && fps[m.fp] && m.resolved == "" && m.moved == "" {
			return &gh.PullRequestReview{ID: c.PullRequestReviewID}, true, nil
		}
	}
	return nil, false, nil
}

// findBodyReview looks for a review without inline comments that a failed
// create carried out: one of ours on HeadSHA with exactly body. An
// identical review of an earlier run on the same head is taken for it,
// which is what a retry would have duplicated.
func (p *publisher) findBodyReview(ctx context.Context, body string) (*gh.PullRequestReview, bool, error) {
	rvs, _, err := paginate(ctx, p, "list reviews", func(o gh.ListOptions) ([]*gh.PullRequestReview, *gh.Response, error) {
		return p.c.PullRequests.ListReviews(ctx, p.opt.Owner, p.opt.Repo, p.opt.PR, &o)
	})
	if err != nil {
		return nil, false, err
	}
	for _, rv := range slices.Backward(rvs) {
		if p.isOurs(rv.GetUser()) && rv.GetCommitID() == p.opt.HeadSHA && rv.GetBody() == body {
			return rv, true, nil
		}
	}
	return nil, false, nil
}

// status is the HTTP status of a GitHub error response in err's chain, or
// 0.
func status(err error) int {
	var er *gh.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}

// resolve edits the live comments (outdated ones included) whose finding
// is absent from the report to say they are resolved, and records them in
// ours.resolved for the summary.
func (p *publisher) resolve(ctx context.Context, findings []finding, ours *ourComments) error {
	present := map[string]bool{}
	for _, f := range findings {
		present[f.fp] = true
	}
	var gone []*gh.PullRequestComment
	for fp, cs := range ours.live {
		if !present[fp] {
			gone = append(gone, cs...)
		}
	}
	slices.SortFunc(gone, func(a, b *gh.PullRequestComment) int { return cmp.Compare(a.GetID(), b.GetID()) })
	for _, c := range gone {
		m, _ := parseMarkers(c.GetBody())
		fp := m.fp
		body := resolvedBody(c.GetBody(), fp, p.opt.HeadSHA)
		_, _, err := call(ctx, p, "mark comment resolved", true, func() (*gh.PullRequestComment, *gh.Response, error) {
			return p.c.PullRequests.EditComment(ctx, p.opt.Owner, p.opt.Repo, c.GetID(), &gh.PullRequestComment{Body: gh.String(body)})
		})
		if err != nil {
			return err
		}
		p.res.Resolved++
		c.Body = gh.String(body)
		ours.resolved = append(ours.resolved, resolvedComment{c: c, fp: fp, sha: p.opt.HeadSHA})
		delete(ours.live, fp)
		p.log.Info("finding resolved", "comment_id", c.GetID(), "fingerprint", fp)
	}
	return nil
}

// markMoved edits the outdated comments of the findings that are on the
// diff again, posted in this run or kept from an earlier one, to say the
// finding moved (see [movedBody]). The outdated comments of a finding that
// is not on the diff now (outside it, over the limit, rejected, dismissed)
// are left alone: they are the only inline trace of it, and a later run
// moves or resolves them.
func (p *publisher) markMoved(ctx context.Context, findings []finding, ours ourComments) error {
	for _, f := range findings {
		var start, end int
		switch f.state {
		case stNew:
			start, end = f.place.start, f.place.end
		case stKept:
			c := ours.current(f.fp)
			start, end = c.GetStartLine(), c.GetLine()
		default:
			continue
		}
		for _, c := range ours.live[f.fp] {
			if !outdated(c) {
				continue
			}
			body := movedBody(c.GetBody(), f.fp, p.opt.HeadSHA, f.v.Claim.Path, start, end)
			_, _, err := call(ctx, p, "mark outdated comment moved", true, func() (*gh.PullRequestComment, *gh.Response, error) {
				return p.c.PullRequests.EditComment(ctx, p.opt.Owner, p.opt.Repo, c.GetID(), &gh.PullRequestComment{Body: gh.String(body)})
			})
			if err != nil {
				return err
			}
			p.res.Moved++
			p.log.Info("outdated comment marked moved", "comment_id", c.GetID(), "fingerprint", f.fp, "line", end)
		}
	}
	return nil
}

// writeSummary edits the first of our comments that carries the summary
// marker (when its body differs), deletes our others, or creates one. A
// comment by anyone else (see [Options.Author]) is ignored, not edited,
// which would fail and look like a read-only token.
func (p *publisher) writeSummary(ctx context.Context, body string) error {
	body = truncate(body, maxCommentBody)
	mine, err := p.summaryComments(ctx)
	if err != nil {
		return err
	}
	if len(mine) == 0 {
		c, _, err := create(ctx, p, "create summary comment", func() (*gh.IssueComment, *gh.Response, error) {
			return p.c.Issues.CreateComment(ctx, p.opt.Owner, p.opt.Repo, p.opt.PR, &gh.IssueComment{Body: gh.String(body)})
		}, func() (*gh.IssueComment, bool, error) {
			// None was there before the create: one now is its doing.
			mine, err := p.summaryComments(ctx)
			if err != nil || len(mine) == 0 {
				return nil, false, err
			}
			return mine[0], true, nil
		})
		if err != nil {
			return err
		}
		p.res.SummaryCommentID = c.GetID()
		return nil
	}
	first := mine[0]
	p.res.SummaryCommentID = first.GetID()
	if first.GetBody() != body {
		_, _, err := call(ctx, p, "edit summary comment", true, func() (*gh.IssueComment, *gh.Response, error) {
			return p.c.Issues.EditComment(ctx, p.opt.Owner, p.opt.Repo, first.GetID(), &gh.IssueComment{Body: gh.String(body)})
		})
		if err != nil {
			return err
		}
	}
	for _, c := range mine[1:] {
		_, _, err := call(ctx, p, "delete duplicate summary comment", true, func() (struct{}, *gh.Response, error) {
			resp, err := p.c.Issues.DeleteComment(ctx, p.opt.Owner, p.opt.Repo, c.GetID())
			if status(err) == http.StatusNotFound {
				err = nil // gone already, maybe by a retried delete
			}
			return struct{}{}, resp, err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// summaryComments lists the pull request's comments and returns ours that
// start with the summary marker, oldest first.
func (p *publisher) summaryComments(ctx context.Context) ([]*gh.IssueComment, error) {
	cs, _, err := paginate(ctx, p, "list issue comments", func(o gh.ListOptions) ([]*gh.IssueComment, *gh.Response, error) {
		return p.c.Issues.ListComments(ctx, p.opt.Owner, p.opt.Repo, p.opt.PR, &gh.IssueListCommentsOptions{
			Sort: gh.String("created"), Direction: gh.String("asc"), ListOptions: o})
	})
	if err != nil {
		return nil, err
	}
	var mine []*gh.IssueComment
	for _, c := range cs {
		if strings.HasPrefix(c.GetBody(), summaryMarker) && p.isOurs(c.GetUser()) {
			mine = append(mine, c)
		}
	}
	return mine, nil
}

// maxCommentBody is the longest comment body the publisher posts, in
// characters, safely below the API's limit on a body (2^16).
const maxCommentBody = 65000

// maxAnnotations is the API's limit of annotations per request.
const maxAnnotations = 50

// writeCheck writes the check run, completed, with the first 50
// annotations, and appends the rest 50 at a time with updates.
//
// Every check run docreview writes carries, as its external_id, a digest
// of what it says (conclusion, title, summary, annotations). Before
// creating one, writeCheck lists the head commit's check runs named
// [CheckName]; when the latest has the same digest, it is this check run
// already (a retried job, a process killed after the create, a 5xx after
// a create GitHub carried out), and it is completed instead of created
// again: annotations it lacks are appended, nothing else is written. A
// create that fails with a 5xx or a lost connection is followed by the
// same lookup before any retry. An update that appends annotations is not
// retried when the check run already has them (GET check run, output
// annotations count). A review whose result differs (a dismissal, a
// re-run after a change of configuration) creates a new check run: GitHub
// shows the latest run of a name.
func (p *publisher) writeCheck(ctx context.Context, rep review.Report, findings []finding, sum string) error {
	anns := annotations(findings, p.opt.FailOn)
	title := checkTitle(findings, rep)
	summary := truncate(strings.TrimPrefix(sum, summaryMarker+"\n"), maxCheckText)
	key := checkKey(p.res.Conclusion, title, summary, anns)
	out := func(batch []*gh.CheckRunAnnotation) *gh.CheckRunOutput {
		return &gh.CheckRunOutput{Title: gh.String(title), Summary: gh.String(summary), Annotations: batch}
	}
	cr, err := p.findCheck(ctx, key)
	if err != nil {
		return err
	}
	have := 0
	if cr != nil {
		have = cr.GetOutput().GetAnnotationsCount()
		p.res.CheckReused = true
		p.log.Info("check run already written; not creating another", "check_run_id", cr.GetID(), "annotations", have, "of", len(anns))
	} else {
		first := anns[:min(len(anns), maxAnnotations)]
		found := false
		cr, _, err = create(ctx, p, "create check run", func() (*gh.CheckRun, *gh.Response, error) {
			return p.c.Checks.CreateCheckRun(ctx, p.opt.Owner, p.opt.Repo, gh.CreateCheckRunOptions{
				Name: CheckName, HeadSHA: p.opt.HeadSHA, ExternalID: gh.String(key),
				Status: gh.String("completed"), Conclusion: gh.String(p.res.Conclusion),
				CompletedAt: &gh.Timestamp{Time: time.Now()},
				Output:      out(first),
			})
		}, func() (*gh.CheckRun, bool, error) {
			got, err := p.findCheck(ctx, key)
			found = got != nil
			return got, found, err
		})
		if err != nil {
			return err
		}
		have = len(first)
		if found {
			have = cr.GetOutput().GetAnnotationsCount() // what it really has
		}
	}
	p.res.CheckRunID = cr.GetID()
	for i := have; i < len(anns); i += maxAnnotations {
		batch := anns[i:min(len(anns), i+maxAnnotations)]
		want := i + len(batch)
		_, _, err := create(ctx, p, "add check run annotations", func() (*gh.CheckRun, *gh.Response, error) {
			// Name has no omitempty in v62: always set it.
			return p.c.Checks.UpdateCheckRun(ctx, p.opt.Owner, p.opt.Repo, cr.GetID(), gh.UpdateCheckRunOptions{
				Name: CheckName, Output: out(batch),
			})
		}, func() (*gh.CheckRun, bool, error) {
			got, _, err := call(ctx, p, "get check run", false, func() (*gh.CheckRun, *gh.Response, error) {
				return p.c.Checks.GetCheckRun(ctx, p.opt.Owner, p.opt.Repo, cr.GetID())
			})
			if err != nil {
				return nil, false, err
			}
			return got, got.GetOutput().GetAnnotationsCount() >= want, nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkKeyPrefix starts the external_id of docreview's check runs.
const checkKeyPrefix = "docreview:"

// checkKey is the external_id of a check run saying this: a digest of its
// conclusion, title, summary and annotations.
func checkKey(conclusion, title, summary string, anns []*gh.CheckRunAnnotation) string {
	h := sha256.New()
	for _, s := range []string{conclusion, title, summary} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	// Annotations are plain data; Marshal cannot fail on them.
	b, _ := json.Marshal(anns)
	h.Write(b)
	return checkKeyPrefix + hex.EncodeToString(h.Sum(nil))[:32]
}

// findCheck returns the latest check run named CheckName on the head
// commit when its external_id is key, nil otherwise (none yet, or the
// latest says something else).
func (p *publisher) findCheck(ctx context.Context, key string) (*gh.CheckRun, error) {
	runs, _, err := paginate(ctx, p, "list check runs", func(o gh.ListOptions) ([]*gh.CheckRun, *gh.Response, error) {
		res, resp, err := p.c.Checks.ListCheckRunsForRef(ctx, p.opt.Owner, p.opt.Repo, p.opt.HeadSHA, &gh.ListCheckRunsOptions{
			CheckName: gh.String(CheckName), Filter: gh.String("all"), ListOptions: o})
		if res == nil {
			return nil, resp, err
		}
		return res.CheckRuns, resp, err
	})
	if err != nil {
		return nil, err
	}
	var latest *gh.CheckRun
	for _, r := range runs {
		if r.GetName() != CheckName || !strings.EqualFold(r.GetHeadSHA(), p.opt.HeadSHA) {
			continue
		}
		if latest == nil || r.GetID() > latest.GetID() {
			latest = r
		}
	}
	if latest == nil || latest.GetExternalID() != key {
		return nil, nil
	}
	return latest, nil
}

// maxCheckText is the API's limit on a check run output's summary, in
// characters.
const maxCheckText = 65535

// annotations are the check run annotations of the findings that are not
// dismissed: level "failure" for those that fail the check, "warning" for
// the others.
func annotations(findings []finding, failOn review.FailOn) []*gh.CheckRunAnnotation {
	var out []*gh.CheckRunAnnotation
	for _, f := range findings {
		if f.state == stDismissed {
			continue
		}
		c := f.v.Claim
		start := max(c.Line, 1)
		end := max(c.EndLine, start)
		level := "warning"
		if failOn.Fails(f.v.Label) {
			level = "failure"
		}
		msg := strings.TrimSpace(f.v.Message)
		if f.v.Suggestion != "" {
			msg += "\n\nSuggested:\n" + f.v.Suggestion
		}
		if msg == "" {
			msg = string(f.v.Label)
		}
		var details []string
		for _, e := range f.v.Evidence {
			details = append(details, fmt.Sprintf("%s:%d-%d %s", mdtext.Clean(e.Path), e.StartLine, max(e.EndLine, e.StartLine), oneLine(mdtext.Clean(e.Why))))
		}
		a := &gh.CheckRunAnnotation{
			Path: gh.String(c.Path), StartLine: gh.Int(start), EndLine: gh.Int(end),
			AnnotationLevel: gh.String(level),
			Title:           gh.String(truncate(mdtext.Clean(labelTitle(f.v.Label)+" ("+f.v.Rule+")"), 255)),
			Message:         gh.String(truncate(mdtext.Clean(msg), 4000)),
		}
		if len(details) > 0 {
			a.RawDetails = gh.String(truncate("Evidence (fingerprint "+f.fp+"):\n"+strings.Join(details, "\n"), 4000))
		}
		out = append(out, a)
	}
	return out
}

// checkTitle is "2 contradicted, 1 incomplete" plus the skipped claims and
// dismissed findings, or "No findings".
func checkTitle(findings []finding, rep review.Report) string {
	var contra, incomplete, dismissed int
	for _, f := range findings {
		switch {
		case f.state == stDismissed:
			dismissed++
		case f.v.Label == review.Contradicted:
			contra++
		default:
			incomplete++
		}
	}
	var parts []string
	if contra > 0 {
		parts = append(parts, fmt.Sprintf("%d contradicted", contra))
	}
	if incomplete > 0 {
		parts = append(parts, fmt.Sprintf("%d incomplete", incomplete))
	}
	if len(parts) == 0 {
		parts = append(parts, "No findings")
	}
	if n := len(skippedVerdicts(rep)); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s skipped", n, plural(n, "claim", "claims")))
	}
	if n := len(rep.Notes); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s not fully reviewed", n, plural(n, "file", "files")))
	}
	if dismissed > 0 {
		parts = append(parts, fmt.Sprintf("%d dismissed", dismissed))
	}
	return strings.Join(parts, ", ")
}

// truncate shortens s to at most n bytes on a rune boundary, ending with a
// note on what was cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	note := fmt.Sprintf("\n\n… (truncated: %d more bytes)", len(s)-n)
	cut := max(n-len(note)-16, 0)
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n\n… (truncated: %d more bytes)", len(s)-cut)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
