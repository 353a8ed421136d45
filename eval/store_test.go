package eval

import "testing"

// TestAllCases checks the plural of the interrupted-save message (moved
// with allCases from evalrun's TestRunOutput_Plurals).
func TestAllCases(t *testing.T) {
	if got := allCases(1); got != "the 1 case" {
		t.Errorf("allCases(1) = %q", got)
	}
	if got := allCases(3); got != "all 3 cases" {
		t.Errorf("allCases(3) = %q", got)
	}
}
