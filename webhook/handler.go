package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	gh "github.com/google/go-github/v62/github"

	ghpub "github.com/docreview/docreview/review/github"
)

// Outcomes of deliveries that queue nothing, besides those in queue.go.
const (
	outIgnored      outcome = "ignored"
	outDraft        outcome = "draft"
	outForbidden    outcome = "forbidden"
	outRecorded     outcome = "recorded"
	outPong         outcome = "pong"
	outUnauthorized outcome = "unauthorized"
	outTooLarge     outcome = "too_large"
	outBadRequest   outcome = "bad_request"
	outUnavailable  outcome = "unavailable"
	outError        outcome = "error"
)

const (
	headerSignature = "X-Hub-Signature-256"
	headerEvent     = "X-GitHub-Event"
	headerDelivery  = "X-GitHub-Delivery"
	signaturePrefix = "sha256="
	maxHeaderValue  = 200 // event names and delivery ids are short
	commandWord     = "/docreview"
)

// knownEvents are the event label values; anything else is "other", so an
// unauthenticated sender cannot grow the metric's label set.
var knownEvents = map[string]bool{
	"pull_request": true, "issue_comment": true, "pull_request_review_comment": true, "installation": true,
	"installation_repositories": true, "ping": true,
}

// reviewActions of pull_request that queue a review.
var reviewActions = map[string]bool{"opened": true, "synchronize": true, "reopened": true, "ready_for_review": true}

func eventLabel(event string) string {
	if knownEvents[event] {
		return event
	}
	return "other"
}

// verifySignature reports whether header is "sha256=<hex HMAC-SHA256 of body
// with secret>", compared in constant time.
func verifySignature(secret, body []byte, header string) bool {
	got, ok := parseSignature(header)
	if len(secret) == 0 || !ok {
		return false
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return hmac.Equal(got, mac.Sum(nil))
}

// parseSignature returns the digest of an X-Hub-Signature-256 value,
// false when it is not "sha256=" and 64 hex digits.
func parseSignature(header string) ([]byte, bool) {
	if !strings.HasPrefix(header, signaturePrefix) {
		return nil, false
	}
	got, err := hex.DecodeString(header[len(signaturePrefix):])
	if err != nil || len(got) != sha256.Size {
		return nil, false
	}
	return got, true
}

// readChunk is the unit in which a body without a Content-Length is read
// and charged to the pre-authentication budget.
const readChunk = 256 << 10

// bigChunk is the size of the reused buffers large bodies are read into
// before they are authenticated.
const bigChunk = 1 << 20

// errBudget is readSigned's error when the pre-authentication budget stayed
// spent for longer than Config.PreAuthWait.
var errBudget = errors.New("too many unauthenticated bytes in flight")

// readSigned reads body, at most max bytes (one more to tell a larger
// body; size is its Content-Length, -1 if unknown), feeding the HMAC as it
// goes, and reports whether its signature is want. The bytes are first
// taken from the server's pre-authentication budget (see
// [preAuthBudget]), waiting at most PreAuthWait for them; the returned
// release gives them back (call it once the body is no longer needed, also
// after an error).
func (s *Server) readSigned(ctx context.Context, body io.Reader, size, max int64, want []byte) (_ []byte, ok bool, release func(), err error) {
	sized := size >= 0
	sem := s.preAuth.share(sized, size)
	var held int64
	release = func() {
		if held > 0 {
			s.preAuth.release(sem, held)
			held = 0
		}
	}
	take := func(n int64) error {
		wctx, cancel := context.WithTimeout(ctx, s.cfg.PreAuthWait)
		defer cancel()
		if err := s.preAuth.acquire(wctx, sem, n); err != nil {
			return errBudget
		}
		held += n
		return nil
	}
	mac := hmac.New(sha256.New, s.cfg.Secret)
	if sized && size <= smallBody {
		// The whole announced size at once; net/http ends the body there.
		if err := take(size); err != nil {
			return nil, false, release, err
		}
		buf := make([]byte, size)
		got, err := io.ReadFull(body, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return nil, false, release, err
		}
		mac.Write(buf[:got])
		return buf[:got], hmac.Equal(want, mac.Sum(nil)), release, nil
	}
	if sized {
		// A large body: its whole size at once, read into reused chunks,
		// and copied out only once it is authenticated, so that unsigned
		// bodies leave no garbage behind for the heap to grow on.
		n := min(size, max)
		if err := take(n); err != nil {
			return nil, false, release, err
		}
		var chunks []*[bigChunk]byte
		defer func() {
			for _, c := range chunks {
				s.chunks.Put(c)
			}
		}()
		var total int
		for int64(total) < n {
			c, _ := s.chunks.Get().(*[bigChunk]byte)
			if c == nil {
				c = new([bigChunk]byte)
			}
			chunks = append(chunks, c)
			want := min(bigChunk, int(n)-total)
			got, err := io.ReadFull(body, c[:want])
			mac.Write(c[:got])
			total += got
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break
			}
			if err != nil {
				return nil, false, release, err
			}
		}
		if !hmac.Equal(want, mac.Sum(nil)) {
			return nil, false, release, nil
		}
		buf := make([]byte, 0, total)
		for i, c := range chunks {
			buf = append(buf, c[:min(bigChunk, total-i*bigChunk)]...)
		}
		return buf, true, release, nil
	}
	var buf []byte
	for {
		n := min(int64(readChunk), max+1-int64(len(buf)))
		if n <= 0 {
			break
		}
		if err := take(n); err != nil {
			return nil, false, release, err
		}
		buf = slices.Grow(buf, int(n))
		got, rerr := io.ReadFull(body, buf[len(buf):len(buf)+int(n)])
		mac.Write(buf[len(buf) : len(buf)+got])
		buf = buf[:len(buf)+got]
		if unused := n - int64(got); unused > 0 {
			s.preAuth.release(sem, unused)
			held -= unused
		}
		if errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF) {
			break
		}
		if rerr != nil {
			return nil, false, release, rerr
		}
	}
	return buf, hmac.Equal(want, mac.Sum(nil)), release, nil
}

// sign returns the X-Hub-Signature-256 value of body.
func sign(secret, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return signaturePrefix + hex.EncodeToString(mac.Sum(nil))
}

func (s *Server) serveWebhook(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	event := r.Header.Get(headerEvent)
	status, out := s.handleDelivery(w, r, event)
	s.metrics.deliveries.WithLabelValues(eventLabel(event), string(out)).Inc()
	s.metrics.accept.Observe(time.Since(start).Seconds())
	if status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", http.MethodPost)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, strings.ReplaceAll(string(out), "_", " ")+"\n")
}

// handleDelivery authenticates, parses and routes one delivery, returning
// the status code and outcome.
func (s *Server) handleDelivery(w http.ResponseWriter, r *http.Request, event string) (int, outcome) {
	ctx := r.Context()
	if r.Method != http.MethodPost {
		return http.StatusMethodNotAllowed, outBadRequest
	}
	if s.closing.Load() {
		return http.StatusServiceUnavailable, outUnavailable
	}
	if r.ContentLength > s.cfg.MaxBody {
		return http.StatusRequestEntityTooLarge, outTooLarge
	}
	sig := r.Header.Get(headerSignature)
	want, signed := parseSignature(sig)
	if !signed {
		// Refused before a byte of the body is read.
		s.log.WarnContext(ctx, "delivery without a well-formed signature", "remote", r.RemoteAddr,
			"signed", sig != "", "event", eventLabel(event))
		return http.StatusUnauthorized, outUnauthorized
	}
	// The body must arrive within BodyTimeout of the handler's start: a
	// sender trickling bytes holds a connection and budget no longer.
	if err := http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		s.log.WarnContext(ctx, "set the body read deadline", "err", err)
	}
	body, ok, release, err := s.readSigned(ctx, r.Body, r.ContentLength, s.cfg.MaxBody, want)
	defer release()
	switch {
	case errors.Is(err, errBudget):
		s.log.WarnContext(ctx, "delivery refused: unauthenticated bodies in flight use the whole budget", "remote", r.RemoteAddr,
			"budget_bytes", s.cfg.PreAuthBytes, "content_length", r.ContentLength)
		return http.StatusServiceUnavailable, outUnavailable
	case err != nil:
		s.log.WarnContext(ctx, "read delivery", "err", err)
		return http.StatusBadRequest, outBadRequest
	case int64(len(body)) > s.cfg.MaxBody:
		return http.StatusRequestEntityTooLarge, outTooLarge
	case !ok:
		s.log.WarnContext(ctx, "delivery with a wrong signature", "remote", r.RemoteAddr, "event", eventLabel(event))
		return http.StatusUnauthorized, outUnauthorized
	}
	delivery := r.Header.Get(headerDelivery)
	if event == "" || delivery == "" || len(event) > maxHeaderValue || len(delivery) > maxHeaderValue {
		return http.StatusBadRequest, outBadRequest
	}
	log := s.log.With("delivery_id", delivery, "event", event)
	payload, err := payloadOf(r.Header.Get("Content-Type"), body)
	if err != nil {
		log.WarnContext(ctx, "delivery payload unreadable", "err", err)
		return http.StatusBadRequest, outBadRequest
	}
	if !knownEvents[event] {
		if !json.Valid(payload) {
			return http.StatusBadRequest, outBadRequest
		}
		log.DebugContext(ctx, "event ignored")
		return http.StatusOK, outIgnored
	}
	parsed, err := gh.ParseWebHook(event, payload)
	if err != nil {
		log.WarnContext(ctx, "delivery payload malformed", "err", err)
		return http.StatusBadRequest, outBadRequest
	}
	var e *prEvent
	switch p := parsed.(type) {
	case *gh.PingEvent:
		log.InfoContext(ctx, "ping", "hook_id", p.GetHookID())
		return http.StatusOK, outPong
	case *gh.InstallationEvent:
		log.InfoContext(ctx, "installation event", "action", p.GetAction(),
			"installation_id", p.GetInstallation().GetID(), "account", p.GetInstallation().GetAccount().GetLogin(),
			"repositories", len(p.Repositories))
		return http.StatusOK, outRecorded
	case *gh.InstallationRepositoriesEvent:
		log.InfoContext(ctx, "installation repositories event", "action", p.GetAction(),
			"installation_id", p.GetInstallation().GetID(), "account", p.GetInstallation().GetAccount().GetLogin(),
			"added", repoNames(p.RepositoriesAdded), "removed", repoNames(p.RepositoriesRemoved))
		return http.StatusOK, outRecorded
	case *gh.PullRequestEvent:
		var out outcome
		e, out = s.pullRequestJob(p)
		if e == nil {
			log.DebugContext(ctx, "pull request event needs no review", "action", p.GetAction(), "outcome", out)
			return statusOf(out), out
		}
	case *gh.PullRequestReviewCommentEvent:
		var out outcome
		e, out = reviewCommentJob(p)
		if e == nil {
			if out == outForbidden {
				log.InfoContext(ctx, "/docreview dismiss from a user without write access ignored",
					"user", p.GetComment().GetUser().GetLogin(), "association", p.GetComment().GetAuthorAssociation())
			}
			return statusOf(out), out
		}
	case *gh.IssueCommentEvent:
		var out outcome
		e, out = issueCommentJob(p)
		if e == nil {
			if out == outForbidden {
				log.InfoContext(ctx, "/docreview from a user without write access ignored",
					"user", p.GetComment().GetUser().GetLogin(), "association", p.GetComment().GetAuthorAssociation())
			}
			return statusOf(out), out
		}
	default:
		return http.StatusOK, outIgnored
	}
	e.event = event
	e.job.DeliveryID = delivery
	log = log.With("repo", e.job.Owner+"/"+e.job.Repo, "pr", e.job.PR, "head", e.job.HeadSHA, "rerun", e.job.Rerun)
	// The job is stored even if GitHub hangs up: the delivery id then makes
	// its redelivery a no-op.
	qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), enqueueTimeout)
	defer cancel()
	out, err := s.q.enqueue(qctx, *e)
	if err != nil {
		log.ErrorContext(ctx, "store job", "err", err)
		return http.StatusServiceUnavailable, outError
	}
	if out == outQueued {
		s.metrics.jobs.WithLabelValues(jobEnqueued).Inc()
	}
	log.InfoContext(ctx, "delivery stored", "outcome", out)
	return statusOf(out), out
}

func statusOf(out outcome) int {
	switch out {
	case outQueued:
		return http.StatusAccepted
	case outBadRequest:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// payloadOf returns the JSON of a delivery: the body, or its "payload" form
// field when the hook sends application/x-www-form-urlencoded.
func payloadOf(contentType string, body []byte) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "application/x-www-form-urlencoded" {
		return body, nil // JSON, unless the hook is configured for forms
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, err
	}
	p := form.Get("payload")
	if p == "" {
		return nil, errors.New("form delivery without a payload field")
	}
	return []byte(p), nil
}

func repoNames(rs []*gh.Repository) []string {
	names := make([]string, 0, len(rs))
	for _, r := range rs {
		names = append(names, r.GetFullName())
	}
	return names
}

// pullRequestJob maps a pull_request delivery to a review, or to the
// outcome of a delivery that needs none.
func (s *Server) pullRequestJob(p *gh.PullRequestEvent) (*prEvent, outcome) {
	if !reviewActions[p.GetAction()] {
		return nil, outIgnored
	}
	pr := p.GetPullRequest()
	if pr.GetDraft() && !s.cfg.ReviewDrafts {
		return nil, outDraft
	}
	if p.GetInstallation().GetID() == 0 {
		// Not an App delivery (a repository webhook): no token to act with.
		return nil, outIgnored
	}
	number := p.GetNumber()
	if number == 0 {
		number = pr.GetNumber()
	}
	owner, repo := p.GetRepo().GetOwner().GetLogin(), p.GetRepo().GetName()
	head := pr.GetHead().GetSHA()
	if owner == "" || repo == "" || number <= 0 || !isSHA(head) {
		return nil, outBadRequest
	}
	updated := pr.GetUpdatedAt().Time
	if updated.IsZero() {
		updated = time.Now()
	}
	return &prEvent{
		job: Job{
			InstallationID: p.GetInstallation().GetID(),
			Owner:          owner,
			Repo:           repo,
			PR:             number,
			HeadSHA:        head,
			BaseSHA:        pr.GetBase().GetSHA(),
		},
		updatedAt: updated,
	}, ""
}

// issueCommentJob maps an issue_comment delivery with a /docreview command
// to a re-run, or to the outcome of a delivery that needs none.
func issueCommentJob(p *gh.IssueCommentEvent) (*prEvent, outcome) {
	// IsPullRequest has a value receiver: a delivery without an issue
	// ({"action":"created"}) must not reach it through a nil pointer.
	if p.GetAction() != "created" || p.GetIssue() == nil || !p.GetIssue().IsPullRequest() {
		return nil, outIgnored
	}
	fields := strings.Fields(firstLine(p.GetComment().GetBody()))
	if len(fields) == 0 || fields[0] != commandWord {
		return nil, outIgnored
	}
	if len(fields) > 1 && fields[1] != "dismiss" {
		return nil, outIgnored // unknown subcommand
	}
	if !ghpub.MayDismiss(p.GetComment().GetAuthorAssociation()) {
		return nil, outForbidden
	}
	if p.GetInstallation().GetID() == 0 {
		return nil, outIgnored
	}
	owner, repo := p.GetRepo().GetOwner().GetLogin(), p.GetRepo().GetName()
	number := p.GetIssue().GetNumber()
	if owner == "" || repo == "" || number <= 0 {
		return nil, outBadRequest
	}
	return &prEvent{job: Job{
		InstallationID: p.GetInstallation().GetID(),
		Owner:          owner,
		Repo:           repo,
		PR:             number,
		Rerun:          true,
	}}, ""
}

// reviewCommentJob turns a "/docreview dismiss <reason>" reply in a review
// thread, from a user with write access, into a re-run of the pull
// request's current head, so that the dismissal shows at once (the
// publisher reads the reply); any other review comment needs no job.
func reviewCommentJob(p *gh.PullRequestReviewCommentEvent) (*prEvent, outcome) {
	if p.GetAction() != "created" || p.GetComment().GetInReplyTo() == 0 {
		return nil, outIgnored
	}
	if _, ok := ghpub.ParseDismiss(p.GetComment().GetBody()); !ok {
		return nil, outIgnored
	}
	if !ghpub.MayDismiss(p.GetComment().GetAuthorAssociation()) {
		return nil, outForbidden
	}
	if p.GetInstallation().GetID() == 0 {
		return nil, outIgnored
	}
	owner, repo := p.GetRepo().GetOwner().GetLogin(), p.GetRepo().GetName()
	number := p.GetPullRequest().GetNumber()
	if owner == "" || repo == "" || number <= 0 {
		return nil, outBadRequest
	}
	return &prEvent{job: Job{
		InstallationID: p.GetInstallation().GetID(),
		Owner:          owner,
		Repo:           repo,
		PR:             number,
		Rerun:          true,
	}}, ""
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// isSHA reports whether s looks like a full hex object name (SHA-1 or
// SHA-256).
func isSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
