package suggest

import (
	"reflect"
	"testing"
)

func TestClosest(t *testing.T) {
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
		if got := Closest(tt.want, names, 3); !reflect.DeepEqual(got, tt.out) {
			t.Errorf("Closest(%q) = %q, want %q", tt.want, got, tt.out)
		}
	}
}

func TestClosest_limitAndRepeats(t *testing.T) {
	names := []string{"contains", "contains", "contains_any", "icontains", "equals"}
	tests := []struct {
		want  string
		limit int
		out   []string
	}{
		{"contians", 1, []string{"contains"}},
		{"contians", 2, []string{"contains"}},                  // contains_any is 6 edits away
		{"contains", 3, []string{"contains_any", "icontains"}}, // want itself is not suggested
		{"CONTAINS", 1, []string{"contains"}},
		{"eq", 3, []string{}}, // too short to be inside a name
		{"equals", 0, []string{}},
	}
	for _, tt := range tests {
		if got := Closest(tt.want, names, tt.limit); !reflect.DeepEqual(got, tt.out) {
			t.Errorf("Closest(%q, %d) = %q, want %q", tt.want, tt.limit, got, tt.out)
		}
	}
}

func TestHint(t *testing.T) {
	names := []string{"refund-us", "refund-eu", "billing"}
	tests := []struct {
		want  string
		limit int
		out   string
	}{
		{"refund-uk", 3, ` (did you mean "refund-us", "refund-eu"?)`}, // closest first
		{"refund-uk", 1, ` (did you mean "refund-us"?)`},
		{"biling", 3, ` (did you mean "billing"?)`},
		{"zzz", 3, ""},
	}
	for _, tt := range tests {
		if got := Hint(tt.want, names, tt.limit); got != tt.out {
			t.Errorf("Hint(%q, %d) = %q, want %q", tt.want, tt.limit, got, tt.out)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"contians", "contains", 2}, {"東京", "東都", 1}, {"same", "same", 0},
	} {
		if got := editDistance(tt.a, tt.b); got != tt.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.d)
		}
	}
}
