package score

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Retrieval evidence keys. The agent reports what it retrieved in its
// reply's metadata (so the reply contract is unchanged and the list is
// stored with the case, where re-judging reads it again); the question
// names the relevant documents in its evaluation metadata, which the
// agent never sees.
const (
	// ContextsKey is the reply metadata key of the retrieved passages, in
	// rank order: [{"id": "doc-1", "text": "..."}, ...].
	ContextsKey = "contexts"
	// ExpectedDocumentsKey is the question metadata key of the relevant
	// document ids: ["doc-1", "doc-7"].
	ExpectedDocumentsKey = "expected_documents"
)

// RetrievedContext is one passage the agent reports as retrieved.
type RetrievedContext struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// RetrievedContexts reads the sample's retrieved passages; ok is false
// when the agent reported none (no key: not instrumented), and an error
// says what is malformed.
func RetrievedContexts(s Sample) (ctxs []RetrievedContext, ok bool, err error) {
	raw, ok := s.ResponseMetadata[ContextsKey]
	if !ok || raw == nil {
		return nil, false, nil
	}
	enc, err := json.Marshal(raw)
	if err != nil {
		return nil, true, err
	}
	if err := json.Unmarshal(enc, &ctxs); err != nil {
		return nil, true, fmt.Errorf(`metadata.%s: want a list of {"id": "...", "text": "..."}: %v`, ContextsKey, err)
	}
	return ctxs, true, nil
}

// retrievalMetric is one of the deterministic retrieval metrics over the
// ranked ids the agent retrieved and the question's relevant ids.
type retrievalMetric struct {
	name string
	k    int // 0: the whole list
}

var _ Scorer = (*retrievalMetric)(nil)

// addRetrieval registers hit_at_k, recall_at_k, precision_at_k, mrr and
// ndcg_at_k; each takes {"k": N} (default 10; for mrr the whole list).
func addRetrieval(r Registry) {
	for _, name := range []string{"hit_at_k", "recall_at_k", "precision_at_k", "mrr", "ndcg_at_k"} {
		r[name] = Definition{Doc: retrievalDoc(name), New: func(params json.RawMessage, _ Judge) (Scorer, error) {
			var p struct {
				K *int `json:"k"`
			}
			if err := decodeParams(params, &p, false); err != nil {
				return nil, fmt.Errorf(`%w: %s takes only {"k": N}`, ErrInvalidParams, name)
			}
			k := 10
			if name == "mrr" {
				k = 0
			}
			if p.K != nil {
				if *p.K < 1 {
					return nil, fmt.Errorf("%w: %s: k must be a whole number >= 1, got %d", ErrInvalidParams, name, *p.K)
				}
				k = *p.K
			}
			return &retrievalMetric{name: name, k: k}, nil
		}}
	}
}

// Score computes the metric; a sample without retrieved contexts or
// without expected documents is a missing_input error, never a score.
func (m *retrievalMetric) Score(_ context.Context, s Sample) (Assessment, error) {
	ctxs, ok, err := RetrievedContexts(s)
	if err != nil {
		return Assessment{}, &Error{Kind: KindInvalidReply, Message: err.Error()}
	}
	if !ok {
		return Assessment{}, &Error{Kind: KindMissingInput, Message: fmt.Sprintf("%s needs the retrieved documents: the agent's reply metadata has no %q list", m.name, ContextsKey)}
	}
	relevant, err := expectedDocuments(s)
	if err != nil {
		return Assessment{}, err
	}
	ranked := make([]string, len(ctxs))
	for i, c := range ctxs {
		ranked[i] = c.ID
	}
	v, err := RetrievalScore(m.name, ranked, relevant, m.k)
	if err != nil {
		return Assessment{}, &Error{Kind: KindMissingInput, Message: err.Error()}
	}
	at := ""
	if m.k > 0 {
		at = fmt.Sprintf("@%d", m.k)
	}
	return Assessment{Score: v, Reason: fmt.Sprintf("%s%s = %.4g: %d relevant of %d retrieved (%d expected documents)",
		m.name, at, v, countRelevant(ranked, relevant, 0), len(ranked), len(relevant)),
		Details: map[string]any{"retrieved": ranked, "expected_documents": relevant, "k": m.k}}, nil
}

// expectedDocuments reads the question's relevant ids.
func expectedDocuments(s Sample) ([]string, error) {
	raw, ok := s.Metadata[ExpectedDocumentsKey]
	if !ok {
		return nil, &Error{Kind: KindMissingInput, Message: fmt.Sprintf("the question's metadata has no %q list of relevant document ids", ExpectedDocumentsKey)}
	}
	enc, _ := json.Marshal(raw)
	var ids []string
	if err := json.Unmarshal(enc, &ids); err != nil {
		return nil, &Error{Kind: KindMissingInput, Message: fmt.Sprintf("metadata.%s: want a list of document ids", ExpectedDocumentsKey)}
	}
	return ids, nil
}

// RetrievalScore is metric name over the ranked ids and the relevant set,
// at cut-off k (0: the whole list). A document retrieved twice counts at
// its first rank only. Recall and nDCG are undefined without a relevant
// document (an error); hit, precision and MRR are 0 then.
func RetrievalScore(name string, ranked, relevant []string, k int) (float64, error) {
	rel := idSet(relevant)
	top := firstK(ranked, k)
	hits := countIn(top, rel)
	switch name {
	case "hit_at_k":
		return boolScore(hits > 0), nil
	case "precision_at_k":
		if k == 0 {
			k = len(top)
		}
		if k == 0 {
			return 0, nil
		}
		return float64(hits) / float64(k), nil
	case "mrr":
		for i, id := range top {
			if rel[id] {
				return 1 / float64(i+1), nil
			}
		}
		return 0, nil
	case "recall_at_k", "ndcg_at_k":
		if len(rel) == 0 {
			return 0, fmt.Errorf("%s is undefined without a relevant document (%s is empty)", name, ExpectedDocumentsKey)
		}
		if name == "recall_at_k" {
			return float64(hits) / float64(len(rel)), nil
		}
		var dcg, ideal float64
		for i, id := range top {
			if rel[id] {
				dcg += 1 / math.Log2(float64(i+2))
			}
		}
		n := len(rel)
		if k > 0 && k < n {
			n = k
		}
		for i := range n {
			ideal += 1 / math.Log2(float64(i+2))
		}
		return dcg / ideal, nil
	}
	return 0, fmt.Errorf("unknown retrieval metric %q", name)
}

func boolScore(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// dedupe keeps each id at its first rank.
func dedupe(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// countRelevant counts the distinct relevant ids among the first k
// (0: all) of ranked.
func countRelevant(ranked, relevant []string, k int) int {
	return countIn(firstK(ranked, k), idSet(relevant))
}

// idSet is the set of ids, trimmed.
func idSet(ids []string) map[string]bool {
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[strings.TrimSpace(id)] = true
	}
	return set
}

// firstK is ranked without repeats, cut at k (0: all).
func firstK(ranked []string, k int) []string {
	top := dedupe(ranked)
	if k > 0 && len(top) > k {
		top = top[:k]
	}
	return top
}

// countIn counts the ids of top that are in set.
func countIn(top []string, set map[string]bool) int {
	n := 0
	for _, id := range top {
		if set[id] {
			n++
		}
	}
	return n
}

func retrievalDoc(name string) Doc {
	k := Param{Name: "k", Schema: map[string]any{"type": "integer", "minimum": 1}, Description: "The cut-off rank (default 10)."}
	summaries := map[string]string{
		"hit_at_k":       "1 when a relevant document (metadata.expected_documents) is among the first k the agent retrieved (reply metadata.contexts), else 0.",
		"recall_at_k":    "The share of the relevant documents (metadata.expected_documents) among the first k retrieved (reply metadata.contexts).",
		"precision_at_k": "The relevant documents among the first k retrieved (reply metadata.contexts), divided by k.",
		"mrr":            "1 over the rank of the first relevant document retrieved (reply metadata.contexts), 0 when none is.",
		"ndcg_at_k":      "Normalized discounted cumulative gain of the first k retrieved (reply metadata.contexts), with binary relevance from metadata.expected_documents.",
	}
	if name == "mrr" {
		k.Description = "Look only at the first k (default: the whole list)."
	}
	return Doc{Summary: summaries[name], Params: []Param{k}, Example: json.RawMessage(`{"k": 5}`)}
}
