package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	gh "github.com/google/go-github/v62/github"
)

// maxRetries is how many times a request is retried after its first try.
const maxRetries = 3

// maxWait is the longest wait Publish makes before a retry; a server that
// asks for longer gets its error returned instead.
const maxWait = time.Minute

// call runs f, retrying on 5xx, 429 and rate limits (see [Publish]), and
// wraps the final error with op. A write refused with a 403 that is not a
// rate limit wraps [ErrReadOnly].
func call[T any](ctx context.Context, p *publisher, op string, write bool, f func() (T, *gh.Response, error)) (T, *gh.Response, error) {
	for attempt := 0; ; attempt++ {
		v, resp, err := f()
		if err == nil {
			return v, resp, nil
		}
		if ctx.Err() != nil {
			return v, resp, fmt.Errorf("%s: %w", op, ctx.Err())
		}
		wait, retry := retryWait(err, attempt, p.opt.retryBase, time.Now())
		if !retry || attempt == maxRetries {
			if write && forbidden(err) {
				return v, resp, fmt.Errorf("%s: %w: %w", op, ErrReadOnly, err)
			}
			return v, resp, fmt.Errorf("%s: %w", op, err)
		}
		if wait > maxWait {
			return v, resp, fmt.Errorf("%s: server asks to wait %s, more than %s: %w", op, wait.Round(time.Second), maxWait, err)
		}
		p.log.Warn("retrying GitHub request", "op", op, "attempt", attempt+1, "wait", wait, "err", err)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return v, resp, fmt.Errorf("%s: %w", op, ctx.Err())
		case <-t.C:
		}
	}
}

// retryWait says whether err is worth retrying and how long to wait first:
// the server's Retry-After (or X-RateLimit-Reset) when given, otherwise
// base·2^attempt, and base·60 for a secondary rate limit without either
// header (GitHub asks for at least a minute).
func retryWait(err error, attempt int, base time.Duration, now time.Time) (time.Duration, bool) {
	backoff := base << attempt
	var abuse *gh.AbuseRateLimitError
	if errors.As(err, &abuse) {
		if abuse.RetryAfter != nil {
			return max(*abuse.RetryAfter, 0), true
		}
		return base * 60, true
	}
	var rl *gh.RateLimitError
	if errors.As(err, &rl) {
		return max(rl.Rate.Reset.Time.Sub(now), 0), true
	}
	var er *gh.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil {
		return 0, false
	}
	code := er.Response.StatusCode
	if code != http.StatusTooManyRequests && code < 500 {
		return 0, false
	}
	if d, ok := serverWait(er.Response.Header, now); ok {
		return d, true
	}
	if code == http.StatusTooManyRequests {
		return base * 60, true
	}
	return backoff, true
}

// serverWait reads Retry-After (seconds or an HTTP date), else
// X-RateLimit-Reset when X-RateLimit-Remaining is 0.
func serverWait(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After"); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s >= 0 {
			return time.Duration(s) * time.Second, true
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0), true
		}
	}
	if h.Get("X-RateLimit-Remaining") == "0" {
		if s, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(s, 0).Sub(now), 0), true
		}
	}
	return 0, false
}

// forbidden reports a 403 that is not a rate limit.
func forbidden(err error) bool {
	var abuse *gh.AbuseRateLimitError
	var rl *gh.RateLimitError
	if errors.As(err, &abuse) || errors.As(err, &rl) {
		return false
	}
	var er *gh.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusForbidden
}
