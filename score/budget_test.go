package score

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestMaxToolResultBytes_Score(t *testing.T) {
	decoded := func(raw string) any {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name     string
		params   string
		metadata map[string]any
		score    float64
		reason   string // substring
		errKind  string
	}{
		{"within budget", `{"limit": 4096}`, map[string]any{"tool_result_bytes": decoded(`[120, 4096]`)}, 1, "largest tool result 4096 bytes of 4216 in total over 2 results", ""},
		{"one result over", `{"limit": 4096}`, map[string]any{"tool_result_bytes": decoded(`[100, 512000]`)}, 0, "512000 bytes exceeds the 4096-byte budget", ""},
		{"single number", `{"limit": 10}`, map[string]any{"tool_result_bytes": decoded(`11`)}, 0, "11 bytes exceeds", ""},
		{"go ints", `{"limit": 10}`, map[string]any{"tool_result_bytes": []int{3, 4}}, 1, "within the 10-byte budget", ""},
		{"json numbers", `{"limit": 10}`, map[string]any{"tool_result_bytes": []any{json.Number("9")}}, 1, "within", ""},
		{"no tool results", `{"limit": 10}`, map[string]any{"tool_result_bytes": []any{}}, 1, "no tool results", ""},
		{"other key", `{"limit": 10, "key": "ctx_bytes"}`, map[string]any{"ctx_bytes": 20.0}, 0, "exceeds", ""},
		{"missing", `{"limit": 10}`, map[string]any{"other": 1.0}, 0, "", "missing_tool_result_bytes"},
		{"no metadata", `{"limit": 10}`, nil, 0, "", "missing_tool_result_bytes"},
		{"null", `{"limit": 10}`, map[string]any{"tool_result_bytes": nil}, 0, "", "missing_tool_result_bytes"},
		{"string", `{"limit": 10}`, map[string]any{"tool_result_bytes": "5"}, 0, "", "invalid_tool_result_bytes"},
		{"negative item", `{"limit": 10}`, map[string]any{"tool_result_bytes": decoded(`[1, -2]`)}, 0, "", "invalid_tool_result_bytes"},
		{"fraction", `{"limit": 10}`, map[string]any{"tool_result_bytes": 1.5}, 0, "", "invalid_tool_result_bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Builtins().Build("max_tool_result_bytes", json.RawMessage(tc.params), nil)
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			a, err := sc.Score(context.Background(), Sample{ResponseMetadata: tc.metadata, Output: json.RawMessage(`"right answer"`)})
			if tc.errKind != "" {
				var e *Error
				if !errors.As(err, &e) || e.Kind != tc.errKind {
					t.Fatalf("Score = %+v, %v; want a metric error of kind %q", a, err, tc.errKind)
				}
				return
			}
			if err != nil {
				t.Fatalf("Score: %v", err)
			}
			if got, want := a.Score, tc.score; got != want {
				t.Errorf("Score = %v, want %v (%s)", got, want, a.Reason)
			}
			if !strings.Contains(a.Reason, tc.reason) {
				t.Errorf("Reason = %q, want it to contain %q", a.Reason, tc.reason)
			}
		})
	}
}

func TestMaxToolResultBytes_Params(t *testing.T) {
	for _, raw := range []string{``, `{}`, `{"limit": -1}`, `{"limit": 1.5}`, `{"limit": "4096"}`, `{"limit": 1, "key": ""}`, `{"limit": 1, "max": 2}`} {
		if _, err := Builtins().Build("max_tool_result_bytes", json.RawMessage(raw), nil); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("params %s: Build error = %v, want ErrInvalidParams", raw, err)
		}
	}
}
