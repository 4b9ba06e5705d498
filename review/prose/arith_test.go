package prose

import (
	"reflect"
	"testing"
)

func TestArithOperands(t *testing.T) {
	tests := []struct {
		src  string
		want []Operand // nil: not an arithmetic expression of names
	}{
		{"maxBatchSize * maxPacketSize", []Operand{{"maxBatchSize", 0, 12}, {"maxPacketSize", 15, 28}}},
		{"(1 << 20) * pageSize", []Operand{{"pageSize", 12, 20}}},
		{"time.Minute * 5", []Operand{{"time.Minute", 0, 11}}},
		{"maxPacketSize", nil},      // a name alone
		{"len(buf) * 2", nil},       // a call
		{"a == b", nil},             // a comparison
		{"2 * 3", nil},              // no name
		{"cfg.Limits.Max * 2", nil}, // a selector of a selector
		{"--size 10", nil},          // not Go
		{"headerLen + 2", []Operand{{"headerLen", 0, 9}}},
	}
	for _, tt := range tests {
		got, ok := ArithOperands(tt.src)
		if ok != (tt.want != nil) || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ArithOperands(%q) = %v, %v; want %v", tt.src, got, ok, tt.want)
		}
	}
}
