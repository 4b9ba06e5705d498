// Package middleware holds HTTP middlewares, modelled on
// github.com/go-chi/chi/v5/middleware after RealIP was deprecated.
package middleware

import "net/http"

// RealIP is a middleware that sets a http.Request's RemoteAddr to the
// results of parsing the X-Forwarded-For header.
//
// Deprecated: RealIP is vulnerable to IP spoofing: it mutates r.RemoteAddr
// to the leftmost X-Forwarded-For value.
//
// Use [ClientIPFromXFF] and read the IP with [GetClientIP] instead.
// These never mutate r.RemoteAddr.
func RealIP(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ip := r.Header.Get("X-Forwarded-For"); ip != "" {
			r.RemoteAddr = ip
		}
		h.ServeHTTP(w, r)
	})
}
