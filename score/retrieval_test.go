package score

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestRetrievalScore compares every retrieval metric with a hand
// computation. Relevant documents are a and c unless a row says otherwise.
func TestRetrievalScore(t *testing.T) {
	l2 := func(rank float64) float64 { return 1 / math.Log2(rank+1) } // the gain at a rank
	ac := []string{"a", "c"}
	tests := []struct {
		name     string
		metric   string
		ranked   []string
		relevant []string
		k        int
		want     float64
	}{
		// ranked b a d c: a at rank 2, c at rank 4.
		{"hit, relevant inside k", "hit_at_k", []string{"b", "a", "d", "c"}, ac, 2, 1},
		{"hit, relevant outside k", "hit_at_k", []string{"b", "d", "a"}, ac, 2, 0},
		{"recall at 2", "recall_at_k", []string{"b", "a", "d", "c"}, ac, 2, 0.5},
		{"recall at 4", "recall_at_k", []string{"b", "a", "d", "c"}, ac, 4, 1},
		{"precision at 2", "precision_at_k", []string{"b", "a", "d", "c"}, ac, 2, 0.5},
		{"precision at 4", "precision_at_k", []string{"b", "a", "d", "c"}, ac, 4, 0.5},
		{"mrr, first relevant at rank 2", "mrr", []string{"b", "a", "d", "c"}, ac, 0, 0.5},
		{"mrr within k misses", "mrr", []string{"b", "d", "a"}, ac, 2, 0},
		{"ndcg at 4", "ndcg_at_k", []string{"b", "a", "d", "c"}, ac, 4, (l2(2) + l2(4)) / (l2(1) + l2(2))},
		{"ndcg, perfect order", "ndcg_at_k", []string{"c", "a", "b"}, ac, 3, 1},
		// k larger than the list: precision still divides by k, recall
		// and nDCG see the whole list.
		{"k larger than the list: precision", "precision_at_k", []string{"a", "b"}, ac, 10, 0.1},
		{"k larger than the list: recall", "recall_at_k", []string{"a", "b"}, ac, 10, 0.5},
		{"k larger than the list: ndcg", "ndcg_at_k", []string{"a", "b"}, ac, 10, l2(1) / (l2(1) + l2(2))},
		{"k larger than the list: hit", "hit_at_k", []string{"b", "c"}, ac, 10, 1},
		// Ties: a document retrieved twice counts once, at its first rank.
		{"duplicate: recall", "recall_at_k", []string{"a", "a", "a"}, ac, 3, 0.5},
		{"duplicate: precision", "precision_at_k", []string{"a", "a", "c"}, ac, 2, 1},
		{"duplicate: ndcg", "ndcg_at_k", []string{"a", "a", "c"}, ac, 3, 1},
		{"duplicate: mrr", "mrr", []string{"b", "b", "c"}, ac, 0, 0.5},
		// No relevant document retrieved: zeros.
		{"none relevant: hit", "hit_at_k", []string{"x", "y"}, ac, 5, 0},
		{"none relevant: recall", "recall_at_k", []string{"x", "y"}, ac, 5, 0},
		{"none relevant: precision", "precision_at_k", []string{"x", "y"}, ac, 5, 0},
		{"none relevant: mrr", "mrr", []string{"x", "y"}, ac, 0, 0},
		{"none relevant: ndcg", "ndcg_at_k", []string{"x", "y"}, ac, 5, 0},
		{"nothing retrieved: precision", "precision_at_k", nil, ac, 5, 0},
		// No relevant document expected: precision, hit and mrr are 0.
		{"no expected: precision", "precision_at_k", []string{"x"}, nil, 5, 0},
		{"no expected: hit", "hit_at_k", []string{"x"}, nil, 5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RetrievalScore(tt.metric, tt.ranked, tt.relevant, tt.k)
			if err != nil || math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("%s@%d(%v, %v) = %v, %v; want %v", tt.metric, tt.k, tt.ranked, tt.relevant, got, err, tt.want)
			}
		})
	}
	for _, m := range []string{"recall_at_k", "ndcg_at_k"} {
		if _, err := RetrievalScore(m, []string{"a"}, nil, 5); err == nil {
			t.Errorf("%s without a relevant document: no error", m)
		}
	}
}

// TestRetrievalMetric_Inputs: the scorer reads the reply metadata and the
// question metadata; what is missing or malformed is an error.
func TestRetrievalMetric_Inputs(t *testing.T) {
	r := Builtins()
	sc, err := r["recall_at_k"].New(json.RawMessage(`{"k": 3}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctxs := []any{map[string]any{"id": "b", "text": "B"}, map[string]any{"id": "a", "text": "A"}}
	a, err := sc.Score(context.Background(), Sample{ResponseMetadata: map[string]any{"contexts": ctxs},
		Metadata: map[string]any{"expected_documents": []any{"a", "c"}}})
	if err != nil || a.Score != 0.5 || !strings.Contains(a.Reason, "recall_at_k@3 = 0.5") {
		t.Fatalf("score %v (%q), %v", a.Score, a.Reason, err)
	}
	for name, s := range map[string]Sample{
		"no contexts":          {Metadata: map[string]any{"expected_documents": []any{"a"}}},
		"no expected":          {ResponseMetadata: map[string]any{"contexts": ctxs}, Metadata: map[string]any{}},
		"malformed contexts":   {ResponseMetadata: map[string]any{"contexts": "a,b"}, Metadata: map[string]any{"expected_documents": []any{"a"}}},
		"empty expected":       {ResponseMetadata: map[string]any{"contexts": ctxs}, Metadata: map[string]any{"expected_documents": []any{}}},
		"expected not strings": {ResponseMetadata: map[string]any{"contexts": ctxs}, Metadata: map[string]any{"expected_documents": []any{1}}},
	} {
		var se *Error
		if _, err := sc.Score(context.Background(), s); !errors.As(err, &se) {
			t.Errorf("%s: error = %v, want a metric error", name, err)
		}
	}
	if _, err := r["ndcg_at_k"].New(json.RawMessage(`{"k": 0}`), nil); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("k = 0: %v", err)
	}
}
