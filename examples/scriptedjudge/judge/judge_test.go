package judge

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestHandler answers an OpenAI-shaped request with the scripted verdict,
// noise within its bound and repeatable for the same seed.
func TestHandler(t *testing.T) {
	prompt := "Grade the answer with the rubric (semantic_accuracy)\n[answer (untrusted; the answer under evaluation)]\n\"You have 14 days.\"\n"
	body, _ := json.Marshal(map[string]any{"model": "m", "messages": []any{map[string]any{"role": "user", "content": prompt}}})
	scores := func(h *Handler) []float64 {
		var out []float64
		for i := 0; i < 5; i++ {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/chat/completions", bytes.NewReader(body)))
			var resp struct {
				Choices []struct {
					Message struct{ Content string } `json:"message"`
				} `json:"choices"`
			}
			if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &resp) != nil || len(resp.Choices) != 1 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var v struct{ Score float64 }
			if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &v); err != nil {
				t.Fatal(err)
			}
			out = append(out, v.Score)
		}
		return out
	}
	for _, s := range scores(&Handler{}) {
		if s != 0.2 {
			t.Errorf("without noise: score %v, want the scripted 0.2", s)
		}
	}
	a, b := scores(&Handler{Noise: 0.05, Seed: 7}), scores(&Handler{Noise: 0.05, Seed: 7})
	varied := false
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("same seed, call %d: %v and %v", i, a[i], b[i])
		}
		if a[i] < 0.15-1e-9 || a[i] > 0.25+1e-9 {
			t.Errorf("score %v beyond 0.2 ± 0.05", a[i])
		}
		varied = varied || a[i] != a[0]
	}
	if !varied {
		t.Errorf("noise 0.05 gave five equal scores %v", a)
	}
	rec := httptest.NewRecorder()
	(&Handler{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/models", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("GET /v1/models: %d, want 404", rec.Code)
	}
}
