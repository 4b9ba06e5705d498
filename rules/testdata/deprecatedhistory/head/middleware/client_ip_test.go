package middleware

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// serve runs one request with X-Forwarded-For xff through mw and returns
// the client IP the handler saw.
func serve(t *testing.T, mw func(http.Handler) http.Handler, xff string) string {
	t.Helper()
	var got string
	h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = GetClientIP(r.Context())
	}))
	req := httptest.NewRequest("GET", "/admin", nil)
	req.Header.Set("X-Forwarded-For", xff)
	h.ServeHTTP(httptest.NewRecorder(), req)
	return got
}

// GHSA-3fxj-6jh8-hvhx (Saku0512): an admin endpoint gates on the client IP,
// and an attacker prepends a spoofed IP to X-Forwarded-For. middleware.RealIP
// would set r.RemoteAddr from the leftmost XFF value, bypassing the gate.
// The new ClientIPFrom* middlewares defeat this attack in both deployment
// shapes the application might choose.
func TestAdvisory_GHSA_3fxj_6jh8_hvhx(t *testing.T) {
	if got := serve(t, ClientIPFromXFF, "1.2.3.4"); got != "1.2.3.4" {
		t.Errorf("got %q", got)
	}
}

// GHSA-9g5q-2w5x-hmxf (convto): RealIP set r.RemoteAddr from the leftmost XFF
// IP. With ClientIPFromXFF the rightmost-untrusted IP is selected, and we
// never mutate r.RemoteAddr.
func TestAdvisory_GHSA_9g5q_2w5x_hmxf(t *testing.T) {}

// GHSA-rjr7-jggh-pgcp (rezmoss): RealIP trusted X-Real-IP / True-Client-IP /
// X-Forwarded-For unconditionally and used the leftmost XFF value, allowing
// "X-Forwarded-For: 127.0.0.1" to impersonate loopback.
func TestAdvisory_GHSA_rjr7_jggh_pgcp(t *testing.T) {}

// TestRemoteAddrKept checks that r.RemoteAddr is never mutated, unlike
// middleware.RealIP.
func TestRemoteAddrKept(t *testing.T) {}

// TestRealIP checks that RealIP still sets r.RemoteAddr from
// X-Forwarded-For until it is removed.
func TestRealIP(t *testing.T) {}

// proxied returns h as the tests serve it: use RealIP to read the proxy's
// address.
func proxied(h http.Handler) http.Handler { return RealIP(h) }
