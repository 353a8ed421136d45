package outcome

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/score"
)

func TestParseReply(t *testing.T) {
	for _, tc := range []struct {
		reply, err string
		score      *float64
		passed     *bool
	}{
		{reply: `{"score": 0.5, "reason": "half"}`},
		{reply: `{"passed": false, "reason": "no row"}`},
		{reply: "  {\"score\": 1, \"passed\": true, \"reason\": \"ok\"}\n"},
		{reply: ``, err: "printed nothing"},
		{reply: `ok`, err: "want one JSON object"},
		{reply: `{"score": 1, "reason": "a"} {"score": 0, "reason": "b"}`, err: "want one JSON object"},
		{reply: `{"score": 1, "reason": "a", "extra": 1}`, err: "want one JSON object"},
		{reply: `{"reason": "why"}`, err: `neither "score"`},
		{reply: `{"score": -0.1, "reason": "r"}`, err: "not in [0,1]"},
		{reply: `{"score": "1", "reason": "r"}`, err: "want one JSON object"},
		{reply: `{"score": 1, "reason": "  "}`, err: `no "reason"`},
	} {
		_, err := ParseReply([]byte(tc.reply))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.reply, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: err %v, want %q", tc.reply, err, tc.err)
		}
	}
}

func TestArgValues(t *testing.T) {
	meta := map[string]any{"order": 1042.0, "price": 9.5, "sku": "A-1", "tags": []any{"x"}, "none": nil}
	got, err := argValues([]string{"case_id", "run_id", "metadata.order", "metadata.price", "metadata.sku", "metadata.tags"}, "c1", "r1", meta)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{"c1", "r1", int64(1042), 9.5, "A-1", `["x"]`}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("arg %d = %#v, want %#v", i, got[i], want[i])
		}
	}
	for _, src := range []string{"metadata.missing", "metadata.none"} {
		var se *score.Error
		if _, err := argValues([]string{src}, "c1", "r1", meta); !errors.As(err, &se) || se.Kind != score.KindMissingInput {
			t.Errorf("%s: err %v, want a missing_input error", src, err)
		}
	}
	if _, err := argValues([]string{"run_id"}, "c1", "", meta); err == nil {
		t.Error("run_id without a run id was accepted")
	}
}

func TestMatchRowSet(t *testing.T) {
	rows := [][]any{{"pens", int64(12)}, {"paper", int64(5)}}
	for _, tc := range []struct {
		want string
		ok   bool
	}{
		{`[["paper", 5], ["pens", 12]]`, true},
		{`[["pens", 12.0], ["paper", 5]]`, true},
		{`[["pens", 12]]`, false},
		{`[["pens", 12], ["pens", 12]]`, false},
		{`[["pens", "12"], ["paper", 5]]`, false},
	} {
		p, _, err := score.ParseState([]byte(`{"database": "d", "query": "q", "expect": {"row_set": ` + tc.want + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := matchRowSet(rows, p.Expect.RowSet); got != tc.ok {
			t.Errorf("%s: %v, want %v", tc.want, got, tc.ok)
		}
	}
}
