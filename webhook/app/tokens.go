package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/bradleyfalzon/ghinstallation/v2"
)

// TokenSource hands out installation access tokens.
type TokenSource interface {
	// Token returns a token of the installation that is valid for at
	// least a minute.
	Token(ctx context.Context, installationID int64) (string, error)
}

// appTokens is the ghinstallation-backed TokenSource: one Transport per
// installation caches its token and refreshes it a minute before it
// expires. Each has its own AppsTransport (signing the App's JWTs), because
// a ghinstallation Transport writes to its AppsTransport's fields on every
// refresh, without a lock that other installations' Transports share.
type appTokens struct {
	appID   int64
	key     []byte
	rt      http.RoundTripper
	baseURL string

	mu   sync.Mutex
	byID map[int64]*ghinstallation.Transport
}

// NewAppTokens returns the TokenSource of the GitHub App appID, signing
// its JWTs (RS256) with privateKeyPEM (PKCS#1, as GitHub issues it, or
// PKCS#8). githubURL is the REST API root: "https://api.github.com/",
// "https://HOST/api/v3/" on GitHub Enterprise Server, or a test server's
// URL; "" means https://api.github.com/. Tokens are requested with
// POST {githubURL}app/installations/{id}/access_tokens through rt
// (http.DefaultTransport when nil), cached per installation and renewed a
// minute before they expire. The TokenSource is safe for concurrent use.
func NewAppTokens(appID int64, privateKeyPEM []byte, githubURL string, rt http.RoundTripper) (TokenSource, error) {
	if appID <= 0 {
		return nil, fmt.Errorf("github app: invalid app id %d", appID)
	}
	if rt == nil {
		rt = http.DefaultTransport
	}
	// Parse the key now, so that a bad key fails at startup.
	if _, err := ghinstallation.NewAppsTransport(rt, appID, privateKeyPEM); err != nil {
		return nil, fmt.Errorf("github app %d: read the private key: %w", appID, err)
	}
	base := strings.TrimRight(githubURL, "/")
	if base == "" {
		base = "https://api.github.com"
	}
	return &appTokens{appID: appID, key: bytes.Clone(privateKeyPEM), rt: rt, baseURL: base,
		byID: map[int64]*ghinstallation.Transport{}}, nil
}

// Token implements TokenSource.
func (a *appTokens) Token(ctx context.Context, installationID int64) (string, error) {
	if installationID <= 0 {
		return "", fmt.Errorf("installation token: invalid installation id %d", installationID)
	}
	a.mu.Lock()
	t, ok := a.byID[installationID]
	if !ok {
		atr, err := ghinstallation.NewAppsTransport(a.rt, a.appID, a.key)
		if err != nil {
			a.mu.Unlock()
			return "", fmt.Errorf("github app %d: read the private key: %w", a.appID, err)
		}
		atr.BaseURL = a.baseURL
		t = ghinstallation.NewFromAppsTransport(atr, installationID)
		t.BaseURL = a.baseURL
		a.byID[installationID] = t
	}
	a.mu.Unlock()
	tok, err := t.Token(ctx)
	if err != nil {
		// ghinstallation leaves the body of a refused token request open
		// for the caller to inspect; close it so the connection is reused.
		var he *ghinstallation.HTTPError
		if errors.As(err, &he) && he.Response != nil && he.Response.Body != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(he.Response.Body, 64<<10))
			_ = he.Response.Body.Close()
		}
		return "", fmt.Errorf("installation %d: %w", installationID, err)
	}
	if tok == "" {
		return "", fmt.Errorf("installation %d: GitHub returned an empty token", installationID)
	}
	return tok, nil
}
