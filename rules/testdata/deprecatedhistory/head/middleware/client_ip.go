package middleware

import (
	"context"
	"net/http"
)

type ctxKey struct{}

// ClientIPFromXFF stores the client IP read from the X-Forwarded-For
// header. Read it with [GetClientIP]. Unlike [RealIP], it never mutates
// r.RemoteAddr.
func ClientIPFromXFF(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ip := r.Header.Get("X-Forwarded-For")
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, ip)))
	})
}

// GetClientIP returns the client IP stored by [ClientIPFromXFF].
func GetClientIP(ctx context.Context) string {
	ip, _ := ctx.Value(ctxKey{}).(string)
	return ip
}

// Behind returns h for use behind a reverse proxy: call [RealIP] first.
func Behind(h http.Handler) http.Handler { return RealIP(h) }

// Proxied wraps h in middleware.RealIP, so handlers see the proxy's view
// of r.RemoteAddr.
func Proxied(h http.Handler) http.Handler { return RealIP(h) }
