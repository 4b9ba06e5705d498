package webhook

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestUnsignedBodyNotRead: a delivery without a well-formed signature is
// refused before its body is read.
func TestUnsignedBodyNotRead(t *testing.T) {
	t.Parallel()
	b := backends(t)[0]
	s := newServer(t, b, Config{})
	for _, sig := range []string{"", "sha1=0123", "sha256=nothex", "sha256=" + strings.Repeat("ab", 31)} {
		body := &countingReader{r: bytes.NewReader(bytes.Repeat([]byte("x"), 1<<20))}
		r := httptest.NewRequest(http.MethodPost, "/webhook", body)
		r.Header.Set(headerEvent, "pull_request")
		r.Header.Set(headerDelivery, "u-1")
		if sig != "" {
			r.Header.Set(headerSignature, sig)
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		if w.Code != http.StatusUnauthorized || body.n.Load() != 0 {
			t.Errorf("signature %q: status %d after reading %d bytes; want 401 before reading any", sig, w.Code, body.n.Load())
		}
	}
}

// TestPreAuthBudget: large bodies still arriving, unauthenticated, hold
// the large share of the pre-authentication budget; a large delivery
// that finds it spent waits PreAuthWait and gets 503, a small one (GitHub's
// ordinary delivery) is not delayed, and once the senders go the budget
// is whole again.
func TestPreAuthBudget(t *testing.T) {
	t.Parallel()
	b := backends(t)[0]
	const maxBody = 4 << 20
	s := newServer(t, b, Config{MaxBody: maxBody, PreAuthWait: 200 * time.Millisecond})
	budget := s.cfg.PreAuthBytes
	if budget != 2*maxBody+readChunk {
		t.Fatalf("PreAuthBytes %d, want the default 2×MaxBody+%d", budget, readChunk)
	}
	// Two senders announce a largest body with a wrong signature, send
	// all but its last byte and stall: they hold all of the large share
	// but 256 KiB.
	type stalled struct {
		pw   *io.PipeWriter
		done chan int
	}
	var senders []stalled
	for i := range 2 {
		pr, pw := io.Pipe()
		r := httptest.NewRequest(http.MethodPost, "/webhook", pr)
		r.ContentLength = maxBody
		r.Header.Set(headerEvent, "pull_request")
		r.Header.Set(headerDelivery, "stall")
		r.Header.Set(headerSignature, "sha256="+strings.Repeat("00", 32))
		done := make(chan int, 1)
		go func() {
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, r)
			done <- w.Code
		}()
		go func() { _, _ = pw.Write(bytes.Repeat([]byte{byte('a' + i)}, maxBody-1)) }()
		senders = append(senders, stalled{pw, done})
	}
	waitFor(t, 10*time.Second, "the senders to hold the budget", func() bool {
		if !s.preAuth.large.TryAcquire(readChunk + 1) {
			return true
		}
		s.preAuth.large.Release(readChunk + 1)
		return false
	})
	large := append([]byte(`{"zen":"`), append(bytes.Repeat([]byte("z"), 3<<19), `"}`...)...)
	if a := deliver(t, s.Handler(), delivery{event: "ping", id: "while-spent", body: large}); a != (answer{503, "unavailable"}) {
		t.Errorf("large delivery while the large share is spent: %+v, want 503 unavailable", a)
	}
	if a := deliver(t, s.Handler(), delivery{event: "pull_request", id: "small", body: prPayload(t, "opened", headA, 0)}); a.status != http.StatusAccepted {
		t.Errorf("small delivery while the large share is spent: %+v, want 202", a)
	}
	for _, st := range senders {
		st.pw.Close()
	}
	for i, st := range senders {
		select {
		case code := <-st.done:
			if code != http.StatusUnauthorized {
				t.Errorf("stalled sender %d: %d, want 401", i, code)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("stalled sender %d never answered", i)
		}
	}
	if !s.preAuth.large.TryAcquire(budget) || !s.preAuth.small.TryAcquire(smallShare) {
		t.Fatal("budget not whole after the senders left")
	}
	s.preAuth.large.Release(budget)
	s.preAuth.small.Release(smallShare)
	if a := deliver(t, s.Handler(), delivery{event: "ping", id: "after", body: large}); a.status != http.StatusOK {
		t.Errorf("large delivery after the senders left: %+v, want 200", a)
	}
}

// TestBodyDeadline: a body trickling in is cut off at BodyTimeout instead
// of holding the connection as long as its sender likes.
func TestBodyDeadline(t *testing.T) {
	t.Parallel()
	b := backends(t)[0]
	s := newServer(t, b, Config{BodyTimeout: 300 * time.Millisecond})
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const size = 1000
	head := "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-GitHub-Event: pull_request\r\n" +
		"X-GitHub-Delivery: slow\r\nX-Hub-Signature-256: sha256=" + strings.Repeat("00", 32) + "\r\nContent-Length: 1000\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	go func() {
		// One byte every 100 ms: the whole body would take 100 s.
		for range size {
			if ctx.Err() != nil {
				return
			}
			if _, err := conn.Write([]byte("x")); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	start := time.Now()
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	reply, _ := io.ReadAll(conn) // until the server answers and closes
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the server held the trickling connection %s; want it cut near BodyTimeout", took)
	}
	if !strings.HasPrefix(string(reply), "HTTP/1.1 400") {
		t.Errorf("reply %q, want 400", firstLine(string(reply)))
	}
}
