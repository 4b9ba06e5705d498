package scripted

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// recorder captures the failures the server reports instead of failing
// the test.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, strings.TrimSpace(strings.Split(fmt.Sprintf(format, args...), "\n")[0]))
}

func (r *recorder) Helper() {}

func post(t *testing.T, url, body string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer k")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestServerReportsWhatIsNotScripted(t *testing.T) {
	f := filepath.Join(t.TempDir(), "t.json")
	tr := `{"conversations": [
	  {"name": "a", "match": "claim-a", "turns": [
	    {"expect": {"tools": true}, "responses": [{"content": "one"}]},
	    {"responses": [{"content": "two"}]}]},
	  {"name": "b", "match": "claim-b", "turns": [{"responses": [{"content": "x"}]}]}]}`
	if err := os.WriteFile(f, []byte(tr), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{TB: t}
	var srv *Server
	t.Run("requests", func(t *testing.T) {
		srv = NewWith(rec, Spec{}, f)
		msg := func(s string) string {
			return `{"model": "m", "messages": [{"role": "user", "content": "` + s + `"}]}`
		}
		if got := post(t, srv.URL, msg("judge claim-zzz")); got != http.StatusBadRequest {
			t.Errorf("unmatched: status %d", got)
		}
		if got := post(t, srv.URL, msg("judge claim-a")); got != http.StatusOK {
			t.Errorf("matched: status %d", got)
		}
		if got := post(t, srv.URL, msg("judge claim-a")); got != http.StatusBadRequest {
			t.Errorf("second attempt of a one-response turn: status %d", got)
		}
		if srv.Requests() != 2 || srv.RequestsFor("a") != 2 {
			t.Errorf("requests %d, for a %d", srv.Requests(), srv.RequestsFor("a"))
		}
	})
	srv.checkPlayed()
	want := []string{
		"scripted: no conversation matches the request; first user message:",
		`scripted: conversation "a" turn 0 attempt 1: tools present = false, want true`,
		`scripted: conversation "a" turn 0: attempt 2, but only 1 responses are scripted`,
		`scripted: conversation "a" never reached its turn 1`,
		`scripted: conversation "b" never reached its turn 0`,
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if strings.Join(rec.errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("reported:\n%s\nwant:\n%s", strings.Join(rec.errs, "\n"), strings.Join(want, "\n"))
	}
}
