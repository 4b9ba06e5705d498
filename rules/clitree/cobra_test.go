package clitree

import "testing"

func TestPflagArgs(t *testing.T) {
	tests := []struct {
		method      string
		name, short int
	}{
		{"String", 0, -1}, {"StringP", 0, 1}, {"StringVar", 1, -1}, {"StringVarP", 1, 2}, {"BoolVarPF", 1, 2}, {"IP", 0, -1}, {"IPP", 0, 1},
	}
	for _, tt := range tests {
		if n, s := pflagArgs(tt.method); n != tt.name || s != tt.short {
			t.Errorf("pflagArgs(%s) = %d, %d; want %d, %d", tt.method, n, s, tt.name, tt.short)
		}
	}
}
