package prose

import (
	"slices"
	"testing"
)

func TestTopicWords(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"defaultMaxFrameSize", []string{"frame"}},
		{"ProtocolVersion2Compatible", []string{"protocol", "version", "compatible"}},
		{"HeaderSize", []string{"header"}},
		{"ClusterConfig.NumConns", []string{"connection"}},
		{"DefaultSize", nil},
		{"IKCP_RTO_MIN", []string{"ikcp", "rto"}},
	}
	for _, tt := range tests {
		if got := TopicWords(tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("TopicWords(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestTopicNear(t *testing.T) {
	tests := []struct {
		sent, number, name string
		want               bool
	}{
		{"after the frame header (8 bytes).", "8", "frameHeaderLen", true},
		{"A memberlist speaking version 2 of the protocol will attempt", "2", "ProtocolVersion2Compatible", true},
		{"The client retries a request up to 3 times.", "3", "defaultRetries", true},
		{"The client sends 3 requests at once.", "3", "defaultRetries", false},
		// two of three topic words are enough; one is not
		{"the protocol is at version 3", "3", "ProtocolVersion2Compatible", true},
		{"speaks version 3", "3", "ProtocolVersion2Compatible", false},
		// the words must be near the number
		{"The header is parsed first, then the body, then the trailer, then the footer, and at last 8 bytes", "8", "HeaderSize", false},
		// a name of kind words only ties nothing
		{"the default size is 8", "8", "DefaultSize", false},
		// longer forms of a word of four letters or more
		{"keeps 4 connections open", "4", "maxConns", true},
	}
	for _, tt := range tests {
		i := standaloneAt(tt.sent, tt.number)
		if got := TopicNear(tt.sent, i, i+len(tt.number), 6, TopicWords(tt.name)); got != tt.want {
			t.Errorf("TopicNear(%q, %s, %s) = %v, want %v", tt.sent, tt.number, tt.name, got, tt.want)
		}
	}
}

// standaloneAt returns the offset of number standing alone in s.
func standaloneAt(s, number string) int {
	for i := 0; i+len(number) <= len(s); i++ {
		if s[i:i+len(number)] == number && (i == 0 || s[i-1] == ' ' || s[i-1] == '(') && (i+len(number) == len(s) || s[i+len(number)] == ' ' || s[i+len(number)] == ')') {
			return i
		}
	}
	return -1
}
