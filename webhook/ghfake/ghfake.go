// Package ghfake is a stateful stand-in for the parts of GitHub the App
// uses, for docreview's own load and fault benchmarks (docreview bench
// webhook --faults): installation tokens, the rate limit, pull requests,
// every endpoint the publisher calls (review comments, reviews, issue
// comments, check runs), and git's smart HTTP protocol (git http-backend)
// for one repository. It keeps what is created, per pull request and head,
// so that a benchmark can count lost and duplicated artefacts, and can
// answer a share of the writes it carried out with 502, as GitHub's front
// does when the service behind it timed out after doing the work.
//
// It is not a contract test: the shapes follow GitHub's OpenAPI
// description for the fields docreview reads, which the publisher's
// contract tests check against Prism.
package ghfake

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/cgi"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Bot is the login of the App's bot user, the author of what it creates.
const Bot = "docreview-bench[bot]"

const (
	summaryMarker  = "<!-- docreview:summary -->"
	fpPrefix       = "<!-- docreview:fingerprint="
	resolvedPrefix = "<!-- docreview:resolved="
)

// File is a file of a pull request's diff, as the files listing gives it.
type File struct {
	Filename string `json:"filename"`
	Status   string `json:"status"`
	Patch    string `json:"patch,omitempty"`
}

// pull is a pull request's state.
type pull struct {
	head, base string
	files      []File
}

type user struct {
	Login string `json:"login"`
	Type  string `json:"type"`
}

type reviewComment struct {
	ID        int64  `json:"id"`
	ReviewID  int64  `json:"pull_request_review_id"`
	Body      string `json:"body"`
	Path      string `json:"path"`
	Line      *int   `json:"line"`
	StartLine *int   `json:"start_line"`
	Side      string `json:"side"`
	CommitID  string `json:"commit_id"`
	InReplyTo int64  `json:"in_reply_to_id,omitempty"`
	User      user   `json:"user"`
	pr        int
}

type pullReview struct {
	ID       int64  `json:"id"`
	Body     string `json:"body"`
	CommitID string `json:"commit_id"`
	State    string `json:"state"`
	User     user   `json:"user"`
	pr       int
}

type issueComment struct {
	ID        int64     `json:"id"`
	Body      string    `json:"body"`
	User      user      `json:"user"`
	CreatedAt time.Time `json:"created_at"`
	pr        int
}

type checkRun struct {
	ID          int64
	Name        string
	HeadSHA     string
	Conclusion  string
	ExternalID  string
	Title       string
	Summary     string
	Annotations int
}

func (c *checkRun) json() map[string]any {
	return map[string]any{"id": c.ID, "name": c.Name, "head_sha": c.HeadSHA, "status": "completed",
		"conclusion": c.Conclusion, "external_id": c.ExternalID,
		"output": map[string]any{"title": c.Title, "summary": c.Summary, "annotations_count": c.Annotations}}
}

// Server is the fake. Create it with [New]; it is safe for concurrent use.
type Server struct {
	owner, repo string
	gitRoot     string
	git         http.Handler

	mu       sync.Mutex
	rng      *rand.Rand
	faults   float64
	injected int
	nextID   int64
	pulls    map[int]*pull
	comments []*reviewComment
	reviews  []*pullReview
	issue    []*issueComment
	checks   []*checkRun
	// created counts creations per artefact kind; dups the creations that
	// repeat a live artefact (see Report.Duplicates).
	created, dups map[string]int
	// requests counts API requests by "METHOD kind".
	requests int
}

// New returns a fake for owner/repo whose bare repository is
// gitRoot/owner/repo.git, served over git's smart HTTP at /git/. A share
// faults (0 to 1) of the writes it carries out (creates and edits of
// reviews, comments and check runs) is answered with 502; seed fixes
// which.
func New(owner, repo, gitRoot string, faults float64, seed uint64) (*Server, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, fmt.Errorf("ghfake: git is needed to serve the repository: %w", err)
	}
	return &Server{
		owner: owner, repo: repo, gitRoot: gitRoot,
		git: &cgi.Handler{Path: git, Args: []string{"http-backend"}, Root: "/git",
			Env: []string{"GIT_PROJECT_ROOT=" + gitRoot, "GIT_HTTP_EXPORT_ALL=1"}},
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), faults: faults,
		nextID: 1000, pulls: map[int]*pull{}, created: map[string]int{}, dups: map[string]int{},
	}, nil
}

// SetPull sets pull request n's head and base, and the files of its diff,
// as GitHub does when the branch is pushed.
func (s *Server) SetPull(n int, head, base string, files []File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pulls[n] = &pull{head: head, base: base, files: files}
}

// Head is pull request n's head.
func (s *Server) Head(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pulls[n]; p != nil {
		return p.head
	}
	return ""
}

var (
	pullRE   = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/(pulls|issues)/(\d+)(/files|/comments|/reviews)?$`)
	editRE   = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/(pulls|issues)/comments/(\d+)$`)
	checkRE  = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/check-runs(?:/(\d+))?$`)
	commitRE = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/commits/([0-9a-fA-F]+)/check-runs$`)
)

// ServeHTTP serves the API at / and git at /git/.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/git/") {
		s.git.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/app/installations/") && strings.HasSuffix(path, "/access_tokens"):
		writeJSON(w, http.StatusCreated, map[string]any{"token": "ghs_bench", "expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	case path == "/rate_limit":
		core := map[string]any{"limit": 5000, "remaining": 4999, "reset": time.Now().Add(time.Hour).Unix(), "used": 1}
		writeJSON(w, http.StatusOK, map[string]any{"resources": map[string]any{"core": core}, "rate": core})
	default:
		if m := pullRE.FindStringSubmatch(path); m != nil && s.ours(m[1], m[2]) {
			n, _ := strconv.Atoi(m[4])
			s.pull(w, r, m[3], n, m[5])
			return
		}
		if m := editRE.FindStringSubmatch(path); m != nil && s.ours(m[1], m[2]) {
			id, _ := strconv.ParseInt(m[4], 10, 64)
			s.editComment(w, r, m[3], id)
			return
		}
		if m := checkRE.FindStringSubmatch(path); m != nil && s.ours(m[1], m[2]) {
			s.checkRun(w, r, m[3])
			return
		}
		if m := commitRE.FindStringSubmatch(path); m != nil && s.ours(m[1], m[2]) && r.Method == http.MethodGet {
			s.listChecks(w, r, m[3])
			return
		}
		notFound(w, r)
	}
}

func (s *Server) ours(owner, repo string) bool {
	return strings.EqualFold(owner, s.owner) && strings.EqualFold(repo, s.repo)
}

func (s *Server) pull(w http.ResponseWriter, r *http.Request, kind string, n int, rest string) {
	p := s.pulls[n]
	if p == nil {
		notFound(w, r)
		return
	}
	bot := user{Login: Bot, Type: "Bot"}
	switch {
	case kind == "pulls" && rest == "" && r.Method == http.MethodGet:
		repo := map[string]any{"full_name": s.owner + "/" + s.repo}
		writeJSON(w, http.StatusOK, map[string]any{"number": n, "state": "open", "draft": false, "merged": false,
			"head": map[string]any{"sha": p.head, "ref": fmt.Sprintf("topic-%d", n), "repo": repo},
			"base": map[string]any{"sha": p.base, "ref": "main", "repo": repo}})
	case kind == "pulls" && rest == "/files" && r.Method == http.MethodGet:
		page(w, r, p.files)
	case kind == "pulls" && rest == "/comments" && r.Method == http.MethodGet:
		var out []*reviewComment
		for _, c := range s.comments {
			if c.pr == n {
				out = append(out, c)
			}
		}
		page(w, r, out)
	case kind == "pulls" && rest == "/reviews" && r.Method == http.MethodGet:
		var out []*pullReview
		for _, rv := range s.reviews {
			if rv.pr == n {
				out = append(out, rv)
			}
		}
		page(w, r, out)
	case kind == "pulls" && rest == "/reviews" && r.Method == http.MethodPost:
		var in struct {
			CommitID string `json:"commit_id"`
			Body     string `json:"body"`
			Event    string `json:"event"`
			Comments []struct {
				Path      string `json:"path"`
				Body      string `json:"body"`
				Line      int    `json:"line"`
				StartLine int    `json:"start_line"`
				Side      string `json:"side"`
			} `json:"comments"`
		}
		if !decode(w, r, &in) {
			return
		}
		rv := &pullReview{ID: s.id(), Body: in.Body, CommitID: in.CommitID, State: "COMMENTED", User: bot, pr: n}
		// A review repeats a live one when every inline comment it brings
		// repeats a live comment (or, without comments, its body and
		// commit repeat an earlier review's).
		repeats := len(in.Comments) > 0
		for _, c := range in.Comments {
			if !s.liveFinding(n, fingerprint(c.Body)) {
				repeats = false
			}
		}
		if len(in.Comments) == 0 {
			for _, x := range s.reviews {
				if x.pr == n && x.CommitID == in.CommitID && x.Body == in.Body {
					repeats = true
				}
			}
		}
		if repeats {
			s.dups["review"]++
		}
		for _, c := range in.Comments {
			if s.liveFinding(n, fingerprint(c.Body)) {
				s.dups["inline comment"]++
			}
		}
		s.reviews = append(s.reviews, rv)
		s.created["review"]++
		for _, c := range in.Comments {
			line := c.Line
			rc := &reviewComment{ID: s.id(), ReviewID: rv.ID, Body: c.Body, Path: c.Path, Line: &line, Side: "RIGHT",
				CommitID: in.CommitID, User: bot, pr: n}
			if c.StartLine > 0 {
				start := c.StartLine
				rc.StartLine = &start
			}
			s.comments = append(s.comments, rc)
			s.created["inline comment"]++
		}
		s.answerWrite(w, http.StatusOK, rv)
	case kind == "issues" && rest == "/comments" && r.Method == http.MethodGet:
		var out []*issueComment
		for _, c := range s.issue {
			if c.pr == n {
				out = append(out, c)
			}
		}
		page(w, r, out)
	case kind == "issues" && rest == "/comments" && r.Method == http.MethodPost:
		var in struct {
			Body string `json:"body"`
		}
		if !decode(w, r, &in) {
			return
		}
		c := &issueComment{ID: s.id(), Body: in.Body, User: bot, CreatedAt: time.Now().UTC(), pr: n}
		if strings.HasPrefix(in.Body, summaryMarker) {
			s.created["summary"]++
			for _, x := range s.issue {
				if x.pr == n && strings.HasPrefix(x.Body, summaryMarker) {
					s.dups["summary"]++
					break
				}
			}
		}
		s.issue = append(s.issue, c)
		s.answerWrite(w, http.StatusCreated, c)
	default:
		notFound(w, r)
	}
}

func (s *Server) editComment(w http.ResponseWriter, r *http.Request, kind string, id int64) {
	switch {
	case kind == "issues" && r.Method == http.MethodDelete:
		for i, c := range s.issue {
			if c.ID == id {
				s.issue = slices.Delete(s.issue, i, i+1)
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		notFound(w, r)
	case r.Method == http.MethodPatch:
		var in struct {
			Body string `json:"body"`
		}
		if !decode(w, r, &in) {
			return
		}
		if kind == "issues" {
			for _, c := range s.issue {
				if c.ID == id {
					c.Body = in.Body
					s.answerWrite(w, http.StatusOK, c)
					return
				}
			}
		} else {
			for _, c := range s.comments {
				if c.ID == id {
					c.Body = in.Body
					s.answerWrite(w, http.StatusOK, c)
					return
				}
			}
		}
		notFound(w, r)
	default:
		notFound(w, r)
	}
}

func (s *Server) checkRun(w http.ResponseWriter, r *http.Request, id string) {
	type output struct {
		Title       string            `json:"title"`
		Summary     string            `json:"summary"`
		Annotations []json.RawMessage `json:"annotations"`
	}
	switch {
	case id == "" && r.Method == http.MethodPost:
		var in struct {
			Name       string `json:"name"`
			HeadSHA    string `json:"head_sha"`
			Conclusion string `json:"conclusion"`
			ExternalID string `json:"external_id"`
			Output     output `json:"output"`
		}
		if !decode(w, r, &in) {
			return
		}
		c := &checkRun{ID: s.id(), Name: in.Name, HeadSHA: in.HeadSHA, Conclusion: in.Conclusion, ExternalID: in.ExternalID,
			Title: in.Output.Title, Summary: in.Output.Summary, Annotations: len(in.Output.Annotations)}
		// A check run repeats the head's latest of its name when it says
		// the same (conclusion, title and summary).
		for i := len(s.checks) - 1; i >= 0; i-- {
			x := s.checks[i]
			if strings.EqualFold(x.HeadSHA, c.HeadSHA) && x.Name == c.Name {
				if x.Conclusion == c.Conclusion && x.Title == c.Title && x.Summary == c.Summary {
					s.dups["check run"]++
				}
				break
			}
		}
		s.checks = append(s.checks, c)
		s.created["check run"]++
		s.answerWrite(w, http.StatusCreated, c.json())
	case id != "":
		n, _ := strconv.ParseInt(id, 10, 64)
		var c *checkRun
		for _, x := range s.checks {
			if x.ID == n {
				c = x
			}
		}
		if c == nil {
			notFound(w, r)
			return
		}
		switch r.Method {
		case http.MethodGet:
			writeJSON(w, http.StatusOK, c.json())
		case http.MethodPatch:
			var in struct {
				Output *output `json:"output"`
			}
			if !decode(w, r, &in) {
				return
			}
			if in.Output != nil {
				c.Title, c.Summary = in.Output.Title, in.Output.Summary
				c.Annotations += len(in.Output.Annotations) // appended, as documented
			}
			s.answerWrite(w, http.StatusOK, c.json())
		default:
			notFound(w, r)
		}
	default:
		notFound(w, r)
	}
}

func (s *Server) listChecks(w http.ResponseWriter, r *http.Request, sha string) {
	name := r.URL.Query().Get("check_name")
	var runs []map[string]any
	for i := len(s.checks) - 1; i >= 0; i-- {
		c := s.checks[i]
		if strings.EqualFold(c.HeadSHA, sha) && (name == "" || c.Name == name) {
			runs = append(runs, c.json())
		}
	}
	total := len(runs)
	runs = pageOf(w, r, runs)
	if runs == nil {
		runs = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": total, "check_runs": runs})
}

// answerWrite answers a write that was carried out: with v, or, for the
// configured share of writes, with 502.
func (s *Server) answerWrite(w http.ResponseWriter, status int, v any) {
	if s.faults > 0 && s.rng.Float64() < s.faults {
		s.injected++
		writeJSON(w, http.StatusBadGateway, map[string]any{"message": "Bad Gateway (injected after the write was carried out)"})
		return
	}
	writeJSON(w, status, v)
}

// liveFinding reports whether pull request n has a top-level comment of
// the bot carrying fingerprint fp that is not marked resolved.
func (s *Server) liveFinding(n int, fp string) bool {
	if fp == "" {
		return false
	}
	for _, c := range s.comments {
		if c.pr == n && c.InReplyTo == 0 && fingerprint(c.Body) == fp && !strings.Contains(c.Body, resolvedPrefix) {
			return true
		}
	}
	return false
}

func (s *Server) id() int64 {
	s.nextID++
	return s.nextID
}

// Artefacts is what the fake holds for one pull request.
type Artefacts struct {
	// Reviews counts reviews per commit; InlineByFingerprint the top-level
	// review comments per finding fingerprint.
	Reviews             map[string]int
	InlineByFingerprint map[string]int
	// Summaries are the bodies of the bot's summary comments.
	Summaries []string
}

// Report is a snapshot of everything the fake holds.
type Report struct {
	// Pulls maps pull request numbers to their artefacts.
	Pulls map[int]Artefacts
	// ChecksByHead counts check runs per head commit.
	ChecksByHead map[string]int
	// Created counts creations per artefact ("review", "inline comment",
	// "summary", "check run"), deleted ones included.
	Created map[string]int
	// Duplicates counts the creations that repeat a live artefact: an
	// inline comment whose finding has an unresolved comment already, a
	// review all of whose comments are such repeats, a summary comment
	// while the bot has one on the pull request, a check run saying what
	// the head's latest docreview check run says. A finding posted again
	// after its comment was marked resolved (the head went back to where
	// it was) is not a repeat.
	Duplicates map[string]int
	// Injected counts the writes answered with 502 after they were
	// carried out; Requests the API requests served.
	Injected, Requests int
}

// Snapshot returns what the fake holds now.
func (s *Server) Snapshot() Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	rep := Report{Pulls: map[int]Artefacts{}, ChecksByHead: map[string]int{}, Created: map[string]int{},
		Duplicates: map[string]int{}, Injected: s.injected, Requests: s.requests}
	art := func(n int) Artefacts {
		a, ok := rep.Pulls[n]
		if !ok {
			a = Artefacts{Reviews: map[string]int{}, InlineByFingerprint: map[string]int{}}
		}
		return a
	}
	for n := range s.pulls {
		rep.Pulls[n] = art(n)
	}
	for _, rv := range s.reviews {
		a := art(rv.pr)
		a.Reviews[rv.CommitID]++
		rep.Pulls[rv.pr] = a
	}
	for _, c := range s.comments {
		if c.InReplyTo != 0 {
			continue
		}
		a := art(c.pr)
		a.InlineByFingerprint[fingerprint(c.Body)]++
		rep.Pulls[c.pr] = a
	}
	for _, c := range s.issue {
		if strings.HasPrefix(c.Body, summaryMarker) && c.User.Type == "Bot" {
			a := art(c.pr)
			a.Summaries = append(a.Summaries, c.Body)
			rep.Pulls[c.pr] = a
		}
	}
	for _, c := range s.checks {
		rep.ChecksByHead[strings.ToLower(c.HeadSHA)]++
	}
	for k, v := range s.created {
		rep.Created[k] = v
	}
	for k, v := range s.dups {
		rep.Duplicates[k] = v
	}
	return rep
}

// fingerprint is the finding fingerprint in a comment's marker, "" if none.
func fingerprint(body string) string {
	i := strings.Index(body, fpPrefix)
	if i < 0 {
		return ""
	}
	rest := body[i+len(fpPrefix):]
	if j := strings.Index(rest, " "); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSuffix(rest, "-->")
}

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 32<<20)).Decode(v); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"message": "Problems parsing JSON: " + err.Error()})
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func notFound(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found: " + r.Method + " " + r.URL.Path})
}

// page writes the page of items the request asks for (per_page, page),
// with GitHub's Link header.
func page[T any](w http.ResponseWriter, r *http.Request, items []T) {
	out := pageOf(w, r, items)
	if out == nil {
		out = []T{}
	}
	writeJSON(w, http.StatusOK, out)
}

func pageOf[T any](w http.ResponseWriter, r *http.Request, items []T) []T {
	q := r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 || per > 100 {
		per = 30
	}
	n, _ := strconv.Atoi(q.Get("page"))
	n = max(n, 1)
	lo, hi := min((n-1)*per, len(items)), min(n*per, len(items))
	if hi < len(items) {
		u := *r.URL
		v := u.Query()
		v.Set("page", strconv.Itoa(n+1))
		u.RawQuery = v.Encode()
		w.Header().Set("Link", fmt.Sprintf(`<http://%s%s>; rel="next"`, r.Host, u.RequestURI()))
	}
	return items[lo:hi]
}

// Wait polls cond every 100 ms until it holds or ctx ends.
func Wait(ctx context.Context, cond func() bool) bool {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
	return true
}
