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
	// Partitioned marks the cookie partitioned; it defaults to true.
	Partitioned OptBool
	// Shared marks the cookie shared; it defaults to true.
	Shared Tristate
	// Signed marks the cookie signed; it defaults to true.
	Signed Toggle
}

// DefaultCookieConfig is the configuration used when none is given.
var DefaultCookieConfig = CookieConfig{SameSite: "Lax"}

// OptBool is a boolean that may be unset: "true", "false" or "".
type OptBool string

// Tristate is "yes", "no" or unset.
type Tristate string

// Enabled reports whether t is "yes".
func (t Tristate) Enabled() bool { return t == "yes" }

// Toggle is "true" or "false".
type Toggle string

// ToggleOn is a Toggle set.
const ToggleOn Toggle = "true"
