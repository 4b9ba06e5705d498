package webhook

import (
	"log/slog"
	"net/http"
	"testing"
)

// FuzzWebhook throws arbitrary bodies and headers at POST /webhook: the
// handler never panics, and answers no 5xx for a client's mistakes. When
// sign is true the body carries a valid signature, so parsing and routing
// are reached.
func FuzzWebhook(f *testing.F) {
	f.Add("pull_request", "seed-1", []byte(`{"action":"opened"}`), true, "application/json")
	f.Add("issue_comment", "seed-2", []byte(`{"action":"created","issue":{"number":1,"pull_request":{}},"comment":{"body":"/docreview","author_association":"OWNER"},"installation":{"id":1},"repository":{"name":"r","owner":{"login":"o"}}}`), true, "application/json")
	f.Add("ping", "seed-3", []byte(`{"zen":"x"}`), false, "application/json")
	f.Add("pull_request", "seed-4", []byte("payload=%7B%7D"), true, "application/x-www-form-urlencoded")
	dir := f.TempDir()
	s := newServer(f, backend{name: "sqlite", config: func(cfg *Config) { cfg.DataDir = dir }}, Config{MaxBody: 1 << 16,
		Logger: slog.New(slog.DiscardHandler)}) // f.Log is off limits inside the target
	h := s.Handler()
	f.Fuzz(func(t *testing.T, event, id string, body []byte, signed bool, ctype string) {
		d := delivery{event: event, id: id, body: body, ctype: ctype, sig: "-"}
		if signed {
			d.sig = ""
		}
		if ctype == "" {
			d.ctype = "text/plain"
		}
		a := deliver(t, h, d)
		if a.status >= 500 {
			t.Fatalf("status %d (%s) for event %q id %q body %q", a.status, a.body, event, id, body)
		}
		if !signed && a.status != http.StatusUnauthorized && a.status != http.StatusRequestEntityTooLarge {
			t.Fatalf("unsigned delivery got %d (%s)", a.status, a.body)
		}
	})
}
