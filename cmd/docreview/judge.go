package main

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/config"
	"github.com/docreview/docreview/review/judge"
)

// modelJudge builds the LLM judge when cfg names a model: its endpoint is
// OPENAI_BASE_URL (default OpenAI's API) and its key OPENAI_API_KEY. A
// model with neither a key nor a base URL is a usage error, since OpenAI's
// API would refuse every call. Verdicts are cached beside the index
// (indexDir's sibling "verdicts") unless indexDir is "" (--no-cache) or
// the configuration switches the cache off. It returns nil without a
// model.
func modelJudge(cfg config.Config, getenv func(string) string, indexDir string, logger *slog.Logger) (review.ModelJudge, error) {
	if cfg.Model == "" {
		return nil, nil
	}
	key, base := strings.TrimSpace(getenv("OPENAI_API_KEY")), strings.TrimSpace(getenv("OPENAI_BASE_URL"))
	if key == "" && base == "" {
		return nil, &review.UsageError{Msg: fmt.Sprintf("model %q is configured but OPENAI_API_KEY is not set (set it, or OPENAI_BASE_URL for a local server that needs no key)", cfg.Model)}
	}
	opt := judge.Options{
		Model:               cfg.Model,
		BaseURL:             base,
		APIKey:              key,
		Mode:                judge.Mode(cfg.Judge.Mode),
		Concurrency:         cfg.Judge.Concurrency,
		MaxToolCalls:        cfg.Judge.MaxToolCalls,
		MaxClaimInputTokens: cfg.Judge.ClaimTokens,
		ReviewTokenBudget:   cfg.Judge.ReviewTokens,
		CallTimeout:         time.Duration(cfg.Judge.TimeoutSeconds) * time.Second,
		Logger:              logger,
	}
	if indexDir != "" && !cfg.Judge.NoCache {
		opt.CacheDir = filepath.Join(filepath.Dir(indexDir), "verdicts")
	}
	j, err := judge.New(opt)
	if err != nil {
		return nil, &review.UsageError{Msg: err.Error()}
	}
	return j, nil
}

// judgeEmbedder gives the judge's search the dense channel when
// OPENAI_API_KEY is set (or embeddings-model names a model of the
// OPENAI_BASE_URL server): the embedder and where its vectors are kept
// (beside the index, as 'docreview index' keeps them; "" with --no-cache).
// Without either it returns a nil embedder.
func judgeEmbedder(cfg config.Config, getenv func(string) string, indexDir string) (retrieval.Embedder, string, error) {
	key := strings.TrimSpace(getenv("OPENAI_API_KEY"))
	if key == "" && cfg.EmbeddingsModel == "" {
		return nil, "", nil
	}
	e, err := retrieval.NewOpenAIEmbedder(retrieval.EmbedderOptions{
		APIKey: key, BaseURL: strings.TrimSpace(getenv("OPENAI_BASE_URL")), Model: cfg.EmbeddingsModel,
	})
	if err != nil {
		return nil, "", &review.UsageError{Msg: "embeddings: " + err.Error()}
	}
	dir := ""
	if indexDir != "" {
		dir = filepath.Join(filepath.Dir(indexDir), "vectors")
	}
	return e, dir, nil
}
