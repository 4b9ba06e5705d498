package roundtrip

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
)

// Defaults of [Endpoint].
const (
	// DefaultBaseURL is OpenAI's API.
	DefaultBaseURL = "https://api.openai.com/v1/"
	// DefaultCallTimeout bounds one request: a whole file is a long
	// answer.
	DefaultCallTimeout = 5 * time.Minute
	// DefaultMaxRetries is how often a failed request is retried.
	DefaultMaxRetries = 3
)

// Endpoint is the chat model and how to reach it. Model is required;
// every other zero value means the default stated on the field. Nothing
// is read from the environment.
type Endpoint struct {
	// Model is the chat model's name ("gpt-4.1-mini"); required.
	Model string
	// BaseURL is the OpenAI-compatible endpoint, up to and including the
	// version segment ("http://localhost:11434/v1"); "" means
	// [DefaultBaseURL]. It must be an absolute http or https URL.
	BaseURL string
	// APIKey is sent as a bearer token; "" sends no Authorization header
	// (local servers).
	APIKey string
	// HTTPClient makes the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// CallTimeout bounds each request; a request that exceeds it is not
	// retried; 0 means [DefaultCallTimeout] (5 minutes).
	CallTimeout time.Duration
	// MaxRetries is how often a request is retried after a 408, 409, 429
	// or 5xx answer or a connection error, with jittered exponential
	// backoff (0.5 s doubling up to 8 s) or the server's Retry-After of at
	// most a minute; 0 means 3, a negative value none.
	MaxRetries int
}

// client calls the chat completions endpoint.
type client struct {
	ep      Endpoint
	chat    openai.ChatCompletionService
	retries int
	prompts prompts
}

// newClient checks ep and builds its client.
func newClient(ep Endpoint) (*client, error) {
	if strings.TrimSpace(ep.Model) == "" {
		return nil, errors.New("roundtrip: no model configured")
	}
	if ep.BaseURL == "" {
		ep.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(ep.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("roundtrip: bad base URL %q: want an absolute http or https URL such as %s", ep.BaseURL, DefaultBaseURL)
	}
	if ep.CallTimeout <= 0 {
		ep.CallTimeout = DefaultCallTimeout
	}
	c := &client{ep: ep, retries: ep.MaxRetries}
	switch {
	case ep.MaxRetries == 0:
		c.retries = DefaultMaxRetries
	case ep.MaxRetries < 0:
		c.retries = 0
	}
	hc := ep.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	// NewChatCompletionService, unlike openai.NewClient, reads nothing
	// from the environment; retries are this package's own.
	opts := []option.RequestOption{option.WithBaseURL(ep.BaseURL), option.WithHTTPClient(hc), option.WithMaxRetries(0)}
	if ep.APIKey != "" {
		opts = append(opts, option.WithAPIKey(ep.APIKey))
	}
	c.chat = openai.NewChatCompletionService(opts...)
	if c.prompts, err = loadPrompts(); err != nil {
		return nil, err
	}
	return c, nil
}

// usage counts the tokens of the calls made, from the API's usage.
type usage struct {
	prompt, completion int64
}

// complete sends the system and user messages, in json_object mode when
// jsonObject is set, and returns the answer's text. A refusal, an answer
// cut at the token limit or one without text is an error.
func (c *client) complete(ctx context.Context, system, user string, jsonObject bool, u *usage) (string, error) {
	params := openai.ChatCompletionNewParams{
		Model:    c.ep.Model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage(user)},
	}
	if jsonObject {
		params.ResponseFormat.OfJSONObject = &openai.ResponseFormatJSONObjectParam{}
	}
	comp, err := c.call(ctx, params)
	if err != nil {
		return "", err
	}
	u.prompt += comp.Usage.PromptTokens
	u.completion += comp.Usage.CompletionTokens
	if len(comp.Choices) == 0 {
		return "", errors.New("roundtrip: model answer has no choices")
	}
	ch := comp.Choices[0]
	switch {
	case ch.Message.Refusal != "":
		return "", fmt.Errorf("roundtrip: model refused: %s", clip(ch.Message.Refusal))
	case ch.FinishReason == "length":
		return "", fmt.Errorf("roundtrip: model answer cut at the token limit after %d completion tokens", comp.Usage.CompletionTokens)
	case strings.TrimSpace(ch.Message.Content) == "":
		return "", errors.New("roundtrip: model answer is empty")
	}
	return ch.Message.Content, nil
}

// maxErrText bounds the server text kept in an error.
const maxErrText = 300

// clip shortens s to maxErrText bytes.
func clip(s string) string {
	if len(s) > maxErrText {
		return s[:maxErrText] + "…"
	}
	return s
}

// call sends one request, retrying 408, 409, 429, 5xx and connection
// errors with backoff, each attempt bounded by CallTimeout.
func (c *client) call(ctx context.Context, params openai.ChatCompletionNewParams) (*openai.ChatCompletion, error) {
	for attempt := 0; ; attempt++ {
		cctx, cancel := context.WithTimeout(ctx, c.ep.CallTimeout)
		comp, err := c.chat.New(cctx, params)
		timedOut := cctx.Err() != nil
		cancel()
		if err == nil {
			return comp, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("roundtrip: model call: %w", ctx.Err())
		}
		if timedOut || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("roundtrip: model call timed out after %s", c.ep.CallTimeout)
		}
		var wait time.Duration
		var apiErr *openai.Error
		if errors.As(err, &apiErr) {
			if !retryable(apiErr.StatusCode) || attempt >= c.retries {
				text := apiErr.Message
				if text == "" {
					text = apiErr.RawJSON()
				}
				return nil, fmt.Errorf("roundtrip: model call: status %d: %s", apiErr.StatusCode, clip(text))
			}
			wait = retryAfter(apiErr.Response)
		} else if attempt >= c.retries {
			return nil, fmt.Errorf("roundtrip: model call: %w", err)
		}
		if wait <= 0 {
			wait = backoff(attempt)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("roundtrip: model call: %w", ctx.Err())
		case <-t.C:
		}
	}
}

// retryable reports whether a status is worth another attempt.
func retryable(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status >= http.StatusInternalServerError
}

// maxRetryAfter is the longest server-requested wait honoured as is.
const maxRetryAfter = time.Minute

// retryAfter reads Retry-After-Ms or Retry-After (seconds or an HTTP
// date); 0 when absent, unreadable or over a minute.
func retryAfter(res *http.Response) time.Duration {
	if res == nil {
		return 0
	}
	var d time.Duration
	if v := res.Header.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			d = time.Duration(ms * float64(time.Millisecond))
		}
	} else if v := res.Header.Get("Retry-After"); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil {
			d = time.Duration(s * float64(time.Second))
		} else if t, err := http.ParseTime(v); err == nil {
			d = time.Until(t)
		}
	}
	if d <= 0 || d > maxRetryAfter {
		return 0
	}
	return d
}

// backoff is the jittered exponential wait before retry attempt+1: 0.5 s
// doubling up to 8 s, less up to a quarter.
func backoff(attempt int) time.Duration {
	d := min(500*time.Millisecond<<min(attempt, 5), 8*time.Second)
	return d - time.Duration(rand.Int64N(int64(d/4)+1))
}

// ErrNoCode is returned (wrapped) when the model's answer does not hold
// exactly one complete ```go code block.
var ErrNoCode = errors.New("model answer does not hold exactly one ```go code block")

// extractCode returns the content of the answer's one fenced code block
// tagged go: the lines between a line that is "```go" and the next line
// that is "```" (each ignoring surrounding spaces). No such block, an
// unclosed one, more than one, or one holding only spaces is ErrNoCode.
func extractCode(answer string) (string, error) {
	lines := strings.Split(strings.ReplaceAll(answer, "\r\n", "\n"), "\n")
	var blocks []string
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		end := -1
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "```" {
				end = j
				break
			}
		}
		if end < 0 {
			return "", fmt.Errorf("roundtrip: %w: the block opened on line %d is not closed", ErrNoCode, i+1)
		}
		blocks = append(blocks, strings.Join(lines[i+1:end], "\n")+"\n")
		i = end
	}
	switch {
	case len(blocks) == 0:
		return "", fmt.Errorf("roundtrip: %w: it has none (answer begins %q)", ErrNoCode, clipRunes(answer, 80))
	case len(blocks) > 1:
		return "", fmt.Errorf("roundtrip: %w: it has %d", ErrNoCode, len(blocks))
	case strings.TrimSpace(blocks[0]) == "":
		return "", fmt.Errorf("roundtrip: %w: the block is empty", ErrNoCode)
	}
	return blocks[0], nil
}

// clipRunes returns the first n runes of s.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
