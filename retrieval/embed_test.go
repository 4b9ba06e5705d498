package retrieval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// embedTestKey is the API key tests configure; it must never show up in
// errors or logs.
const embedTestKey = "sk-test-0123456789secret"

// embedTestDim is the dimension of the fake endpoint's vectors.
const embedTestDim = 256

// embedTestVector is the fake model: a hashed bag of words, so that texts
// sharing words (camelCase parts and plural "s" folded) point the same
// way. It is deterministic and never zero.
func embedTestVector(text string, dim int) []float32 {
	v := make([]float32, dim)
	for _, w := range embedTestWords(text) {
		h := fnv.New64a()
		_, _ = h.Write([]byte(w))
		x := h.Sum64()
		sign := float32(1)
		if x>>63 == 1 {
			sign = -1
		}
		v[x%uint64(dim)] += sign
	}
	v[dim-1] += 0.01
	return v
}

// embedTestWords splits text into lower-case words of three letters or
// more, camelCase split, a final "s" dropped.
func embedTestWords(text string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) >= 3 {
			w := strings.ToLower(string(cur))
			if len(w) > 3 {
				w = strings.TrimSuffix(w, "s")
			}
			words = append(words, w)
		}
		cur = cur[:0]
	}
	prev := rune(0)
	for _, r := range text {
		switch {
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return words
}

// embedRequest is the body the embeddings endpoint accepts, as OpenAI
// documents it.
type embedRequest struct {
	Input          []string `json:"input"`
	Model          string   `json:"model"`
	EncodingFormat *string  `json:"encoding_format"`
	Dimensions     *int     `json:"dimensions"`
	User           *string  `json:"user"`
}

// embedResponse and embedDatum are the documented response shape.
type embedResponse struct {
	Object string       `json:"object"`
	Data   []embedDatum `json:"data"`
	Model  string       `json:"model"`
	Usage  struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

type embedDatum struct {
	Object    string    `json:"object"`
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

// embedServer is a fake OpenAI-compatible embeddings endpoint under
// /v1/. It validates each request as the real API would and answers with
// embedTestVector, unless respond, called with the 1-based request
// number, handles the request first.
type embedServer struct {
	t       *testing.T
	srv     *httptest.Server
	dim     int
	key     string // expected Authorization bearer; "" expects none
	respond func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) bool

	mu     sync.Mutex
	inputs [][]string // per request, after validation
	calls  int        // requests received, valid or not
}

// newEmbedServer starts a fake endpoint expecting embedTestKey.
func newEmbedServer(t *testing.T) *embedServer {
	t.Helper()
	s := &embedServer{t: t, dim: embedTestDim, key: embedTestKey}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/embeddings", s.handle)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("embeddings fake: unexpected %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

// url is the base URL to configure the embedder with.
func (s *embedServer) url() string { return s.srv.URL + "/v1" }

// embedder returns an embedder for the fake, adjusted by opt.
func (s *embedServer) embedder(t *testing.T, opt EmbedderOptions) *OpenAIEmbedder {
	t.Helper()
	if opt.BaseURL == "" {
		opt.BaseURL = s.url()
	}
	if opt.APIKey == "" {
		opt.APIKey = s.key
	}
	if opt.Model == "" {
		opt.Model = "fake-embed"
	}
	e, err := NewOpenAIEmbedder(opt)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// stats returns the number of requests and of texts they carried.
func (s *embedServer) stats() (requests, texts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, in := range s.inputs {
		texts += len(in)
	}
	return s.calls, texts
}

// reset forgets the requests seen so far.
func (s *embedServer) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inputs, s.calls = nil, 0
}

func (s *embedServer) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.calls++
	n := s.calls
	s.mu.Unlock()

	req, problem := s.validate(r)
	if problem != "" {
		s.t.Errorf("embeddings fake: request %d: %s", n, problem)
		embedWriteError(w, http.StatusBadRequest, "invalid_request_error", problem)
		return
	}
	s.mu.Lock()
	s.inputs = append(s.inputs, req.Input)
	s.mu.Unlock()
	if s.respond != nil && s.respond(w, r, n, req) {
		return
	}
	dim := s.dim
	if req.Dimensions != nil {
		dim = *req.Dimensions
	}
	resp := embedResponse{Object: "list", Model: req.Model}
	for i, text := range req.Input {
		resp.Data = append(resp.Data, embedDatum{Object: "embedding", Index: i, Embedding: embedTestVector(text, dim)})
		resp.Usage.PromptTokens += len(embedTestWords(text))
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens
	embedWriteJSON(w, http.StatusOK, resp)
}

// validate checks r the way the embeddings API does and returns the
// decoded body, or what is wrong.
func (s *embedServer) validate(r *http.Request) (embedRequest, string) {
	var req embedRequest
	if r.Method != http.MethodPost {
		return req, "method " + r.Method
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		return req, "content type " + ct
	}
	wantAuth := ""
	if s.key != "" {
		wantAuth = "Bearer " + s.key
	}
	if got := r.Header.Get("Authorization"); got != wantAuth {
		return req, fmt.Sprintf("authorization %q, want %q", got, wantAuth)
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, "body: " + err.Error()
	}
	switch {
	case req.Model == "":
		return req, "model missing"
	case len(req.Input) == 0 || len(req.Input) > 2048:
		return req, fmt.Sprintf("input has %d entries, want 1..2048", len(req.Input))
	case req.EncodingFormat != nil && *req.EncodingFormat != "float" && *req.EncodingFormat != "base64":
		return req, "encoding_format " + *req.EncodingFormat
	case req.Dimensions != nil && *req.Dimensions < 1:
		return req, fmt.Sprintf("dimensions %d", *req.Dimensions)
	}
	for i, in := range req.Input {
		if in == "" || !utf8.ValidString(in) {
			return req, fmt.Sprintf("input %d is empty or not UTF-8", i)
		}
	}
	return req, ""
}

func embedWriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// embedWriteError answers with the API's error shape.
func embedWriteError(w http.ResponseWriter, status int, typ, msg string) {
	embedWriteJSON(w, status, map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "param": nil, "code": nil,
	}})
}

func TestOpenAIEmbedderEmbed(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 20) // 40 bytes
	tests := []struct {
		name     string
		opt      EmbedderOptions
		texts    []string
		wantSent [][]string // inputs per request
		wantDim  int
		noKey    bool
		reverse  bool // the fake answers data in reverse order
	}{
		{
			name:     "batches of BatchSize in order",
			opt:      EmbedderOptions{BatchSize: 3},
			texts:    []string{"one", "two", "three", "four", "five", "six", "seven"},
			wantSent: [][]string{{"one", "two", "three"}, {"four", "five", "six"}, {"seven"}},
			wantDim:  embedTestDim,
		},
		{
			name:     "long texts truncated at a rune boundary",
			opt:      EmbedderOptions{MaxInputBytes: 9},
			texts:    []string{long, "short"},
			wantSent: [][]string{{strings.Repeat("é", 4), "short"}},
			wantDim:  embedTestDim,
		},
		{
			name:     "dimensions parameter",
			opt:      EmbedderOptions{Dimensions: 16},
			texts:    []string{"alpha beta"},
			wantSent: [][]string{{"alpha beta"}},
			wantDim:  16,
		},
		{
			name:     "no key, no authorization header",
			texts:    []string{"alpha"},
			wantSent: [][]string{{"alpha"}},
			wantDim:  embedTestDim,
			noKey:    true,
		},
		{
			name:     "data placed by index",
			texts:    []string{"alpha", "beta gamma", "delta"},
			wantSent: [][]string{{"alpha", "beta gamma", "delta"}},
			wantDim:  embedTestDim,
			reverse:  true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newEmbedServer(t)
			if tt.noKey {
				s.key = ""
			}
			if tt.reverse {
				s.respond = func(w http.ResponseWriter, _ *http.Request, _ int, req embedRequest) bool {
					resp := embedResponse{Object: "list", Model: req.Model}
					for i := len(req.Input) - 1; i >= 0; i-- {
						resp.Data = append(resp.Data, embedDatum{Object: "embedding", Index: i, Embedding: embedTestVector(req.Input[i], s.dim)})
					}
					embedWriteJSON(w, http.StatusOK, resp)
					return true
				}
			}
			e := s.embedder(t, tt.opt) // with s.key, "" when noKey
			got, err := e.Embed(t.Context(), tt.texts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantSent, s.inputs); diff != "" {
				t.Errorf("inputs sent (-want +got):\n%s", diff)
			}
			var want [][]float32
			for _, batch := range tt.wantSent {
				for _, text := range batch {
					want = append(want, embedTestVector(text, tt.wantDim))
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("vectors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOpenAIEmbedderBatchBytes(t *testing.T) {
	t.Parallel()
	s := newEmbedServer(t)
	e := s.embedder(t, EmbedderOptions{BatchSize: 100})
	text := strings.Repeat("word ", 1600) // 8000 bytes
	texts := make([]string, 40)           // 320,000 bytes: more than one request may carry
	for i := range texts {
		texts[i] = fmt.Sprintf("%d %s", i, text)
	}
	got, err := e.Embed(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(texts) {
		t.Fatalf("got %d vectors for %d texts", len(got), len(texts))
	}
	for i, in := range s.inputs {
		size := 0
		for _, x := range in {
			size += len(x)
		}
		if size > embedMaxRequestBytes {
			t.Errorf("request %d carries %d bytes, more than %d", i+1, size, embedMaxRequestBytes)
		}
	}
	if requests, sent := s.stats(); requests != 2 || sent != len(texts) {
		t.Errorf("%d requests with %d texts, want 2 with %d", requests, sent, len(texts))
	}
}

// embedErrorCase is a misbehaving endpoint and what Embed must report.
type embedErrorCase struct {
	name      string
	opt       EmbedderOptions
	texts     []string
	respond   func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) bool
	wantCalls int
	wantIn    []string // substrings of the error
	wantIs    error
}

func TestOpenAIEmbedderErrors(t *testing.T) {
	t.Parallel()
	status := func(code int, header ...string) func(http.ResponseWriter, *http.Request, int, embedRequest) bool {
		return func(w http.ResponseWriter, _ *http.Request, _ int, _ embedRequest) bool {
			for i := 0; i+1 < len(header); i += 2 {
				w.Header().Set(header[i], header[i+1])
			}
			embedWriteError(w, code, "error", http.StatusText(code))
			return true
		}
	}
	body := func(contentType, text string) func(http.ResponseWriter, *http.Request, int, embedRequest) bool {
		return func(w http.ResponseWriter, _ *http.Request, _ int, _ embedRequest) bool {
			w.Header().Set("Content-Type", contentType)
			_, _ = io.WriteString(w, text)
			return true
		}
	}
	// data answers with the given embeddings, raw JSON values by index.
	data := func(items ...string) func(http.ResponseWriter, *http.Request, int, embedRequest) bool {
		return func(w http.ResponseWriter, _ *http.Request, _ int, req embedRequest) bool {
			var parts []string
			for _, it := range items {
				parts = append(parts, `{"object":"embedding",`+it+`}`)
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"object":"list","data":[%s],"model":%q,"usage":{"prompt_tokens":1,"total_tokens":1}}`, strings.Join(parts, ","), req.Model)
			return true
		}
	}
	two := []string{"alpha", "beta"}
	tests := []embedErrorCase{
		{
			name: "timeout",
			opt:  EmbedderOptions{Timeout: 100 * time.Millisecond},
			respond: func(w http.ResponseWriter, r *http.Request, _ int, _ embedRequest) bool {
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
				return true
			},
			wantCalls: 1,
			wantIs:    context.DeadlineExceeded,
		},
		{
			name:      "429 forever",
			respond:   status(http.StatusTooManyRequests, "Retry-After", "0"),
			wantCalls: 3,
			wantIn:    []string{"429"},
		},
		{
			name:      "503 forever, one retry",
			opt:       EmbedderOptions{MaxRetries: 1},
			respond:   status(http.StatusServiceUnavailable, "Retry-After", "0"),
			wantCalls: 2,
			wantIn:    []string{"503"},
		},
		{
			name:      "429, retries disabled",
			opt:       EmbedderOptions{MaxRetries: -1},
			respond:   status(http.StatusTooManyRequests, "Retry-After", "0"),
			wantCalls: 1,
			wantIn:    []string{"429"},
		},
		{
			name:      "401 not retried",
			respond:   status(http.StatusUnauthorized),
			wantCalls: 1,
			wantIn:    []string{"401"},
		},
		{
			name:      "wrong dimension within a response",
			texts:     two,
			respond:   data(`"index":0,"embedding":[1,2,3,4,5,6,7,8]`, `"index":1,"embedding":[1,2,3]`),
			wantCalls: 1,
			wantIn:    []string{"embeddings endpoint returned vectors of dimension 3 for model fake-embed, want 8"},
		},
		{
			name:  "wrong dimension across batches",
			opt:   EmbedderOptions{BatchSize: 1},
			texts: two,
			respond: func(w http.ResponseWriter, r *http.Request, n int, req embedRequest) bool {
				if n == 1 {
					return data(`"index":0,"embedding":[1,2,3,4]`)(w, r, n, req)
				}
				return data(`"index":0,"embedding":[1,2,3]`)(w, r, n, req)
			},
			wantCalls: 2,
			wantIn:    []string{"embeddings endpoint returned vectors of dimension 3 for model fake-embed, want 4"},
		},
		{
			name:      "dimension other than asked",
			opt:       EmbedderOptions{Dimensions: 4},
			respond:   data(`"index":0,"embedding":[1,2,3]`),
			wantCalls: 1,
			wantIn:    []string{"embeddings endpoint returned vectors of dimension 3 for model fake-embed, want 4"},
		},
		{
			name:      "garbage JSON",
			respond:   body("application/json", `{"object":"list","data":[{"obj`),
			wantCalls: 1,
			wantIn:    []string{`malformed response (status 200, content type "application/json")`},
		},
		{
			name:      "HTML page",
			respond:   body("text/html", "<html>gateway</html>"),
			wantCalls: 1,
			wantIn:    []string{`malformed response (status 200, content type "text/html")`},
		},
		{
			name:      "no data",
			respond:   body("application/json", `{"object":"list","model":"fake-embed"}`),
			wantCalls: 1,
			wantIn:    []string{"no data"},
		},
		{
			name:      "too few embeddings",
			texts:     two,
			respond:   data(`"index":0,"embedding":[1,2]`),
			wantCalls: 1,
			wantIn:    []string{"1 embeddings for 2 inputs"},
		},
		{
			name:      "repeated index",
			texts:     two,
			respond:   data(`"index":0,"embedding":[1,2]`, `"index":0,"embedding":[1,2]`),
			wantCalls: 1,
			wantIn:    []string{"repeated index"},
		},
		{
			name:      "index out of range",
			respond:   data(`"index":3,"embedding":[1,2]`),
			wantCalls: 1,
			wantIn:    []string{"out-of-range"},
		},
		{
			name:      "embedding not numbers",
			respond:   data(`"index":0,"embedding":"AAAA"`),
			wantCalls: 1,
			wantIn:    []string{"not a non-empty array of numbers"},
		},
		{
			name:      "empty embedding",
			respond:   data(`"index":0,"embedding":[]`),
			wantCalls: 1,
			wantIn:    []string{"not a non-empty array of numbers"},
		},
		{
			name:      "empty text",
			texts:     []string{"alpha", ""},
			wantCalls: 0,
			wantIn:    []string{"text 1 is empty"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newEmbedServer(t)
			s.respond = tt.respond
			e := s.embedder(t, tt.opt)
			texts := tt.texts
			if texts == nil {
				texts = []string{"alpha"}
			}
			got, err := e.Embed(t.Context(), texts)
			if err == nil {
				t.Fatalf("Embed = %d vectors, want an error", len(got))
			}
			msg := err.Error()
			for _, want := range append([]string{"fake-embed", s.url()}, tt.wantIn...) {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not contain %q", msg, want)
				}
			}
			if strings.Contains(msg, embedTestKey) {
				t.Errorf("error %q contains the API key", msg)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v is not %v", err, tt.wantIs)
			}
			if calls, _ := s.stats(); calls != tt.wantCalls {
				t.Errorf("%d requests, want %d", calls, tt.wantCalls)
			}
		})
	}
}

func TestOpenAIEmbedderRetryAfter(t *testing.T) {
	t.Parallel()
	s := newEmbedServer(t)
	s.respond = func(w http.ResponseWriter, _ *http.Request, n int, _ embedRequest) bool {
		if n > 1 {
			return false
		}
		// One second is longer than openai-go's first backoff (at most
		// 0.5 s), so the elapsed time shows the header was honoured.
		w.Header().Set("Retry-After", "1")
		embedWriteError(w, http.StatusTooManyRequests, "requests", "Rate limit reached")
		return true
	}
	e := s.embedder(t, EmbedderOptions{})
	start := time.Now()
	got, err := e.Embed(t.Context(), []string{"alpha beta"})
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed < time.Second {
		t.Errorf("retried after %v, want at least the Retry-After of 1s", elapsed)
	}
	if diff := cmp.Diff([][]float32{embedTestVector("alpha beta", embedTestDim)}, got); diff != "" {
		t.Errorf("vectors (-want +got):\n%s", diff)
	}
	if calls, _ := s.stats(); calls != 2 {
		t.Errorf("%d requests, want 2", calls)
	}
}

func TestNewOpenAIEmbedder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		opt          EmbedderOptions
		wantErr      string
		wantModel    string
		wantEndpoint string
	}{
		{name: "defaults", wantModel: "text-embedding-3-small", wantEndpoint: "https://api.openai.com/v1/"},
		{
			name:         "user info and query dropped from the endpoint",
			opt:          EmbedderOptions{BaseURL: "http://user:hunter2@localhost:8080/v1?token=hunter2", Model: "m"},
			wantModel:    "m",
			wantEndpoint: "http://localhost:8080/v1",
		},
		{name: "not absolute", opt: EmbedderOptions{BaseURL: "localhost:8080/v1"}, wantErr: "not an absolute http or https URL"},
		{name: "not a URL", opt: EmbedderOptions{BaseURL: "http://a b:hunter2@x/%zz"}, wantErr: "not a valid URL"},
		{name: "other scheme", opt: EmbedderOptions{BaseURL: "ftp://host/v1"}, wantErr: "not an absolute http or https URL"},
		{name: "batch too large", opt: EmbedderOptions{BatchSize: 2049}, wantErr: "BatchSize 2049 out of range"},
		{name: "negative batch", opt: EmbedderOptions{BatchSize: -1}, wantErr: "BatchSize -1 out of range"},
		{name: "negative dimensions", opt: EmbedderOptions{Dimensions: -5}, wantErr: "Dimensions -5 is negative"},
		{name: "negative input bytes", opt: EmbedderOptions{MaxInputBytes: -1}, wantErr: "MaxInputBytes -1 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.opt.APIKey = embedTestKey
			e, err := NewOpenAIEmbedder(tt.opt)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), embedTestKey) {
					t.Errorf("error %q contains a secret", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e.Model() != tt.wantModel || e.Endpoint() != tt.wantEndpoint {
				t.Errorf("model %q endpoint %q, want %q %q", e.Model(), e.Endpoint(), tt.wantModel, tt.wantEndpoint)
			}
		})
	}
}

func TestEmbedderOptionsHideKey(t *testing.T) {
	t.Parallel()
	opt := EmbedderOptions{APIKey: embedTestKey, Model: "m"}
	var log strings.Builder
	slog.New(slog.NewTextHandler(&log, nil)).Info("embedder", "options", opt)
	for _, s := range []string{fmt.Sprint(opt), fmt.Sprintf("%+v", opt), log.String()} {
		if strings.Contains(s, embedTestKey) {
			t.Errorf("%q shows the API key", s)
		}
		if !strings.Contains(s, "APIKey: set") {
			t.Errorf("%q does not say the key is set", s)
		}
	}
}

func TestEmbedTruncate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello", 3, "hel"},
		{"héllo", 2, "h"},
		{"héllo", 3, "hé"},
		{"€uro", 1, "€"}, // shorter than the first rune: that rune
	}
	for _, tt := range tests {
		if got := embedTruncate(tt.in, tt.n); got != tt.want {
			t.Errorf("embedTruncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestEmbedTestVectorOverlap(t *testing.T) {
	t.Parallel()
	// The fake model must rank texts sharing words above unrelated ones,
	// or the dense tests would prove nothing.
	cos := func(a, b string) float64 {
		x, y := embedTestVector(a, embedTestDim), embedTestVector(b, embedTestDim)
		var dot, nx, ny float64
		for i := range x {
			dot += float64(x[i]) * float64(y[i])
			nx += float64(x[i]) * float64(x[i])
			ny += float64(y[i]) * float64(y[i])
		}
		return dot / math.Sqrt(nx*ny)
	}
	near := cos("purge expired cache entries", "the sweeper removes expired entries from the cache")
	far := cos("purge expired cache entries", "load the YAML configuration file")
	if near <= far {
		t.Errorf("cosine of overlapping texts %.3f <= unrelated %.3f", near, far)
	}
}
