package limits_test

import (
	"testing"

	lm "example.com/limits/limits"
)

func TestNew(t *testing.T) {
	if _, err := lm.New(lm.Config{Max: 1}); err != nil {
		t.Fatal(err)
	}
}
