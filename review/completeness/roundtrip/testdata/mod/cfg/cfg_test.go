package cfg

import (
	"errors"
	"strconv"
	"testing"
	"time"
)

func TestParsePort(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{{"80", 80}, {" 8080 ", 8080}, {"65535", 65535}, {"1", 1}} {
		got, err := ParsePort(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParsePort(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestParsePortEmpty(t *testing.T) {
	for _, in := range []string{"", "   "} {
		if _, err := ParsePort(in); !errors.Is(err, ErrEmpty) {
			t.Errorf("ParsePort(%q) error = %v, want ErrEmpty", in, err)
		}
	}
}

func TestParsePortRange(t *testing.T) {
	for _, in := range []string{"0", "65536", "-1"} {
		if _, err := ParsePort(in); !errors.Is(err, ErrRange) {
			t.Errorf("ParsePort(%q) error = %v, want ErrRange", in, err)
		}
	}
}

func TestParsePortSyntax(t *testing.T) {
	_, err := ParsePort("http")
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		t.Errorf("ParsePort(%q) error = %v, want a *strconv.NumError", "http", err)
	}
}

func TestTimeoutDefault(t *testing.T) {
	for _, d := range []time.Duration{0, -time.Second} {
		if got := Timeout(d); got != 30*time.Second {
			t.Errorf("Timeout(%v) = %v, want 30s", d, got)
		}
	}
	if got := Timeout(time.Minute); got != time.Minute {
		t.Errorf("Timeout(1m) = %v", got)
	}
}

func TestJoin(t *testing.T) {
	if got := Join([]string{"a", "", "b"}, ""); got != "a,b" {
		t.Errorf("Join default sep = %q, want %q", got, "a,b")
	}
	if got := Join([]string{"a", "b"}, ";"); got != "a;b" {
		t.Errorf("Join = %q", got)
	}
}
