package models

import (
	"reflect"
	"testing"
)

func TestCloseNames(t *testing.T) {
	names := []string{"Trivia", "Customer support", "trivia-hard", "Billing", "Triage", "pi"}
	tests := []struct {
		want string
		out  []string
	}{
		{"trivia", []string{"Trivia", "trivia-hard"}},
		{"triaje", []string{"Triage"}},
		{"support", []string{"Customer support"}},
		{"biling", []string{"Billing"}},
		{"zzz", []string{}},
		{"capitl", []string{}},
		{"Triv", []string{"Trivia", "trivia-hard"}},
	}
	for _, tt := range tests {
		if got := CloseNames(tt.want, names, 3); !reflect.DeepEqual(got, tt.out) {
			t.Errorf("CloseNames(%q) = %q, want %q", tt.want, got, tt.out)
		}
	}
}
