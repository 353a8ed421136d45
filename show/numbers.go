package show

import "fmt"

// Score formats a score with three decimals; nil is "n/a".
func Score(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", *v)
}

// Delta formats a signed difference with three decimals; nil is "n/a".
func Delta(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%+.3f", *v)
}

// Float writes v in the shortest form that reads back as v ("0.05",
// "1e-06").
func Float(v float64) string { return fmt.Sprintf("%g", v) }

// Count writes a count with the singular or plural noun: "1 question",
// "2 questions".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
