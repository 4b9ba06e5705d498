package dep

import "testing"

// TestNew is a test, not API.
func TestNew(t *testing.T) {}
