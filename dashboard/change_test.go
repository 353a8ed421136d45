package dashboard

import "testing"

// TestNewRunChange_Grammar: one failed question reads in the singular.
func TestNewRunChange_Grammar(t *testing.T) {
	for _, tc := range []struct {
		cur  runStats
		want string
	}{
		{runStats{Failed: 1}, "1 failed or errored question, 0 before"},
		{runStats{Failed: 1, Errors: 1}, "2 failed or errored questions, 0 before"},
	} {
		if got := newRunChange(tc.cur, runStats{}).Why; got != tc.want {
			t.Errorf("why = %q, want %q", got, tc.want)
		}
	}
}
