package clitree

import "testing"

func TestKebab(t *testing.T) {
	for in, want := range map[string]string{"DryRun": "dry-run", "HTTPPort": "http-port", "ID": "id", "Debug": "debug", "TTL": "ttl", "ConfigFile2": "config-file2"} {
		if got := kebab(in); got != want {
			t.Errorf("kebab(%q) = %q, want %q", in, got, want)
		}
	}
}
