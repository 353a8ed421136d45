package suite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// The suite digest (docs/architecture.md, the fingerprint) identifies a suite's definition so that only
// runs of the same definition are compared:
//
//	suite_digest = lowercase hex SHA-256 of CanonicalJSON({
//	  "suite": name, "version": version,
//	  "questions": [Definition(case) for each case in suite order],
//	  "calculated_metrics": sorted, de-duplicated names of the metrics that
//	                        will actually be calculated,
//	  "evaluators": {name: {"type": type, "params": params or null}} for
//	                each calculated metric that names an evaluator the
//	                suite declares (present only when there is one),
//	})
//
// A calculated metric that is a built-in type used by name (no params)
// contributes only its name; a suite-declared evaluator also contributes
// its type and params (canonical JSON, so reformatting them changes
// nothing), so changing what a used check checks (say a "contains" value)
// starts a new baseline, while evaluators no case uses, or whose metric
// is not calculated, do not count.
//
// Definition(case) is an object with the keys id, question,
// expected_answer, expected_actions, minimum_scores (the effective map of
// metric name to threshold, defaults applied) and metadata (the question's
// own, without the "context" key the saved row may gain: see Plan); absent
// values are JSON null. It gains "context" when the case has retrieval
// context, "checks" when it has inline checks (a list of {name, type,
// params, threshold} in file order, params with sorted keys, so changing a
// check's value starts a new baseline), and "api_interactions" when the
// case declares API replay (the
// replay package folds its fixture definitions, including the SHA-256 of
// response bodies, in there).
//
// CanonicalJSON writes objects with keys sorted by their UTF-8 bytes, no
// insignificant whitespace, strings with Go's encoding/json escaping minus
// HTML escaping, and numbers in a single form: integers up to 2^53 as plain
// integers ("1.0" and "1" are the same value), every other number in the
// shortest form that reads back as the same float64.

// CaseDefinition is the canonical definition of a case: what the digest covers.
// Extend it here (not at the call sites) when a case gains a definition
// field.
func CaseDefinition(c *Case) map[string]any {
	scores := make(map[string]any, len(c.Metrics))
	for _, m := range c.Metrics {
		scores[m.Name] = m.Threshold
	}
	def := map[string]any{
		"id":               c.ID,
		"question":         c.Question,
		"expected_answer":  nullable(c.ExpectedAnswer),
		"expected_actions": nullable(c.ExpectedActions),
		"minimum_scores":   scores,
		"metadata":         nullable(c.Metadata),
	}
	if len(c.Context) > 0 {
		def["context"] = c.Context
	}
	if c.Conversation != nil { // "turns" or "scenario" (suite/conversation.go)
		key, v := conversationDefinition(c.Conversation)
		def[key] = v
	}
	if len(c.Checks) > 0 { // inline checks: what each one checks (runner/checks.go)
		def["checks"] = checkDefinitions(c)
	}
	if c.Replay != nil { // request assertions, replies (body SHA-256), allowed hosts
		def["api_interactions"] = c.Replay.Definition()
	} else if c.APIInteractions != nil {
		def["api_interactions"] = c.APIInteractions
	}
	return def
}

func nullable(raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	return raw
}

// Digest computes the suite digest for the given set of calculated metric
// names (see the algorithm above). A loaded suite keeps the last digest it
// computed (see digestMemo).
func (s *Suite) Digest(calculated []string) (string, error) {
	if s.whole != nil {
		return s.whole.Digest(calculated)
	}
	doc, names := s.digestDocument(calculated)
	if s.memo == nil {
		return digestOf(doc)
	}
	return s.memo.digest(s, doc, names)
}

// digestDocument is the document the digest hashes (see the algorithm
// above) and its sorted, de-duplicated calculated metric names.
func (s *Suite) digestDocument(calculated []string) (map[string]any, []string) {
	qs := make([]any, len(s.Cases))
	for i, c := range s.Cases {
		qs[i] = CaseDefinition(c)
	}
	names := append([]string{}, calculated...)
	sort.Strings(names)
	names = dedupe(names)
	doc := map[string]any{"suite": s.Name, "version": s.Version, "questions": qs, "calculated_metrics": names}
	evs := map[string]any{}
	for _, name := range names {
		if ev, ok := s.evaluator(name); ok {
			evs[name] = map[string]any{"type": ev.Type, "params": nullable(ev.Params)}
		}
	}
	if len(evs) > 0 {
		doc["evaluators"] = evs
	}
	return doc, names
}

// digestOf is the digest of a digest document.
func digestOf(doc map[string]any) (string, error) {
	b, err := CanonicalJSON(doc)
	if err != nil {
		return "", fmt.Errorf("digest suite: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// CanonicalJSON encodes v canonically (see the digest algorithm above).
func CanonicalJSON(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := writeCanonical(&b, tree); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeCanonical(b *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			if err := writeCanonical(b, t[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeCanonical(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case string:
		writeString(b, t)
	case json.Number:
		s, err := canonicalNumber(t)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	default:
		return fmt.Errorf("canonical json: unexpected %T", v)
	}
	return nil
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // strings always encode
	b.Truncate(b.Len() - 1)
}

func canonicalNumber(n json.Number) (string, error) {
	f, err := strconv.ParseFloat(n.String(), 64)
	if err != nil || math.IsInf(f, 0) {
		return "", fmt.Errorf("canonical json: number %s is outside the float64 range", n)
	}
	if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return strconv.FormatInt(int64(f), 10), nil
	}
	return strconv.FormatFloat(f, 'g', -1, 64), nil
}
