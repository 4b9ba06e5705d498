package retrieval

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"time"
	"unicode/utf8"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
)

// Embedder turns texts into vectors for the dense channel. [Dense]
// consumes it; [OpenAIEmbedder] implements it over an OpenAI-compatible
// embeddings endpoint.
type Embedder interface {
	// Embed returns one vector per text, in the order of texts, all of the
	// same dimension. It must be safe for concurrent use.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model names the embedding model. Vectors of different models are
	// never mixed: [OpenDense] keeps one file per model.
	Model() string
}

// Defaults of [EmbedderOptions].
const (
	// DefaultEmbeddingModel is the model used when EmbedderOptions.Model is
	// empty.
	DefaultEmbeddingModel = openai.EmbeddingModelTextEmbedding3Small
	// DefaultEmbeddingBaseURL is the endpoint used when
	// EmbedderOptions.BaseURL is empty.
	DefaultEmbeddingBaseURL = "https://api.openai.com/v1/"
	// DefaultEmbeddingTimeout bounds each request attempt when
	// EmbedderOptions.Timeout is zero.
	DefaultEmbeddingTimeout = 30 * time.Second
	// DefaultEmbeddingMaxRetries is the number of retries when
	// EmbedderOptions.MaxRetries is zero.
	DefaultEmbeddingMaxRetries = 2
	// DefaultEmbeddingBatchSize is the number of texts per request when
	// EmbedderOptions.BatchSize is zero.
	DefaultEmbeddingBatchSize = 64
	// DefaultEmbeddingMaxInputBytes is the length texts are truncated to
	// when EmbedderOptions.MaxInputBytes is zero.
	DefaultEmbeddingMaxInputBytes = 8000
)

// Limits of the OpenAI embeddings API.
const (
	// embedMaxBatch is the most inputs one request may carry.
	embedMaxBatch = 2048
	// embedMaxRequestBytes bounds the bytes of input per request. A token
	// is at least one byte, so this keeps a request under the API's
	// 300,000-token total whatever the text.
	embedMaxRequestBytes = 280_000
)

// Log attribute keys of the dense channel.
const (
	embedLogEndpoint = "endpoint"
	embedLogModel    = "model"
)

// EmbedderOptions configures [NewOpenAIEmbedder]. Its zero value asks
// OpenAI's endpoint for text-embedding-3-small without a key. Nothing is
// read from the environment: the caller passes the key and base URL.
type EmbedderOptions struct {
	// APIKey is sent as "Authorization: Bearer <APIKey>". Empty sends no
	// Authorization header (local OpenAI-compatible servers). It never
	// appears in errors, logs or [EmbedderOptions.String].
	APIKey string
	// BaseURL is the API root the "embeddings" path is appended to, such
	// as "http://localhost:11434/v1". Default [DefaultEmbeddingBaseURL].
	BaseURL string
	// Model is the embedding model. Default [DefaultEmbeddingModel].
	Model string
	// Dimensions, when positive, asks the model for vectors of that many
	// dimensions (text-embedding-3 and later) and makes any other
	// dimension an error. Zero sends nothing and takes the model's native
	// dimension.
	Dimensions int
	// HTTPClient sends the requests. Default [http.DefaultClient].
	HTTPClient *http.Client
	// Timeout bounds each request attempt. Zero means
	// [DefaultEmbeddingTimeout]; negative means no per-attempt timeout (a
	// deadline on the context still applies). A timed-out attempt is not
	// retried.
	Timeout time.Duration
	// MaxRetries is how often a request is retried after a connection
	// error, 408, 409, 429 or 5xx response, honouring Retry-After and
	// Retry-After-Ms below a minute and else backing off exponentially
	// from 0.5 s to 8 s. Zero means [DefaultEmbeddingMaxRetries]; negative
	// disables retries.
	MaxRetries int
	// BatchSize is the most texts sent in one request. Zero means
	// [DefaultEmbeddingBatchSize]; at most 2048. A batch is also cut when
	// its texts reach about 280 KB, so it stays under the API's limit of
	// 300,000 tokens per request.
	BatchSize int
	// MaxInputBytes is the length, in bytes, each text is truncated to (at
	// a UTF-8 boundary) before it is sent. Zero means
	// [DefaultEmbeddingMaxInputBytes], which keeps any text under the
	// API's limit of 8,192 tokens per input.
	MaxInputBytes int
}

// String describes the options for humans and logs, without the API key.
func (o EmbedderOptions) String() string {
	key := "none"
	if o.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("EmbedderOptions{BaseURL: %q, Model: %q, Dimensions: %d, Timeout: %v, MaxRetries: %d, BatchSize: %d, MaxInputBytes: %d, APIKey: %s}",
		o.BaseURL, o.Model, o.Dimensions, o.Timeout, o.MaxRetries, o.BatchSize, o.MaxInputBytes, key)
}

// LogValue makes slog log the options as [EmbedderOptions.String] does,
// without the API key.
func (o EmbedderOptions) LogValue() slog.Value {
	return slog.StringValue(o.String())
}

// OpenAIEmbedder is an [Embedder] over an OpenAI-compatible embeddings
// endpoint (POST {BaseURL}/embeddings), with openai-go. It batches texts,
// truncates long ones, retries rate limits and server errors, and checks
// that every vector has the same dimension. It is safe for concurrent use.
type OpenAIEmbedder struct {
	svc           openai.EmbeddingService
	endpoint      string // BaseURL for errors and logs: no user info, no query
	model         string
	dimensions    int
	batchSize     int
	maxInputBytes int
}

var _ Embedder = (*OpenAIEmbedder)(nil)

// NewOpenAIEmbedder returns an embedder configured by opt; see
// [EmbedderOptions] for the defaults. It sends no request. It returns an
// error if BaseURL is not an absolute http or https URL, or if BatchSize,
// Dimensions or MaxInputBytes is negative or BatchSize exceeds 2048.
func NewOpenAIEmbedder(opt EmbedderOptions) (*OpenAIEmbedder, error) {
	if opt.Model == "" {
		opt.Model = DefaultEmbeddingModel
	}
	if opt.BaseURL == "" {
		opt.BaseURL = DefaultEmbeddingBaseURL
	}
	u, err := url.Parse(opt.BaseURL)
	if err != nil {
		// url.Parse quotes the input; it may carry credentials.
		return nil, errors.New("embedder: BaseURL is not a valid URL")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("embedder: BaseURL %s is not an absolute http or https URL", embedRedact(u))
	}
	switch {
	case opt.BatchSize < 0 || opt.BatchSize > embedMaxBatch:
		return nil, fmt.Errorf("embedder: BatchSize %d out of range 0..%d", opt.BatchSize, embedMaxBatch)
	case opt.Dimensions < 0:
		return nil, fmt.Errorf("embedder: Dimensions %d is negative", opt.Dimensions)
	case opt.MaxInputBytes < 0:
		return nil, fmt.Errorf("embedder: MaxInputBytes %d is negative", opt.MaxInputBytes)
	}
	if opt.BatchSize == 0 {
		opt.BatchSize = DefaultEmbeddingBatchSize
	}
	if opt.MaxInputBytes == 0 {
		opt.MaxInputBytes = DefaultEmbeddingMaxInputBytes
	}
	switch {
	case opt.MaxRetries == 0:
		opt.MaxRetries = DefaultEmbeddingMaxRetries
	case opt.MaxRetries < 0:
		opt.MaxRetries = 0
	}
	switch {
	case opt.Timeout == 0:
		opt.Timeout = DefaultEmbeddingTimeout
	case opt.Timeout < 0:
		opt.Timeout = 0 // openai-go: no per-attempt timeout
	}

	// openai.NewClient would also read OPENAI_* environment variables;
	// the service alone reads nothing the caller did not pass.
	opts := []option.RequestOption{
		option.WithBaseURL(opt.BaseURL),
		option.WithMaxRetries(opt.MaxRetries),
		option.WithRequestTimeout(opt.Timeout),
	}
	if opt.APIKey != "" {
		opts = append(opts, option.WithAPIKey(opt.APIKey))
	}
	if opt.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(opt.HTTPClient))
	}
	return &OpenAIEmbedder{
		svc:           openai.NewEmbeddingService(opts...),
		endpoint:      embedRedact(u),
		model:         opt.Model,
		dimensions:    opt.Dimensions,
		batchSize:     opt.BatchSize,
		maxInputBytes: opt.MaxInputBytes,
	}, nil
}

// Model returns the embedding model's name.
func (e *OpenAIEmbedder) Model() string { return e.model }

// Endpoint returns the base URL requests go to, without user info or
// query, for logs and messages.
func (e *OpenAIEmbedder) Endpoint() string { return e.endpoint }

// Dimensions returns the dimension asked of the model, or 0 when the
// model's native dimension is used. [OpenDense] uses it to tell a vector
// file of another dimension from a misbehaving endpoint.
func (e *OpenAIEmbedder) Dimensions() int { return e.dimensions }

// Embed returns the vectors of texts, in order, converted to float32 (not
// normalised). Texts are truncated to MaxInputBytes and sent in batches of
// at most BatchSize, one request after the other. It returns an error,
// naming the endpoint and model, if a text is empty, a request fails after
// its retries or times out, or a response is malformed: not JSON, not one
// vector per input, empty, non-finite, or of a dimension other than the
// first vector's (or than Dimensions, when set).
func (e *OpenAIEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	for i, t := range texts {
		if t == "" {
			return nil, fmt.Errorf("embed with model %s at %s: text %d is empty", e.model, e.endpoint, i)
		}
	}
	out := make([][]float32, 0, len(texts))
	want := e.dimensions
	for start := 0; start < len(texts); {
		end, size := start, 0
		batch := make([]string, 0, min(e.batchSize, len(texts)-start))
		for end < len(texts) && len(batch) < e.batchSize {
			t := embedTruncate(texts[end], e.maxInputBytes)
			if len(batch) > 0 && size+len(t) > embedMaxRequestBytes {
				break
			}
			batch = append(batch, t)
			size += len(t)
			end++
		}
		vecs, err := e.embedBatch(ctx, batch, want)
		if err != nil {
			return nil, fmt.Errorf("embed texts %d..%d of %d with model %s at %s: %w", start, end-1, len(texts), e.model, e.endpoint, err)
		}
		if want == 0 && len(vecs) > 0 {
			want = len(vecs[0])
		}
		out = append(out, vecs...)
		start = end
	}
	return out, nil
}

// embedBatch sends one request. want is the expected dimension, 0 if not
// yet known.
func (e *OpenAIEmbedder) embedBatch(ctx context.Context, batch []string, want int) ([][]float32, error) {
	params := openai.EmbeddingNewParams{
		Model:          e.model,
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: batch},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	}
	if e.dimensions > 0 {
		params.Dimensions = openai.Int(int64(e.dimensions))
	}
	var raw *http.Response
	resp, err := e.svc.New(ctx, params, option.WithResponseInto(&raw))
	if err != nil {
		var apiErr *openai.Error
		if !errors.As(err, &apiErr) && raw != nil && raw.StatusCode < 300 {
			// The request went through but openai-go could not decode
			// the answer: say what came back.
			return nil, fmt.Errorf("malformed response (status %d, content type %q): %w", raw.StatusCode, raw.Header.Get("Content-Type"), err)
		}
		return nil, err
	}
	if resp == nil || !resp.JSON.Data.Valid() {
		return nil, errors.New("response has no data array")
	}
	if len(resp.Data) != len(batch) {
		return nil, fmt.Errorf("response has %d embeddings for %d inputs", len(resp.Data), len(batch))
	}
	vecs := make([][]float32, len(batch))
	for i, d := range resp.Data {
		if !d.JSON.Index.Valid() || d.Index < 0 || d.Index >= int64(len(batch)) || vecs[d.Index] != nil {
			return nil, fmt.Errorf("response embedding %d has a missing, out-of-range or repeated index %s", i, d.JSON.Index.Raw())
		}
		if !d.JSON.Embedding.Valid() || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("response embedding %d is not a non-empty array of numbers", d.Index)
		}
		if want == 0 {
			want = len(d.Embedding)
		}
		if len(d.Embedding) != want {
			return nil, embedDimError(e.model, len(d.Embedding), want)
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			f := float32(x)
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				return nil, fmt.Errorf("response embedding %d has a non-finite value at %d", d.Index, j)
			}
			v[j] = f
		}
		vecs[d.Index] = v
	}
	return vecs, nil
}

// embedDimError is the error for a vector of dimension got where want was
// expected.
func embedDimError(model string, got, want int) error {
	return fmt.Errorf("embeddings endpoint returned vectors of dimension %d for model %s, want %d", got, model, want)
}

// embedTruncate cuts s to at most n bytes at a UTF-8 boundary.
func embedTruncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	if i == 0 { // n is shorter than the first rune: keep that rune
		_, i = utf8.DecodeRuneInString(s)
	}
	return s[:i]
}

// embedRedact renders u without user info, query or fragment.
func embedRedact(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery, c.ForceQuery = "", false
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}
