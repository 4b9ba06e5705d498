package github

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/review"
)

const (
	badGateway = `{"message":"Bad Gateway"}`
	// unplaceable is GitHub's answer to a review comment on a line that is
	// not in the diff.
	unplaceable = `{"message":"Unprocessable Entity","errors":["Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank"],"documentation_url":"https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request","status":"422"}`
)

// TestIdempotentCreates has GitHub carry out a create and then answer 502
// or drop the connection: Publish must find the result instead of creating
// it again, and count it as created.
func TestIdempotentCreates(t *testing.T) {
	// 120 findings outside the diff: annotations in three requests, to
	// check run 105 (after review 101, its comments 102-103 and summary
	// comment 104).
	many := []review.Verdict{findingA, findingB}
	for i := 1; i <= 120; i++ {
		many = append(many, review.Verdict{
			Claim: review.Claim{ID: fmt.Sprintf("%016x", i), Path: "docs/big.md", Line: i, EndLine: i, Kind: review.KindMarkdown},
			Label: review.Incomplete, Rule: "go-snippet", Message: fmt.Sprintf("finding %d", i),
		})
	}
	tests := []struct {
		name   string
		inject []injected
		verds  []review.Verdict
		want   Result // IDs are checked separately
		// reviews, top-level review comments, summary comments, check runs
		// and annotations of the last check run after the run.
		reviews, comments, summaries, checks, annotations int
	}{
		{name: "no failure",
			want:    Result{Requests: 7, Posted: 2, Conclusion: "failure"},
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "review created, then 502",
			inject:  []injected{{method: "POST", path: "/reviews", status: 502, body: badGateway, after: true}},
			want:    Result{Requests: 8, Posted: 2, Conclusion: "failure"}, // + GET comments finds it
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "review created, then the connection drops",
			inject:  []injected{{method: "POST", path: "/reviews", after: true}},
			want:    Result{Requests: 8, Posted: 2, Conclusion: "failure"},
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "review not created, 502: looked for, then retried",
			inject:  []injected{{method: "POST", path: "/reviews", status: 502, body: badGateway}},
			want:    Result{Requests: 9, Posted: 2, Conclusion: "failure"},
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "review created by the last try, then 502",
			inject: []injected{
				{method: "POST", path: "/reviews", status: 502, body: badGateway},
				{method: "POST", path: "/reviews", status: 503, body: badGateway},
				{method: "POST", path: "/reviews", status: 504, body: badGateway},
				{method: "POST", path: "/reviews", status: 502, body: badGateway, after: true}},
			want:    Result{Requests: 14, Posted: 2, Conclusion: "failure"}, // 4 POST, 4 GET comments
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "review not created, 429: retried without looking",
			inject:  []injected{{method: "POST", path: "/reviews", status: 429, header: map[string]string{"Retry-After": "0"}, body: `{"message":"Too Many Requests"}`}},
			want:    Result{Requests: 8, Posted: 2, Conclusion: "failure"},
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "summary created, then 502",
			inject:  []injected{{method: "POST", path: "/issues/7/comments", status: 502, body: badGateway, after: true}},
			want:    Result{Requests: 8, Posted: 2, Conclusion: "failure"}, // + GET issue comments
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "summary created, then the connection drops",
			inject:  []injected{{method: "POST", path: "/issues/7/comments", after: true}},
			want:    Result{Requests: 8, Posted: 2, Conclusion: "failure"},
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "review without inline comments created, then 502",
			inject: []injected{
				{method: "POST", path: "/reviews", status: 422, body: unplaceable},
				{method: "POST", path: "/reviews", status: 502, body: badGateway, after: true}},
			want:    Result{Requests: 9, Rejected: 2, Conclusion: "failure"}, // + GET reviews
			reviews: 1, comments: 0, summaries: 1, checks: 1, annotations: 3},
		{name: "annotations appended, then 502",
			verds: many,
			inject: []injected{
				{method: "PATCH", path: "/check-runs/105", status: 502, body: badGateway, after: true}},
			want:    Result{Requests: 10, Posted: 2, Conclusion: "failure"}, // create + 2 updates + GET check run
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 122},
		{name: "annotations not appended, 502: looked for, then retried",
			verds: many,
			inject: []injected{
				{method: "PATCH", path: "/check-runs/105", status: 502, body: badGateway}},
			want:    Result{Requests: 11, Posted: 2, Conclusion: "failure"},
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 122},
		// A check run created before a 502 or a dropped connection is
		// found by its content's digest on the head's list, not created
		// again.
		{name: "check run created, then 502: found, not duplicated",
			inject:  []injected{{method: "POST", path: "/check-runs", status: 502, body: badGateway, after: true}},
			want:    Result{Requests: 8, Posted: 2, Conclusion: "failure"}, // + GET check runs finds it
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "check run created, then the connection drops: found",
			inject:  []injected{{method: "POST", path: "/check-runs", after: true}},
			want:    Result{Requests: 8, Posted: 2, Conclusion: "failure"},
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
		{name: "check run not created, 502: looked for, then retried",
			inject:  []injected{{method: "POST", path: "/check-runs", status: 502, body: badGateway}},
			want:    Result{Requests: 9, Posted: 2, Conclusion: "failure"},
			reviews: 1, comments: 2, summaries: 1, checks: 1, annotations: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, head1, fakeFile{"cache/cache.go", cachePatch1}, fakeFile{"README.md", readmePatch})
			f.inject = tt.inject
			verds := tt.verds
			if verds == nil {
				verds = []review.Verdict{findingA, findingB, findingC}
			}
			got, err := Publish(t.Context(), options(f), report(head1, verds...))
			reqs := f.takeRequests()
			if err != nil {
				t.Fatalf("%v; requests %v", err, reqs)
			}
			if got.Requests != len(reqs) {
				t.Errorf("Result.Requests %d, the fake saw %d", got.Requests, len(reqs))
			}
			f.mu.Lock()
			reviews, checks, injectLeft := f.reviews, f.checks, len(f.inject)
			f.mu.Unlock()
			if injectLeft != 0 {
				t.Errorf("%d injected answers not used; requests %v", injectLeft, reqs)
			}
			if len(reviews) != tt.reviews || len(f.topLevel()) != tt.comments || len(f.summaries()) != tt.summaries ||
				len(checks) != tt.checks || len(f.lastCheck(t).Annotations) != tt.annotations {
				t.Errorf("%d reviews, %d comments, %d summaries, %d check runs, %d annotations; want %d, %d, %d, %d, %d; requests %v",
					len(reviews), len(f.topLevel()), len(f.summaries()), len(checks), len(f.lastCheck(t).Annotations),
					tt.reviews, tt.comments, tt.summaries, tt.checks, tt.annotations, reqs)
			}
			if len(reviews) > 0 && got.ReviewID != reviews[0].ID {
				t.Errorf("ReviewID %d, want the review created, %d", got.ReviewID, reviews[0].ID)
			}
			if s := f.summaries(); len(s) > 0 && got.SummaryCommentID != s[0].ID {
				t.Errorf("SummaryCommentID %d, want %d", got.SummaryCommentID, s[0].ID)
			}
			if got.CheckRunID != f.lastCheck(t).ID {
				t.Errorf("CheckRunID %d, want %d", got.CheckRunID, f.lastCheck(t).ID)
			}
			got.ReviewID, got.SummaryCommentID, got.CheckRunID = 0, 0, 0
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s\nrequests %v", diff, reqs)
			}
		})
	}
}

// TestRejectedReview has GitHub refuse the review's inline comments with
// 422: the review is posted without them, the findings go to the summary,
// and the run succeeds.
func TestRejectedReview(t *testing.T) {
	tests := []struct {
		name       string
		inject     []injected
		want       Result
		reviews    int
		reviewBody string
	}{
		{name: "422, then the review without inline comments",
			inject:  []injected{{method: "POST", path: "/reviews", status: 422, body: unplaceable}},
			want:    Result{Requests: 8, Rejected: 2, Conclusion: "failure"},
			reviews: 1, reviewBody: "GitHub would not place them on the diff"},
		{name: "422 twice: no review",
			inject: []injected{
				{method: "POST", path: "/reviews", status: 422, body: unplaceable},
				{method: "POST", path: "/reviews", status: 422, body: `{"message":"Unprocessable Entity","errors":["No commit found for SHA"]}`}},
			want:    Result{Requests: 8, Rejected: 2, Conclusion: "failure"},
			reviews: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, head1, fakeFile{"cache/cache.go", cachePatch1}, fakeFile{"README.md", readmePatch})
			f.inject = tt.inject
			got, err := Publish(t.Context(), options(f), report(head1, findingA, findingB, findingC))
			if err != nil {
				t.Fatal(err)
			}
			f.mu.Lock()
			reviews := f.reviews
			f.mu.Unlock()
			if len(reviews) != tt.reviews || len(f.topLevel()) != 0 || (got.ReviewID != 0) != (tt.reviews > 0) {
				t.Errorf("%d reviews, %d comments, ReviewID %d; want %d reviews, no comments", len(reviews), len(f.topLevel()), got.ReviewID, tt.reviews)
			}
			if tt.reviews > 0 && !strings.Contains(reviews[0].Body, tt.reviewBody) {
				t.Errorf("review body %q lacks %q", reviews[0].Body, tt.reviewBody)
			}
			got.ReviewID, got.SummaryCommentID, got.CheckRunID = 0, 0, 0
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			sum := f.summaries()[0].Body
			if n := strings.Count(sum, "(GitHub would not place it on the diff, which may have changed since it was read)"); n != 2 {
				t.Errorf("summary lists %d rejected findings, want 2:\n%s", n, sum)
			}
			if len(f.lastCheck(t).Annotations) != 3 {
				t.Errorf("check run has %d annotations, want 3", len(f.lastCheck(t).Annotations))
			}
			// The next run, when GitHub accepts them, posts them inline.
			got, err = Publish(t.Context(), options(f), report(head1, findingA, findingB, findingC))
			if err != nil || got.Posted != 2 || got.Rejected != 0 {
				t.Errorf("next run: %+v, %v; want 2 posted", got, err)
			}
		})
	}
}

// TestOnlyOurMarkers checks that a fingerprint or summary marker counts
// only in a comment by the token's identity: any Bot without
// Options.Author, the Author's login with it.
func TestOnlyOurMarkers(t *testing.T) {
	fpA := Fingerprint(findingA)
	copied := fpMarkerPrefix + fpA + markerSuffix + "\n**Contradicted** · quoted from the bot by hand\n"
	tests := []struct {
		name   string
		self   fakeUser // the token's identity
		author string   // Options.Author
		// earlier is the author of an earlier comment carrying A's marker
		// on its lines, and of a summary comment.
		earlier fakeUser
		// ours says whether those comments count as Publish's own.
		ours bool
	}{
		{name: "human's copy, bot token", self: fakeUser{botLogin, "Bot"}, earlier: fakeUser{"mallory", "User"}},
		{name: "human's copy, Author set", self: fakeUser{botLogin, "Bot"}, author: botLogin, earlier: fakeUser{"mallory", "User"}},
		{name: "another bot's, Author set", self: fakeUser{botLogin, "Bot"}, author: botLogin, earlier: fakeUser{"other-app[bot]", "Bot"}},
		{name: "bot's own, no Author", self: fakeUser{botLogin, "Bot"}, earlier: fakeUser{botLogin, "Bot"}, ours: true},
		{name: "user token's own, Author set", self: fakeUser{"alice", "User"}, author: "Alice", earlier: fakeUser{"alice", "User"}, ours: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, head1, fakeFile{"cache/cache.go", cachePatch1}, fakeFile{"README.md", readmePatch})
			f.self = tt.self
			id := f.addComment(tt.earlier, "cache/cache.go", 11, 12, copied)
			sumID := f.addIssueCommentBy(tt.earlier, summaryMarker+"\nby "+tt.earlier.Login)
			if !tt.ours {
				// A dismissal in the thread of someone else's marker does
				// not dismiss.
				f.reply(id, "mallory", "COLLABORATOR", "/docreview dismiss not a bug")
			}
			opt := options(f)
			opt.Author = tt.author

			got, err := Publish(t.Context(), opt, report(head1, findingA, findingB))
			if err != nil {
				t.Fatal(err)
			}
			wantPosted, wantKept := 2, 0
			if tt.ours {
				wantPosted, wantKept = 1, 1
			}
			if got.Posted != wantPosted || got.Kept != wantKept || got.Dismissed != 0 {
				t.Errorf("posted %d, kept %d, dismissed %d; want %d, %d, 0", got.Posted, got.Kept, got.Dismissed, wantPosted, wantKept)
			}
			if (got.SummaryCommentID == sumID) != tt.ours {
				t.Errorf("summary comment %d; the earlier one, %d, is ours: %v", got.SummaryCommentID, sumID, tt.ours)
			}
			if !tt.ours && (len(f.summaries()) != 2 || !strings.Contains(f.summaries()[0].Body, "by "+tt.earlier.Login)) {
				t.Errorf("the earlier summary comment was changed or deleted: %+v", f.summaries())
			}

			// A is fixed: only our comment is resolved.
			got, err = Publish(t.Context(), opt, report(head1, findingB))
			if err != nil {
				t.Fatal(err)
			}
			if got.Resolved != 1 {
				t.Errorf("resolved %d, want 1 (ours)", got.Resolved)
			}
			if c := f.comment(id); (c.Body != copied) != tt.ours {
				t.Errorf("earlier comment edited: %v, want %v:\n%s", c.Body != copied, tt.ours, c.Body)
			}
		})
	}
}

// cachePatchMoved is a push after run 1 of the three-run test that inserts
// two lines above Purge's doc comment, now lines 13-14.
const cachePatchMoved = "@@ -8,4 +8,10 @@ type Cache struct {\n" +
	" \tmu sync.Mutex\n" +
	" }\n" +
	" \n" +
	"+// Cache is safe for concurrent use.\n" +
	"+\n" +
	"+// Purge removes the entries older than\n" +
	"+// the TTL given to [New].\n" +
	"+func (c *Cache) Purge() int {\n" +
	"+\tc.mu.Lock()\n" +
	" \tdefer c.mu.Unlock()"

// TestOutdatedComments posts A and B, then pushes a change after which
// GitHub reports A's comment outdated.
func TestOutdatedComments(t *testing.T) {
	movedA := findingA
	movedA.Claim.Line, movedA.Claim.EndLine = 13, 14
	outsideA := findingA
	outsideA.Claim.Line, outsideA.Claim.EndLine = 30, 31
	fpA := Fingerprint(findingA)
	tests := []struct {
		name  string
		rep   review.Report
		extra bool // a second, outdated comment of A's is left from before
		want  Result
		// oldMarker is the second marker the outdated comment gets:
		// "moved", "resolved" or "" (left alone).
		oldMarker string
		// newLines is where A's live comment is after the run, nil if none.
		newLines []int
		// again is the result of one more run with the same report.
		again Result
	}{
		{name: "still reported, on the diff: posted again, old one marked moved",
			rep:       report(head2, movedA, findingB),
			want:      Result{Requests: 8, Posted: 1, Kept: 1, Moved: 1, Conclusion: "failure"},
			oldMarker: "moved", newLines: []int{13, 14},
			again: Result{Requests: 4, Kept: 2, CheckReused: true, Conclusion: "failure"}},
		{name: "still reported, on the diff, leftover duplicate: both marked moved",
			rep: report(head2, movedA, findingB), extra: true,
			want:      Result{Requests: 9, Posted: 1, Kept: 1, Moved: 2, Conclusion: "failure"},
			oldMarker: "moved", newLines: []int{13, 14},
			again: Result{Requests: 4, Kept: 2, CheckReused: true, Conclusion: "failure"}},
		{name: "still reported, off the diff: listed in the summary, old one left alone",
			rep:       report(head2, outsideA, findingB),
			want:      Result{Requests: 6, Kept: 1, Conclusion: "failure"},
			oldMarker: "",
			again:     Result{Requests: 4, Kept: 1, CheckReused: true, Conclusion: "failure"}},
		{name: "gone: resolved as usual",
			rep:       report(head2, findingB),
			want:      Result{Requests: 7, Kept: 1, Resolved: 1, Conclusion: "success"},
			oldMarker: "resolved",
			again:     Result{Requests: 4, Kept: 1, CheckReused: true, Conclusion: "success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, head1, fakeFile{"cache/cache.go", cachePatch1}, fakeFile{"README.md", readmePatch})
			if _, err := Publish(t.Context(), options(f), report(head1, findingA, findingB)); err != nil {
				t.Fatal(err)
			}
			old := f.commentFor(t, fpA)
			var extra int64
			if tt.extra {
				extra = f.addComment(fakeUser{botLogin, "Bot"}, "cache/cache.go", 11, 12, old.Body)
				f.outdate(extra)
			}
			f.outdate(old.ID)
			f.mu.Lock()
			f.head, f.files = head2, []fakeFile{{"cache/cache.go", cachePatchMoved}, {"README.md", readmePatch}}
			f.mu.Unlock()
			f.takeRequests()

			for i, want := range []Result{tt.want, tt.again} {
				got, err := Publish(t.Context(), options(f), tt.rep)
				if err != nil {
					t.Fatal(err)
				}
				reqs := f.takeRequests()
				got.ReviewID, got.SummaryCommentID, got.CheckRunID = 0, 0, 0
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("run %d: result (-want +got):\n%s\nrequests %v", i+1, diff, reqs)
				}
			}
			for _, id := range []int64{old.ID, extra} {
				if id == 0 {
					continue
				}
				c := f.comment(id)
				m, _ := parseMarkers(c.Body)
				var marker string
				switch {
				case m.moved == head2:
					marker = "moved"
				case m.resolved == head2:
					marker = "resolved"
				case c.Body == old.Body:
				default:
					marker = "changed otherwise"
				}
				if marker != tt.oldMarker {
					t.Errorf("outdated comment %d: %q, want %q:\n%s", id, marker, tt.oldMarker, c.Body)
				}
				if marker == "moved" && id == old.ID {
					golden(t, "outdated/comment-A-moved.md", c.Body)
				}
			}
			var live []fakeComment
			for _, c := range f.topLevel() {
				if m, ok := parseMarkers(c.Body); ok && m.fp == fpA && m.resolved == "" && m.moved == "" && c.Line != nil {
					live = append(live, c)
				}
			}
			switch {
			case tt.newLines == nil && len(live) != 0:
				t.Errorf("A has %d live comments, want none", len(live))
			case tt.newLines != nil && (len(live) != 1 || *live[0].StartLine != tt.newLines[0] || *live[0].Line != tt.newLines[1]):
				t.Errorf("A's live comments %+v, want one on lines %v", live, tt.newLines)
			}
			if tt.oldMarker == "" && !strings.Contains(f.summaries()[0].Body, "(not on a line of this diff)") {
				t.Errorf("summary does not list A as off the diff:\n%s", f.summaries()[0].Body)
			}
		})
	}
}

// TestCheckRunOnePerResult: Publish run again for the same head writes no
// second check run while the result is the same, finishes one whose
// annotations were cut short (a process killed between updates), and
// writes a new one when the result changes, also back to an earlier one.
func TestCheckRunOnePerResult(t *testing.T) {
	var many []review.Verdict
	for i := 1; i <= 120; i++ {
		many = append(many, review.Verdict{
			Claim: review.Claim{ID: fmt.Sprintf("%016x", i), Path: "docs/big.md", Line: i, EndLine: i, Kind: review.KindMarkdown},
			Label: review.Incomplete, Rule: "go-snippet", Message: fmt.Sprintf("finding %d", i),
		})
	}
	f := newFakeGitHub(t, head1)
	opt := options(f)
	opt.Reporters = Reporters{Check: true}
	first, err := Publish(t.Context(), opt, report(head1, many...))
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.checks[0].Annotations = f.checks[0].Annotations[:100] // cut short, as by a kill before the last update
	f.mu.Unlock()

	again, err := Publish(t.Context(), opt, report(head1, many...))
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	n, anns := len(f.checks), len(f.checks[0].Annotations)
	f.mu.Unlock()
	if n != 1 || anns != 120 || !again.CheckReused || again.CheckRunID != first.CheckRunID {
		t.Fatalf("after the second Publish: %d check runs, %d annotations, reused %v (ids %d, %d); want 1, 120, true, the same id",
			n, anns, again.CheckReused, first.CheckRunID, again.CheckRunID)
	}
	if got := f.lastCheck(t).Annotations[119]["message"]; got != "finding 120" {
		t.Errorf("last annotation %v, want finding 120", got)
	}

	// A different result (a finding dismissed) is a new check run; going
	// back to the first result is a new one again, since GitHub shows
	// the latest.
	fewer := report(head1, many[1:]...)
	if res, err := Publish(t.Context(), opt, fewer); err != nil || res.CheckReused {
		t.Fatalf("changed result: reused %v, err %v; want a new check run", res.CheckReused, err)
	}
	if res, err := Publish(t.Context(), opt, report(head1, many...)); err != nil || res.CheckReused {
		t.Fatalf("back to the first result: reused %v, err %v; want a new check run", res.CheckReused, err)
	}
	f.mu.Lock()
	n = len(f.checks)
	f.mu.Unlock()
	if n != 3 {
		t.Errorf("%d check runs, want 3 (one per change of result)", n)
	}
}
