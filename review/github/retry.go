package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	gh "github.com/google/go-github/v62/github"
)

// maxRetries is how many times a request is retried after its first try.
const maxRetries = 3

// maxWait is the longest wait Publish makes before a retry; a server that
// asks for longer gets its error returned instead.
const maxWait = time.Minute

// call runs f, retrying on 5xx, 429, rate limits and connection errors
// (see [Publish]), and wraps the final error with op. A write refused with
// a 403 that is not a rate limit wraps [ErrReadOnly].
func call[T any](ctx context.Context, p *publisher, op string, write bool, f func() (T, *gh.Response, error)) (T, *gh.Response, error) {
	return callLookup(ctx, p, op, write, f, nil)
}

// create is call for a request that is not idempotent (a POST creating a
// review, a comment or a check run, a PATCH appending annotations). A
// failure that GitHub may have carried out before answering (see
// [mayHaveApplied]) is followed, after the usual wait, by lookup instead
// of a blind retry: when lookup finds what f creates, create returns it
// (with a nil response) and f is not retried; when lookup finds nothing, f
// is retried; when lookup fails, create returns its error. After the last
// try, lookup runs once more (without a wait) and its result, if any,
// replaces the error. lookup is not
// run after a failure that was certainly not carried out (a 429, a rate
// limit, a 4xx).
func create[T any](ctx context.Context, p *publisher, op string, f func() (T, *gh.Response, error), lookup func() (T, bool, error)) (T, *gh.Response, error) {
	return callLookup(ctx, p, op, true, f, lookup)
}

// callLookup implements call and create; lookup may be nil.
func callLookup[T any](ctx context.Context, p *publisher, op string, write bool, f func() (T, *gh.Response, error), lookup func() (T, bool, error)) (T, *gh.Response, error) {
	for attempt := 0; ; attempt++ {
		v, resp, err := f()
		if err == nil {
			return v, resp, nil
		}
		if ctx.Err() != nil {
			return v, resp, fmt.Errorf("%s: %w", op, ctx.Err())
		}
		wait, retry := retryWait(err, attempt, p.opt.retryBase, time.Now())
		if retry && attempt == maxRetries && lookup != nil && mayHaveApplied(err) {
			// The last try may have been carried out: better its result
			// than an error.
			if found, ok, lerr := lookup(); lerr == nil && ok {
				p.log.Warn("GitHub carried out a request it answered with an error", "op", op, "err", err)
				return found, nil, nil
			}
		}
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
		if lookup != nil && mayHaveApplied(err) {
			found, ok, lerr := lookup()
			if lerr != nil {
				return v, resp, fmt.Errorf("%s: looking for its result after %w: %w", op, err, lerr)
			}
			if ok {
				p.log.Warn("GitHub carried out a request it answered with an error; not retrying it", "op", op, "err", err)
				return found, nil, nil
			}
		}
	}
}

// mayHaveApplied reports an error after which the request may have been
// carried out: a 5xx (a proxy or a timeout between GitHub's front and the
// service that did the work) or a connection error (the answer was lost).
// Rate limits, 429 and other 4xx are answered before any work is done.
func mayHaveApplied(err error) bool {
	var abuse *gh.AbuseRateLimitError
	var rl *gh.RateLimitError
	if errors.As(err, &abuse) || errors.As(err, &rl) {
		return false
	}
	var er *gh.ErrorResponse
	if errors.As(err, &er) {
		return er.Response != nil && er.Response.StatusCode >= 500
	}
	return connectionError(err)
}

// connectionError reports a request that failed in the transport (refused,
// reset, closed before a response, timed out), which go-github returns as
// a *url.Error.
func connectionError(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue)
}

// retryWait says whether err is worth retrying (a 5xx, 429, rate limit or
// connection error) and how long to wait first: the server's Retry-After
// (or X-RateLimit-Reset) when given, otherwise base·2^attempt, and base·60 for a secondary rate limit without either
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
		if connectionError(err) {
			return backoff, true
		}
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
