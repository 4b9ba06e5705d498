package github

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	gh "github.com/google/go-github/v62/github"
)

// fakeGitHub is a stateful stand-in for the GitHub REST endpoints Publish
// uses, served under /api/v3/ so that a request built from a wrong base
// fails. It stores review comments, reviews, issue comments and check runs,
// checks method, path, headers and the JSON fields GitHub requires, and
// fails the test on anything else. What it creates is written by the
// token's identity, self (botLogin, a Bot, unless a test changes it), and
// editing anyone else's comment is refused with 403 and fails the test.
type fakeGitHub struct {
	t     *testing.T
	srv   *httptest.Server
	owner string
	repo  string
	pr    int

	mu       sync.Mutex
	self     fakeUser
	head     string
	files    []fakeFile
	nextID   int64
	comments []*fakeComment // review comments
	reviews  []fakeReview
	issue    []*fakeIssueComment
	checks   []*fakeCheck
	// requests logs "METHOD /path" of every request.
	requests []string
	// inject are responses to send instead of handling (or, with after,
	// after handling), first match wins, each used once.
	inject []injected
	// linkMode is "" (real pagination), "prism" (a static Link to page 2
	// on every response) or "endless" (always a next page).
	linkMode string
}

type fakeFile struct{ name, patch string }

type fakeUser struct {
	Login string `json:"login"`
	Type  string `json:"type"`
}

// fakeComment is a review comment. An outdated one (see outdate) has no
// Line or StartLine, as GitHub returns it after a push changed its lines.
type fakeComment struct {
	ID                int64    `json:"id"`
	ReviewID          int64    `json:"pull_request_review_id,omitempty"`
	Body              string   `json:"body"`
	Path              string   `json:"path"`
	Line              *int     `json:"line"`
	StartLine         *int     `json:"start_line"`
	OriginalLine      *int     `json:"original_line,omitempty"`
	OriginalStartLine *int     `json:"original_start_line,omitempty"`
	Side              string   `json:"side"`
	CommitID          string   `json:"commit_id"`
	InReplyTo         int64    `json:"in_reply_to_id,omitempty"`
	User              fakeUser `json:"user"`
	AuthorAssociation string   `json:"author_association,omitempty"`
	HTMLURL           string   `json:"html_url"`
}

type fakeReview struct {
	ID       int64
	CommitID string
	Event    string
	Body     string
	Comments []int64
	User     fakeUser
}

type fakeIssueComment struct {
	ID   int64    `json:"id"`
	Body string   `json:"body"`
	User fakeUser `json:"user"`
}

type fakeCheck struct {
	ID          int64
	Name        string
	HeadSHA     string
	Status      string
	Conclusion  string
	Title       string
	Summary     string
	ExternalID  string
	Annotations []map[string]any
	Updates     int
}

// injected is a response the fake sends for the first request matching
// method and path. Without after it is sent instead of handling the
// request; with after the request is handled (a create is carried out)
// and its answer replaced, status 0 meaning the connection is closed
// without an answer.
type injected struct {
	method, path string // path suffix
	status       int
	header       map[string]string
	body         string
	after        bool
}

const botLogin = "github-actions[bot]"

// newFakeGitHub starts the fake for o/r#7 at head.
func newFakeGitHub(t *testing.T, head string, files ...fakeFile) *fakeGitHub {
	t.Helper()
	f := &fakeGitHub{t: t, owner: "o", repo: "r", pr: 7, head: head, files: files, nextID: 100,
		self: fakeUser{Login: botLogin, Type: "Bot"}}
	mux := http.NewServeMux()
	base := "/api/v3/repos/{owner}/{repo}/"
	mux.HandleFunc("GET "+base+"pulls/{n}/files", f.listFiles)
	mux.HandleFunc("GET "+base+"pulls/{n}/comments", f.listComments)
	mux.HandleFunc("PATCH "+base+"pulls/comments/{id}", f.editComment)
	mux.HandleFunc("POST "+base+"pulls/{n}/reviews", f.createReview)
	mux.HandleFunc("GET "+base+"pulls/{n}/reviews", f.listReviews)
	mux.HandleFunc("GET "+base+"issues/{n}/comments", f.listIssueComments)
	mux.HandleFunc("POST "+base+"issues/{n}/comments", f.createIssueComment)
	mux.HandleFunc("PATCH "+base+"issues/comments/{id}", f.editIssueComment)
	mux.HandleFunc("DELETE "+base+"issues/comments/{id}", f.deleteIssueComment)
	mux.HandleFunc("POST "+base+"check-runs", f.createCheck)
	mux.HandleFunc("PATCH "+base+"check-runs/{id}", f.updateCheck)
	mux.HandleFunc("GET "+base+"check-runs/{id}", f.getCheck)
	mux.HandleFunc("GET "+base+"commits/{ref}/check-runs", f.listChecks)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		f.t.Errorf("fake GitHub: unexpected request %s %s", r.Method, r.URL.Path)
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
	})
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests = append(f.requests, r.Method+" "+r.URL.Path)
		var in *injected
		for i := range f.inject {
			if f.inject[i].method == r.Method && strings.HasSuffix(r.URL.Path, f.inject[i].path) {
				x := f.inject[i]
				in = &x
				f.inject = slices.Delete(f.inject, i, i+1)
				break
			}
		}
		f.mu.Unlock()
		if in != nil && !in.after {
			in.write(w)
			return
		}
		if !f.checkHeaders(r) {
			http.Error(w, `{"message":"bad headers"}`, http.StatusBadRequest)
			return
		}
		if in == nil {
			mux.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, r)
		if rec.Code >= 300 {
			f.t.Errorf("fake GitHub: %s %s: carrying out before the injected answer failed: %d %s", r.Method, r.URL.Path, rec.Code, rec.Body)
		}
		if in.status != 0 {
			in.write(w)
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			f.t.Errorf("fake GitHub: hijack: %v", err)
			return
		}
		conn.Close()
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// write sends the injected response.
func (in *injected) write(w http.ResponseWriter) {
	for k, v := range in.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(in.status)
	fmt.Fprint(w, in.body)
}

// client is a go-github client for the fake, authenticated with a token.
func (f *fakeGitHub) client() *gh.Client {
	c := gh.NewClient(nil).WithAuthToken("test-token")
	c.BaseURL, _ = url.Parse(f.srv.URL + "/api/v3/")
	return c
}

func (f *fakeGitHub) checkHeaders(r *http.Request) bool {
	if r.Header.Get("Authorization") != "Bearer test-token" {
		f.t.Errorf("fake GitHub: %s %s: no bearer token", r.Method, r.URL.Path)
		return false
	}
	if !strings.Contains(r.Header.Get("Accept"), "application/vnd.github") {
		f.t.Errorf("fake GitHub: %s %s: Accept %q", r.Method, r.URL.Path, r.Header.Get("Accept"))
		return false
	}
	if r.Header.Get("X-GitHub-Api-Version") == "" {
		f.t.Errorf("fake GitHub: %s %s: no X-GitHub-Api-Version", r.Method, r.URL.Path)
		return false
	}
	if (r.Method == http.MethodPost || r.Method == http.MethodPatch) && r.Header.Get("Content-Type") != "application/json" {
		f.t.Errorf("fake GitHub: %s %s: Content-Type %q", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		return false
	}
	return true
}

// pathOK checks the owner, repo and pull request number of the path.
func (f *fakeGitHub) pathOK(w http.ResponseWriter, r *http.Request) bool {
	if r.PathValue("owner") != f.owner || r.PathValue("repo") != f.repo {
		f.t.Errorf("fake GitHub: %s %s: wrong repository", r.Method, r.URL.Path)
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return false
	}
	if n := r.PathValue("n"); n != "" && n != strconv.Itoa(f.pr) {
		f.t.Errorf("fake GitHub: %s %s: wrong pull request", r.Method, r.URL.Path)
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return false
	}
	return true
}

// invalid answers 422 and fails the test.
func (f *fakeGitHub) invalid(w http.ResponseWriter, r *http.Request, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	f.t.Errorf("fake GitHub: %s %s: %s", r.Method, r.URL.Path, msg)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnprocessableEntity)
	json.NewEncoder(w).Encode(map[string]string{"message": "Validation Failed: " + msg})
}

// decode reads a JSON object body, rejecting keys outside allowed.
func (f *fakeGitHub) decode(w http.ResponseWriter, r *http.Request, allowed ...string) (map[string]any, bool) {
	var m map[string]any
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
		f.invalid(w, r, "body is not a JSON object: %v", err)
		return nil, false
	}
	for k := range m {
		if !slices.Contains(allowed, k) {
			f.invalid(w, r, "unexpected key %q", k)
			return nil, false
		}
	}
	return m, true
}

func str(m map[string]any, k string) (string, bool) {
	s, ok := m[k].(string)
	return s, ok && s != ""
}

func intField(m map[string]any, k string) (int, bool) {
	v, ok := m[k].(float64)
	return int(v), ok && v == float64(int(v))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// page serves items[page] with a Link header as linkMode says.
func page[T any](f *fakeGitHub, w http.ResponseWriter, r *http.Request, items []T) {
	writeJSON(w, http.StatusOK, pageOf(f, w, r, items))
}

// pageOf sets the Link header of the requested page of items and returns
// the page.
func pageOf[T any](f *fakeGitHub, w http.ResponseWriter, r *http.Request, items []T) []T {
	q := r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 30
	}
	if per > 100 {
		f.t.Errorf("fake GitHub: per_page %d over 100", per)
	}
	n, _ := strconv.Atoi(q.Get("page"))
	n = max(n, 1)
	lo, hi := min((n-1)*per, len(items)), min(n*per, len(items))
	u := *r.URL
	link := func(p int, rel string) string {
		q := u.Query()
		q.Set("page", strconv.Itoa(p))
		u.RawQuery = q.Encode()
		return fmt.Sprintf(`<%s%s>; rel="%s"`, f.srv.URL, u.RequestURI(), rel)
	}
	switch f.linkMode {
	case "prism":
		w.Header().Set("Link", `<https://api.github.com/resource?page=2>; rel="next", <https://api.github.com/resource?page=5>; rel="last"`)
	case "endless":
		w.Header().Set("Link", link(n+1, "next"))
	default:
		if hi < len(items) {
			w.Header().Set("Link", link(n+1, "next")+", "+link((len(items)+per-1)/per, "last"))
		}
	}
	return items[lo:hi]
}

func (f *fakeGitHub) listFiles(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	f.mu.Lock()
	var out []map[string]any
	for _, fl := range f.files {
		m := map[string]any{"sha": "0123", "filename": fl.name, "status": "modified"}
		if fl.patch != "" {
			m["patch"] = fl.patch
		}
		out = append(out, m)
	}
	f.mu.Unlock()
	page(f, w, r, out)
}

func (f *fakeGitHub) listComments(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	f.mu.Lock()
	out := make([]fakeComment, len(f.comments))
	for i, c := range f.comments {
		out[i] = *c
	}
	f.mu.Unlock()
	page(f, w, r, out)
}

func (f *fakeGitHub) findComment(r *http.Request) *fakeComment {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	for _, c := range f.comments {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func (f *fakeGitHub) editComment(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	m, ok := f.decode(w, r, "body")
	if !ok {
		return
	}
	body, ok := str(m, "body")
	if !ok {
		f.invalid(w, r, "body is required")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.findComment(r)
	if c == nil {
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	if c.User != f.self {
		f.t.Errorf("fake GitHub: %s edits %s's comment %d", f.self.Login, c.User.Login, c.ID)
		http.Error(w, `{"message":"Forbidden"}`, http.StatusForbidden)
		return
	}
	c.Body = body
	writeJSON(w, http.StatusOK, c)
}

// hunkOf returns the index of the hunk whose head side holds line, -1 if
// none, reading only the hunk headers of path's patch.
func (f *fakeGitHub) hunkOf(path string, line int) int {
	for _, fl := range f.files {
		if fl.name != path {
			continue
		}
		i := 0
		for _, l := range strings.Split(fl.patch, "\n") {
			if !strings.HasPrefix(l, "@@ ") {
				continue
			}
			var a, b, c, d int
			if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &a, &b, &c, &d); err != nil {
				f.t.Errorf("fake GitHub: bad hunk header in test data %q", l)
			}
			if line >= c && line < c+d {
				return i
			}
			i++
		}
	}
	return -1
}

func (f *fakeGitHub) createReview(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	m, ok := f.decode(w, r, "commit_id", "body", "event", "comments")
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	event, _ := str(m, "event")
	if !slices.Contains([]string{"APPROVE", "REQUEST_CHANGES", "COMMENT"}, event) {
		f.invalid(w, r, "event %q is not one of APPROVE, REQUEST_CHANGES, COMMENT", event)
		return
	}
	commit, _ := str(m, "commit_id")
	if commit != f.head {
		f.invalid(w, r, "commit_id %q is not the head %q", commit, f.head)
		return
	}
	body, _ := m["body"].(string)
	raw, _ := m["comments"].([]any)
	rv := fakeReview{ID: f.newID(), CommitID: commit, Event: event, Body: body, User: f.self}
	var created []*fakeComment
	for i, x := range raw {
		cm, ok := x.(map[string]any)
		if !ok {
			f.invalid(w, r, "comments.%d is not an object", i)
			return
		}
		for k := range cm {
			if !slices.Contains([]string{"path", "body", "line", "side", "start_line", "start_side"}, k) {
				f.invalid(w, r, "comments.%d: unexpected key %q", i, k)
				return
			}
		}
		path, ok1 := str(cm, "path")
		cbody, ok2 := str(cm, "body")
		line, ok3 := intField(cm, "line")
		side, _ := str(cm, "side")
		if !ok1 || !ok2 || !ok3 || side != "RIGHT" {
			f.invalid(w, r, "comments.%d needs path, body, line and side RIGHT", i)
			return
		}
		h := f.hunkOf(path, line)
		if h < 0 {
			f.invalid(w, r, "comments.%d: line %d of %s must be part of the diff", i, line, path)
			return
		}
		c := &fakeComment{ID: f.newID(), ReviewID: rv.ID, Body: cbody, Path: path, Line: &line, Side: side, CommitID: commit}
		if _, has := cm["start_line"]; has {
			start, ok := intField(cm, "start_line")
			ss, _ := str(cm, "start_side")
			if !ok || ss != "RIGHT" || start >= line || f.hunkOf(path, start) != h {
				f.invalid(w, r, "comments.%d: start_line %v must precede line %d in the same hunk with start_side RIGHT", i, cm["start_line"], line)
				return
			}
			c.StartLine = &start
		} else if _, has := cm["start_side"]; has {
			f.invalid(w, r, "comments.%d: start_side without start_line", i)
			return
		}
		c.User = f.self
		c.HTMLURL = fmt.Sprintf("https://github.com/o/r/pull/7#discussion_r%d", c.ID)
		created = append(created, c)
		rv.Comments = append(rv.Comments, c.ID)
	}
	if len(created) == 0 && body == "" {
		f.invalid(w, r, "a COMMENT review needs a body or comments")
		return
	}
	f.comments = append(f.comments, created...)
	f.reviews = append(f.reviews, rv)
	writeJSON(w, http.StatusOK, map[string]any{"id": rv.ID, "state": "COMMENTED", "commit_id": commit, "body": body})
}

func (f *fakeGitHub) listReviews(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	f.mu.Lock()
	var out []map[string]any
	for _, rv := range f.reviews {
		out = append(out, map[string]any{"id": rv.ID, "body": rv.Body, "commit_id": rv.CommitID, "state": "COMMENTED", "user": rv.User})
	}
	f.mu.Unlock()
	page(f, w, r, out)
}

// addComment adds a top-level review comment on lines start..line of path
// as if u had posted it earlier.
func (f *fakeGitHub) addComment(u fakeUser, path string, start, line int, body string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := &fakeComment{ID: f.newID(), Body: body, Path: path, Line: &line, Side: "RIGHT", CommitID: f.head, User: u}
	if start < line {
		c.StartLine = &start
	}
	f.comments = append(f.comments, c)
	return c.ID
}

// outdate makes review comment id outdated, as GitHub does when a push
// changes its lines: line and start_line become null, the original ones
// keep the old numbers.
func (f *fakeGitHub) outdate(id int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.comments {
		if c.ID == id {
			c.OriginalLine, c.OriginalStartLine = c.Line, c.StartLine
			c.Line, c.StartLine = nil, nil
			return
		}
	}
	f.t.Fatalf("fake GitHub: no review comment %d to outdate", id)
}

// comment returns review comment id.
func (f *fakeGitHub) comment(id int64) fakeComment {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.comments {
		if c.ID == id {
			return *c
		}
	}
	f.t.Fatalf("fake GitHub: no review comment %d", id)
	return fakeComment{}
}

func (f *fakeGitHub) newID() int64 {
	f.nextID++
	return f.nextID
}

// reply adds a reply by login, with GitHub's author association
// (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE…), to review comment
// parent.
func (f *fakeGitHub) reply(parent int64, login, association, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := &fakeComment{ID: f.newID(), Body: body, InReplyTo: parent, Side: "RIGHT"}
	for _, p := range f.comments {
		if p.ID == parent {
			c.Path, c.Line, c.CommitID = p.Path, p.Line, p.CommitID
		}
	}
	c.User = fakeUser{Login: login, Type: "User"}
	c.AuthorAssociation = association
	f.comments = append(f.comments, c)
}

func (f *fakeGitHub) listIssueComments(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	f.mu.Lock()
	out := make([]fakeIssueComment, len(f.issue))
	for i, c := range f.issue {
		out[i] = *c
	}
	f.mu.Unlock()
	page(f, w, r, out)
}

func (f *fakeGitHub) createIssueComment(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	m, ok := f.decode(w, r, "body")
	if !ok {
		return
	}
	body, ok := str(m, "body")
	if !ok {
		f.invalid(w, r, "body is required")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := &fakeIssueComment{ID: f.newID(), Body: body, User: f.self}
	f.issue = append(f.issue, c)
	writeJSON(w, http.StatusCreated, c)
}

// addIssueComment adds a comment as if login (a Bot when it is botLogin)
// had posted it earlier.
func (f *fakeGitHub) addIssueComment(login, body string) int64 {
	u := fakeUser{Login: login, Type: "User"}
	if login == botLogin {
		u.Type = "Bot"
	}
	return f.addIssueCommentBy(u, body)
}

// addIssueCommentBy adds a comment as if u had posted it earlier.
func (f *fakeGitHub) addIssueCommentBy(u fakeUser, body string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := &fakeIssueComment{ID: f.newID(), Body: body, User: u}
	f.issue = append(f.issue, c)
	return c.ID
}

func (f *fakeGitHub) issueComment(r *http.Request) (int, *fakeIssueComment) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	for i, c := range f.issue {
		if c.ID == id {
			return i, c
		}
	}
	return -1, nil
}

func (f *fakeGitHub) editIssueComment(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	m, ok := f.decode(w, r, "body")
	if !ok {
		return
	}
	body, ok := str(m, "body")
	if !ok {
		f.invalid(w, r, "body is required")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_, c := f.issueComment(r)
	if c == nil {
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	if c.User != f.self {
		f.t.Errorf("fake GitHub: %s edits %s's comment %d", f.self.Login, c.User.Login, c.ID)
		http.Error(w, `{"message":"Forbidden"}`, http.StatusForbidden)
		return
	}
	c.Body = body
	writeJSON(w, http.StatusOK, c)
}

func (f *fakeGitHub) deleteIssueComment(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	i, c := f.issueComment(r)
	if c == nil {
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	f.issue = slices.Delete(f.issue, i, i+1)
	w.WriteHeader(http.StatusNoContent)
}

// output validates a check run output: title and summary required,
// summary at most 65535 characters, at most 50 annotations each with the
// required fields.
func (f *fakeGitHub) output(w http.ResponseWriter, r *http.Request, m map[string]any) (title, summary string, anns []map[string]any, ok bool) {
	out, has := m["output"].(map[string]any)
	if !has {
		return "", "", nil, true
	}
	title, ok1 := str(out, "title")
	summary, ok2 := str(out, "summary")
	if !ok1 || !ok2 {
		f.invalid(w, r, "output needs title and summary")
		return "", "", nil, false
	}
	if n := len([]rune(summary)); n > 65535 {
		f.invalid(w, r, "output.summary has %d characters, more than 65535", n)
		return "", "", nil, false
	}
	raw, _ := out["annotations"].([]any)
	if len(raw) > 50 {
		f.invalid(w, r, "output.annotations must NOT have more than 50 items (%d)", len(raw))
		return "", "", nil, false
	}
	for i, x := range raw {
		a, _ := x.(map[string]any)
		_, p := str(a, "path")
		_, s := intField(a, "start_line")
		_, e := intField(a, "end_line")
		lvl, _ := str(a, "annotation_level")
		_, msg := str(a, "message")
		if !p || !s || !e || !msg || !slices.Contains([]string{"notice", "warning", "failure"}, lvl) {
			f.invalid(w, r, "output.annotations.%d lacks a required field: %v", i, a)
			return "", "", nil, false
		}
		anns = append(anns, a)
	}
	return title, summary, anns, true
}

func (f *fakeGitHub) createCheck(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	m, ok := f.decode(w, r, "name", "head_sha", "status", "conclusion", "completed_at", "started_at", "output", "details_url", "external_id")
	if !ok {
		return
	}
	name, ok1 := str(m, "name")
	sha, ok2 := str(m, "head_sha")
	if !ok1 || !ok2 {
		f.invalid(w, r, "name and head_sha are required")
		return
	}
	status, _ := str(m, "status")
	concl, _ := str(m, "conclusion")
	if status == "completed" && !slices.Contains([]string{"action_required", "cancelled", "failure", "neutral", "success", "skipped", "stale", "timed_out"}, concl) {
		f.invalid(w, r, "a completed check run needs a conclusion, got %q", concl)
		return
	}
	title, summary, anns, ok := f.output(w, r, m)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if sha != f.head {
		f.t.Errorf("fake GitHub: check run on %s, head is %s", sha, f.head)
	}
	ext, _ := str(m, "external_id")
	c := &fakeCheck{ID: f.newID(), Name: name, HeadSHA: sha, Status: status, Conclusion: concl, Title: title, Summary: summary, ExternalID: ext, Annotations: anns}
	f.checks = append(f.checks, c)
	writeJSON(w, http.StatusCreated, map[string]any{"id": c.ID, "name": name, "head_sha": sha, "status": status, "conclusion": concl})
}

// json is the check run as the API returns it.
func (c *fakeCheck) json() map[string]any {
	return map[string]any{"id": c.ID, "name": c.Name, "head_sha": c.HeadSHA, "status": c.Status, "conclusion": c.Conclusion,
		"external_id": c.ExternalID,
		"output":      map[string]any{"title": c.Title, "summary": c.Summary, "annotations_count": len(c.Annotations)}}
}

// listChecks serves the check runs of a commit, filtered by check_name,
// newest first, as {"total_count", "check_runs"}.
func (f *fakeGitHub) listChecks(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	q := r.URL.Query()
	if fl := q.Get("filter"); fl != "" && fl != "all" && fl != "latest" {
		f.invalid(w, r, "filter %q", fl)
		return
	}
	f.mu.Lock()
	var out []map[string]any
	for i := len(f.checks) - 1; i >= 0; i-- {
		c := f.checks[i]
		if c.HeadSHA != r.PathValue("ref") || (q.Get("check_name") != "" && c.Name != q.Get("check_name")) {
			continue
		}
		out = append(out, c.json())
	}
	f.mu.Unlock()
	runs := pageOf(f, w, r, out)
	if runs == nil {
		runs = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(out), "check_runs": runs})
}

func (f *fakeGitHub) getCheck(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	for _, c := range f.checks {
		if c.ID == id {
			writeJSON(w, http.StatusOK, c.json())
			return
		}
	}
	http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
}

func (f *fakeGitHub) updateCheck(w http.ResponseWriter, r *http.Request) {
	if !f.pathOK(w, r) {
		return
	}
	m, ok := f.decode(w, r, "name", "status", "conclusion", "completed_at", "output", "details_url", "external_id")
	if !ok {
		return
	}
	if n, has := m["name"]; has && n == "" {
		f.invalid(w, r, `name is "" (UpdateCheckRunOptions.Name has no omitempty)`)
		return
	}
	title, summary, anns, ok := f.output(w, r, m)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	for _, c := range f.checks {
		if c.ID == id {
			c.Annotations = append(c.Annotations, anns...) // appended, as documented
			c.Title, c.Summary = title, summary
			c.Updates++
			writeJSON(w, http.StatusOK, map[string]any{"id": c.ID, "name": c.Name})
			return
		}
	}
	http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
}

// takeRequests returns the requests logged so far and resets the log.
func (f *fakeGitHub) takeRequests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.requests
	f.requests = nil
	return out
}

// topLevel returns the review comments that are not replies.
func (f *fakeGitHub) topLevel() []fakeComment {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeComment
	for _, c := range f.comments {
		if c.InReplyTo == 0 {
			out = append(out, *c)
		}
	}
	return out
}
