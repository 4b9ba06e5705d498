package cache

// CookieConfig configures the cookie a cache hands out.
type CookieConfig struct {
	// HTTPOnly marks the cookie HTTP only.
	// Optional. Default value false.
	HTTPOnly bool
	// SameSite is the cookie's SameSite mode.
	// Optional. Default value false.
	SameSite string
	// MaxAge is the cookie's lifetime in seconds.
	// Optional. Default value false.
	MaxAge int
	// Secure marks the cookie secure. Default: true.
	Secure *bool
}

// DefaultCookieConfig is the configuration used when none is given.
var DefaultCookieConfig = CookieConfig{SameSite: "Lax"}
