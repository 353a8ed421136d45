package show

import "testing"

func TestNumbers(t *testing.T) {
	v, neg := 0.8, -0.0125
	for _, tt := range []struct{ got, want string }{
		{Score(&v), "0.800"}, {Score(nil), "n/a"},
		{Delta(&v), "+0.800"}, {Delta(&neg), "-0.013"}, {Delta(nil), "n/a"},
		{Float(0.05), "0.05"}, {Float(1e-6), "1e-06"},
		{Count(1, "question", "questions"), "1 question"}, {Count(0, "question", "questions"), "0 questions"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
