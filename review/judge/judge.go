package judge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sourcegraph/conc/pool"

	"github.com/docreview/docreview/review"
)

// Mode selects which API features the judge uses.
type Mode string

// The modes. A tool loop lets the model search, read and look up symbols;
// one-shot judging gives it a fixed set of pre-retrieved evidence instead.
// The json_schema response format constrains the answer to the verdict
// schema; json_object only to JSON, which the judge then validates as
// strictly.
//
//	mode         tools   response format
//	auto         yes     json_schema, falling back (see ModeAuto)
//	tools        yes     json_schema
//	json-object  yes     json_object
//	json-schema  no      json_schema
//	oneshot      no      json_object
const (
	// ModeAuto starts with tools and json_schema. When the server answers
	// 400 with a message naming json_schema or response_format, it
	// switches to json_object; when the message names tools (or
	// functions), it switches to one-shot judging. A switch holds for the
	// rest of the review.
	ModeAuto       Mode = "auto"
	ModeTools      Mode = "tools"
	ModeJSONObject Mode = "json-object"
	ModeJSONSchema Mode = "json-schema"
	ModeOneShot    Mode = "oneshot"
)

// Defaults of [Options].
const (
	DefaultConcurrency         = 4
	DefaultMaxToolCalls        = 6
	DefaultMaxClaimInputTokens = 12000
	DefaultReviewTokenBudget   = 300000
	DefaultCallTimeout         = 60 * time.Second
	DefaultMaxRetries          = 3
	// DefaultBaseURL is OpenAI's API.
	DefaultBaseURL = "https://api.openai.com/v1/"
)

// Options configures a [Judge]. Model is required; every other zero value
// means the default stated on the field. Nothing is read from the
// environment.
type Options struct {
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
	// Mode selects tools and response format; "" means [ModeAuto].
	Mode Mode
	// Concurrency is how many conversations run at once; 0 means 4.
	Concurrency int
	// MaxToolCalls is the number of tool calls answered per claim; 0 means
	// 6. Then the model is asked for its verdict with tool_choice "none".
	MaxToolCalls int
	// MaxClaimInputTokens bounds the prompt tokens (from the API's usage)
	// spent on one claim: once reached, the model is asked for its verdict
	// in one last call; 0 means 12000.
	MaxClaimInputTokens int
	// ReviewTokenBudget bounds the prompt plus completion tokens of one
	// [Judge.JudgeClaims] call: claims not started when it is spent are
	// skipped with reason "budget"; 0 means 300000.
	ReviewTokenBudget int
	// CallTimeout bounds each request; a request that exceeds it is not
	// retried and its claim is skipped with reason "timeout"; 0 means 60s.
	CallTimeout time.Duration
	// MaxRetries is how often a request is retried after a 408, 409, 429
	// or 5xx answer or a connection error, with jittered exponential
	// backoff (0.5 s doubling up to 8 s) or the server's Retry-After; 0
	// means 3, a negative value none.
	MaxRetries int
	// CacheDir holds cached verdicts; "" means no cache.
	CacheDir string
	// Logger receives progress and diagnostics; nil discards them.
	Logger *slog.Logger
}

// Judge is the language-model judge; it implements [review.ModelJudge].
// Its methods are safe for concurrent use.
type Judge struct {
	opt        Options
	chat       openai.ChatCompletionService
	prompts    prompts
	single     *jsonschema.Schema
	entry      *jsonschema.Schema
	maxRetries int
	log        *slog.Logger
}

var _ review.ModelJudge = (*Judge)(nil)

// New checks opt and returns a judge. Zero fields of opt take their
// defaults: DefaultBaseURL, DefaultConcurrency, DefaultMaxToolCalls,
// DefaultMaxClaimInputTokens, DefaultReviewTokenBudget, DefaultCallTimeout
// and DefaultMaxRetries. It fails when Model is empty, the base URL is not
// an absolute http(s) URL, or Mode is unknown.
func New(opt Options) (*Judge, error) {
	if strings.TrimSpace(opt.Model) == "" {
		return nil, errors.New("llm judge: no model configured")
	}
	if opt.BaseURL == "" {
		opt.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(opt.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("llm judge: bad base URL %q: want an absolute http or https URL such as %s", opt.BaseURL, DefaultBaseURL)
	}
	switch opt.Mode {
	case "":
		opt.Mode = ModeAuto
	case ModeAuto, ModeTools, ModeJSONObject, ModeJSONSchema, ModeOneShot:
	default:
		return nil, fmt.Errorf("llm judge: unknown mode %q (want auto, tools, json-schema, json-object or oneshot)", opt.Mode)
	}
	if opt.Concurrency <= 0 {
		opt.Concurrency = DefaultConcurrency
	}
	if opt.MaxToolCalls <= 0 {
		opt.MaxToolCalls = DefaultMaxToolCalls
	}
	if opt.MaxClaimInputTokens <= 0 {
		opt.MaxClaimInputTokens = DefaultMaxClaimInputTokens
	}
	if opt.ReviewTokenBudget <= 0 {
		opt.ReviewTokenBudget = DefaultReviewTokenBudget
	}
	if opt.CallTimeout <= 0 {
		opt.CallTimeout = DefaultCallTimeout
	}
	j := &Judge{opt: opt, log: opt.Logger, maxRetries: opt.MaxRetries}
	switch {
	case opt.MaxRetries == 0:
		j.maxRetries = DefaultMaxRetries
	case opt.MaxRetries < 0:
		j.maxRetries = 0
	}
	if j.log == nil {
		j.log = slog.New(slog.DiscardHandler)
	}
	hc := opt.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	// NewChatCompletionService, unlike openai.NewClient, reads nothing from
	// the environment; retries are the judge's own (counted, ctx-aware).
	opts := []option.RequestOption{option.WithBaseURL(opt.BaseURL), option.WithHTTPClient(hc), option.WithMaxRetries(0)}
	if opt.APIKey != "" {
		// Without a key (a local server) no Authorization header is
		// sent at all, rather than a malformed "Bearer ".
		opts = append(opts, option.WithAPIKey(opt.APIKey))
	}
	j.chat = openai.NewChatCompletionService(opts...)
	if j.prompts, err = loadPrompts(); err != nil {
		return nil, err
	}
	if j.single, j.entry, err = compileSchemas(); err != nil {
		return nil, err
	}
	return j, nil
}

// Name returns "llm", the rule name of the judge's verdicts.
func (j *Judge) Name() string { return "llm" }

// Log attribute keys.
const (
	logClaimID = "claim_id"
	logStage   = "stage"
	logErr     = "err"
)

// Skip reasons.
const (
	skipBudget   = "budget"
	skipTimeout  = "timeout"
	skipCanceled = "canceled"
	skipNoEvid   = "no evidence"
)

// run is the state of one JudgeClaims call: the features the server
// accepts, the tokens spent and the statistics.
type run struct {
	j  *Judge
	ws *review.Workspace
	// noTools and noSchema record a fallback for the rest of the review.
	noTools, noSchema atomic.Bool
	used              atomic.Int64
	heads             *heads

	mu sync.Mutex
	st review.ModelStats
}

// JudgeClaims judges items and returns one outcome per item, in order,
// and the run's statistics; see [review.ModelJudge]. Items answered from
// the cache cost no call; the others are judged in conversations of one
// claim, or of two to four small doc comments of one file, at most
// Options.Concurrency at a time.
func (j *Judge) JudgeClaims(ctx context.Context, ws *review.Workspace, items []review.ModelItem) ([]review.ModelOutcome, review.ModelStats) {
	r := &run{j: j, ws: ws, heads: newHeads(ws)}
	switch j.opt.Mode {
	case ModeJSONObject:
		r.noSchema.Store(true)
	case ModeJSONSchema:
		r.noTools.Store(true)
	case ModeOneShot:
		r.noTools.Store(true)
		r.noSchema.Store(true)
	}
	outs := make([]review.ModelOutcome, len(items))
	r.st = review.ModelStats{Model: j.opt.Model, Claims: len(items), ClaimMillis: make([]int64, len(items))}

	cache := j.cache()
	var pending []int
	for i, it := range items {
		if out, ok := cache.get(r.heads, it); ok {
			outs[i] = out
			r.st.CacheHits++
			j.log.Debug("verdict from cache", logClaimID, it.Claim.ID, logStage, "model")
			continue
		}
		pending = append(pending, i)
	}
	p := pool.New().WithMaxGoroutines(j.opt.Concurrency)
	for _, u := range groupUnits(items, pending) {
		p.Go(func() { r.judgeUnit(ctx, items, u, outs, cache) })
	}
	p.Wait()

	for _, o := range outs {
		switch {
		case o.Skipped != "":
			r.st.Skipped++
		default:
			r.st.Judged++
		}
		if o.Dropped != "" {
			if r.st.Dropped == nil {
				r.st.Dropped = map[string]int{}
			}
			r.st.Dropped[o.Dropped]++
		}
	}
	return outs, r.st
}

// judgeUnit judges the items at idx in one conversation and stores their
// outcomes; it never panics.
func (r *run) judgeUnit(ctx context.Context, items []review.ModelItem, idx []int, outs []review.ModelOutcome, cache *cache) {
	defer func() {
		if v := recover(); v != nil {
			r.j.log.Error("llm judge: internal error", logClaimID, items[idx[0]].Claim.ID, logErr, v)
			for _, i := range idx {
				outs[i] = review.ModelOutcome{Skipped: fmt.Sprintf("model error: internal: %v", v)}
			}
		}
	}()
	skipAll := func(reason string) {
		for _, i := range idx {
			outs[i] = review.ModelOutcome{Skipped: reason}
		}
	}
	if err := ctx.Err(); err != nil {
		skipAll(ctxReason(err))
		return
	}
	if r.used.Load() >= int64(r.j.opt.ReviewTokenBudget) {
		skipAll(skipBudget)
		return
	}
	unit := make([]review.ModelItem, len(idx))
	for k, i := range idx {
		unit[k] = items[i]
	}
	start := time.Now()
	res := r.converse(ctx, unit)
	ms := time.Since(start).Milliseconds() / int64(len(idx))
	r.mu.Lock()
	for _, i := range idx {
		r.st.ClaimMillis[i] = ms
	}
	r.mu.Unlock()
	for k, i := range idx {
		outs[i] = res.outs[k]
		if res.cacheable[k] {
			cache.put(r.heads, items[i], res.outs[k], res.seen)
		}
		o := res.outs[k]
		r.j.log.Debug("claim judged", logClaimID, items[i].Claim.ID, logStage, "model",
			"kept", o.Verdict != nil, "refuted", o.Refuted, "skipped", o.Skipped, "dropped", o.Dropped)
	}
}

// ctxReason is the skip reason for a context error.
func ctxReason(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return skipTimeout
	}
	return skipCanceled
}

// addCall records the costs of one request.
func (r *run) addCall(retry bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.Calls++
	if retry {
		r.st.Retries++
	}
}

func (r *run) addUsage(prompt, completion int64) {
	r.used.Add(prompt + completion)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.PromptTokens += prompt
	r.st.CompletionTokens += completion
}

func (r *run) addToolCall() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.ToolCalls++
}

// maxGroup is the largest number of claims judged in one conversation;
// maxGroupText the longest claim text (bytes) that may share one.
const (
	maxGroup     = 4
	maxGroupText = 600
)

// groupUnits splits the pending items into conversations: up to four short
// doc comments of one file without a finding to confirm share one, so the
// instructions, tools and schema are paid once; every other item has its
// own. Units keep the items' order.
func groupUnits(items []review.ModelItem, pending []int) [][]int {
	var units [][]int
	byPath := map[string]int{} // path -> index of its open group in units
	for _, i := range pending {
		c := items[i].Claim
		if items[i].Finding != nil || c.Kind != review.KindDocComment || len(c.Text) > maxGroupText {
			units = append(units, []int{i})
			continue
		}
		if g, ok := byPath[c.Path]; ok && len(units[g]) < maxGroup {
			units[g] = append(units[g], i)
			continue
		}
		byPath[c.Path] = len(units)
		units = append(units, []int{i})
	}
	return units
}
