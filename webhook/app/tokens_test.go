package app

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docreview/docreview/review/github/githubtest"
)

// testKey is an RSA key in GitHub's PEM format (PKCS#1), made once.
var testKey = sync.OnceValues(func() (*rsa.PrivateKey, []byte) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
})

// verifyJWT checks an App JWT as GitHub does: RS256 signed by key, issued
// by the App, and valid for at most ten minutes.
func verifyJWT(key *rsa.PublicKey, tok string, appID int64, now time.Time) error {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return fmt.Errorf("JWT has %d parts", len(parts))
	}
	var hdr struct{ Alg, Typ string }
	var claims struct {
		Iss      string `json:"iss"`
		Iat, Exp int64
	}
	for i, v := range []any{&hdr, &claims} {
		raw, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			return fmt.Errorf("JWT part %d: %w", i, err)
		}
		if err := json.Unmarshal(raw, v); err != nil {
			return fmt.Errorf("JWT part %d: %w", i, err)
		}
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return fmt.Errorf("JWT signature: %w", err)
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	switch {
	case hdr.Alg != "RS256":
		return fmt.Errorf("alg %q, want RS256", hdr.Alg)
	case rsa.VerifyPKCS1v15(key, crypto.SHA256, sum[:], sig) != nil:
		return fmt.Errorf("bad signature")
	case claims.Iss != strconv.FormatInt(appID, 10):
		return fmt.Errorf("iss %q, want %d", claims.Iss, appID)
	case claims.Exp-claims.Iat > 600:
		return fmt.Errorf("exp - iat = %ds, over 10 minutes", claims.Exp-claims.Iat)
	case claims.Iat > now.Unix()+60 || claims.Exp <= now.Unix():
		return fmt.Errorf("iat %d, exp %d: not valid at %d", claims.Iat, claims.Exp, now.Unix())
	}
	return nil
}

// fakeTokenAPI serves POST PREFIX/app/installations/{id}/access_tokens as
// GitHub does, after verifying the JWT; a token lives for ttl.
type fakeTokenAPI struct {
	*httptest.Server
	appID int64
	ttl   time.Duration

	mu     sync.Mutex
	issued map[int64]int // tokens issued per installation
	errs   []string
}

func newFakeTokenAPI(t *testing.T, prefix string, appID int64, ttl time.Duration) *fakeTokenAPI {
	f := &fakeTokenAPI{appID: appID, ttl: ttl, issued: map[int64]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+prefix+"/app/installations/{id}/access_tokens", f.serve)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func (f *fakeTokenAPI) serve(w http.ResponseWriter, r *http.Request) {
	key, _ := testKey()
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id == 404 {
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if ok {
		err = verifyJWT(&key.PublicKey, bearer, f.appID, time.Now())
	} else {
		err = fmt.Errorf("no bearer token")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		f.errs = append(f.errs, err.Error())
		http.Error(w, `{"message":"A JSON web token could not be decoded"}`, http.StatusUnauthorized)
		return
	}
	f.issued[id]++
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"token":      fmt.Sprintf("ghs_inst%d_n%d", id, f.issued[id]),
		"expires_at": time.Now().Add(f.ttl).UTC().Format(time.RFC3339),
	})
}

func TestAppTokens(t *testing.T) {
	_, pemKey := testKey()
	ctx := context.Background()
	tests := []struct {
		name   string
		prefix string // where the fake serves the API: "" or GHES's /api/v3
		url    func(srv string) string
		ttl    time.Duration
		calls  []int64 // installations asked for, in order
		want   []string
		issued map[int64]int
	}{
		{
			name: "cached per installation", url: func(s string) string { return s + "/" }, ttl: time.Hour,
			calls:  []int64{1, 1, 2, 1, 2},
			want:   []string{"ghs_inst1_n1", "ghs_inst1_n1", "ghs_inst2_n1", "ghs_inst1_n1", "ghs_inst2_n1"},
			issued: map[int64]int{1: 1, 2: 1},
		},
		{
			name: "GitHub Enterprise Server API root", prefix: "/api/v3", url: func(s string) string { return s + "/api/v3/" }, ttl: time.Hour,
			calls: []int64{7, 7}, want: []string{"ghs_inst7_n1", "ghs_inst7_n1"}, issued: map[int64]int{7: 1},
		},
		{
			name: "refreshed a minute before expiry", url: func(s string) string { return s }, ttl: 30 * time.Second,
			calls: []int64{3, 3}, want: []string{"ghs_inst3_n1", "ghs_inst3_n2"}, issued: map[int64]int{3: 2},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeTokenAPI(t, tc.prefix, 4242, tc.ttl)
			ts, err := NewAppTokens(4242, pemKey, tc.url(api.URL), nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, id := range tc.calls {
				got, err := ts.Token(ctx, id)
				if err != nil {
					t.Fatalf("Token(%d): %v", id, err)
				}
				if got != tc.want[i] {
					t.Errorf("call %d: Token(%d) = %q, want %q", i, id, got, tc.want[i])
				}
			}
			api.mu.Lock()
			defer api.mu.Unlock()
			if fmt.Sprint(api.issued) != fmt.Sprint(tc.issued) {
				t.Errorf("tokens issued %v, want %v", api.issued, tc.issued)
			}
			if len(api.errs) > 0 {
				t.Errorf("JWT problems: %v", api.errs)
			}
		})
	}
}

func TestAppTokensConcurrent(t *testing.T) {
	_, pemKey := testKey()
	api := newFakeTokenAPI(t, "", 1, time.Hour)
	ts, err := NewAppTokens(1, pemKey, api.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			id := int64(i%4 + 1)
			if tok, err := ts.Token(context.Background(), id); err != nil || tok != fmt.Sprintf("ghs_inst%d_n1", id) {
				t.Errorf("Token(%d) = %q, %v", id, tok, err)
			}
		})
	}
	wg.Wait()
	api.mu.Lock()
	defer api.mu.Unlock()
	for id, n := range api.issued {
		if n != 1 {
			t.Errorf("installation %d: %d tokens issued, want 1", id, n)
		}
	}
}

func TestAppTokensErrors(t *testing.T) {
	_, pemKey := testKey()
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	otherPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(other)})
	api := newFakeTokenAPI(t, "", 9, time.Hour)

	if _, err := NewAppTokens(9, []byte("not a key"), api.URL, nil); err == nil {
		t.Error("NewAppTokens accepted a malformed key")
	}
	if _, err := NewAppTokens(0, pemKey, api.URL, nil); err == nil {
		t.Error("NewAppTokens accepted app id 0")
	}
	tests := []struct {
		name  string
		key   []byte
		appID int64
		id    int64
		want  string
	}{
		{"unknown installation", pemKey, 9, 404, "404"},
		{"key of another App", otherPEM, 9, 1, "401"},
		{"wrong app id", pemKey, 10, 1, "401"},
		{"invalid installation id", pemKey, 9, 0, "invalid installation id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := NewAppTokens(tc.appID, tc.key, api.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ts.Token(context.Background(), tc.id)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Token = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestAppTokensContract asks Prism, serving GitHub's OpenAPI description,
// for an installation token: the request ghinstallation sends must be a
// valid "create an installation access token" request.
func TestAppTokensContract(t *testing.T) {
	p := githubtest.StartPrism(t)
	_, pemKey := testKey()
	ts, err := NewAppTokens(1, pemKey, p.URL()+"/", p.Transport(nil))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ts.Token(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if tok == "" {
		t.Error("empty token from the spec's example")
	}
	ex := p.Exchanges()
	if len(ex) != 1 || ex[0].Method != http.MethodPost || ex[0].Path != "/app/installations/1/access_tokens" {
		t.Errorf("exchanges %+v, want one POST /app/installations/1/access_tokens", ex)
	}
	p.Check(t)
}
